import { declaresWithVar, isMemberCall, nodesOf } from '../../analyses/syntax.ts'
import type { SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const deprecatedConstructs = defineDetector({
  id: 'deprecated-constructs',
  title: 'Deprecated Solidity construct',
  category: 'deprecated',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'The construct is deprecated and removed from current compilers; code using it ties the project to old compiler versions with known bugs and unchecked arithmetic.',
  recommendation: 'Replace it with its modern equivalent and upgrade the compiler.',
  detect({ functions, report }) {
    for (const fn of functions) {
      const say = (node: SourceNode, what: string, instead: string): void =>
        report(node, fn.file, `${functionLabel(fn)} uses ${what}; use ${instead}.`)
      if (fn.isDeclaredConstant) say(fn.node, 'a `constant` function', '`view`')
      for (const call of fn.facts.calls) {
        if (call.kind === 'builtin' && call.name === 'sha3') say(call.node, '`sha3`', '`keccak256`')
        else if (call.kind === 'builtin' && call.name === 'suicide') say(call.node, '`suicide`', '`selfdestruct` (or no self-destruction at all)')
        else if (call.kind === 'builtin' && call.name === 'blockhash' && isMemberCall(call.node)) say(call.node, '`block.blockhash`', '`blockhash`')
        else if (call.kind === 'low-level' && call.lowLevel === 'callcode') say(call.node, '`callcode`', '`delegatecall`')
        else if (call.kind === 'option') say(call.node, `\`.${call.name}(…)\` call options`, `\`{${call.name}: …}\``)
      }
      for (const node of fn.facts.nodes.get('ThrowStatement') ?? []) say(node, '`throw`', '`revert()` or `require()`')
      for (const statement of nodesOf(fn, 'VariableDeclarationStatement')) {
        if (declaresWithVar(statement)) say(statement, '`var`', 'an explicit type (`var` can infer a too-small integer type)')
      }
      for (const { value, node } of fn.facts.environment) if (value === 'msg.gas') say(node, '`msg.gas`', '`gasleft()`')
      for (const node of nodesOf(fn, 'Identifier')) {
        if (node.name === 'now' && !fn.facts.locals.has('now')) say(node, '`now`', '`block.timestamp`')
      }
      for (const node of nodesOf(fn, 'NumberLiteral')) {
        if (node.subdenomination === 'years') say(node, 'the `years` unit', 'an explicit number of days (a year is not always 365 days)')
      }
    }
  },
})

