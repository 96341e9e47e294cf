import { unaryTypos } from '../../analyses/shapes.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

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
      for (const { statement, operator } of unaryTypos(fn)) {
        report(statement, fn.file, `${functionLabel(fn)} assigns \`=${operator}\` where \`${operator === '!' ? '!=' : `${operator}=`}\` was probably meant: ${code(fn.file, statement)}.`)
      }
    }
  },
})
