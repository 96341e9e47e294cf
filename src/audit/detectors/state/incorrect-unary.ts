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
      for (const assignment of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (assignment.operator !== '=' || !assignment.range || !assignment.left.range) continue
        const right = unwrap(assignment.right)
        if (right.type !== 'UnaryOperation' || !UNARY.has((right as AST.UnaryOperation).operator) || !(right as AST.UnaryOperation).isPrefix || !right.range) continue
        // The text between the target and the operand: ` =+ ` (spaced before `=`, nothing between `=` and the operator).
        const between = fn.file.source.slice(assignment.left.range[1] + 1, right.range[0] + 1)
        const operator = (right as AST.UnaryOperation).operator
        if (!new RegExp(`^\\s+=\\${operator}$`).test(between)) continue
        report(assignment, fn.file, `${functionLabel(fn)} assigns \`=${operator}\` where \`${operator === '!' ? '!=' : `${operator}=`}\` was probably meant: ${code(fn.file, assignment)}.`)
      }
    }
  },
})
