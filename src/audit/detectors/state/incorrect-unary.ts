import type * as AST from '../../parse/ast.ts'
import { unwrap } from '../../analyses/syntax.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const UNARY: ReadonlySet<string> = new Set(['+', '-', '!'])

export const incorrectUnary = defineDetector({
  id: 'incorrect-unary',
  title: 'Assignment typo (=+, =-, =!)',
  category: 'state',
  severity: 'medium',
  confidence: 'medium',
  explanation:
    '`x =+ y` is `x = +y`, not `x += y`: the variable is overwritten instead of added to (likewise `=-` for `-=` and `=!` for `!=` or `= !`). The typo compiles (unary plus only before Solidity 0.5) and silently resets balances and totals. Reported when the `=` is spaced from its target and glued to the operator (`total =+ x`, `debt =- paid`, `open =! closed`); `x = -y`, `x=-1` written without any spaces, and `x -= y` are not.',
  recommendation: 'Write the compound assignment you meant (`+=`, `-=`), or put a space between `=` and a unary operator you do mean (`x = -y`).',
  detect({ functions, report }) {
    for (const fn of functions) {
      /** Reports `statement` when the text from `targetEnd` to the operand reads ` =+` (spaced before `=`, nothing between `=` and the operator). */
      const check = (statement: AST.BaseASTNode, targetEnd: number, value: AST.BaseASTNode): void => {
        const right = unwrap(value)
        if (right.type !== 'UnaryOperation' || !UNARY.has((right as AST.UnaryOperation).operator) || !(right as AST.UnaryOperation).isPrefix || !right.range) return
        const between = fn.file.source.slice(targetEnd + 1, right.range[0] + 1)
        const operator = (right as AST.UnaryOperation).operator
        if (!new RegExp(`^\\s+=\\${operator}$`).test(between)) return
        report(statement, fn.file, `${functionLabel(fn)} assigns \`=${operator}\` where \`${operator === '!' ? '!=' : `${operator}=`}\` was probably meant: ${code(fn.file, statement)}.`)
      }
      for (const assignment of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (assignment.operator === '=' && assignment.left.range) check(assignment, assignment.left.range[1], assignment.right)
      }
      // `uint256 left =- spent;` in a declaration.
      for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
        const last = d.variables[d.variables.length - 1] as AST.VariableDeclaration | null
        if (d.initialValue && d.variables.length === 1 && last?.range) check(d, last.range[1], d.initialValue)
      }
    }
  },
})
