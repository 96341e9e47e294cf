import type { Analyses } from '../../analyses/analyses.ts'
import type { DispatchContext } from '../../analyses/dispatch.ts'
import { identifierName, unwrap, withoutConversion } from '../../analyses/syntax.ts'
import type { FunctionIr, SourceNode } from '../../ir/types.ts'
import { isAddressType } from '../../ir/typing.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

/** Parameter indexes of `fn` that it (or what it calls with them, as `context` runs it) compares with zero. */
function zeroCheckedParameters(analyses: Analyses, fn: FunctionIr, context: DispatchContext, memo: Map<FunctionIr, Set<number>>): Set<number> {
  const known = memo.get(fn)
  if (known) return known
  const result = new Set<number>()
  memo.set(fn, result)
  const indexOf = (node: SourceNode): number => {
    const name = identifierName(node)
    return name === null ? -1 : fn.params.findIndex((p) => p.name === name)
  }
  for (const guard of fn.facts.guards) {
    const condition = fn.facts.conditions.find((c) => c.node === guard.condition)
    for (const { operator, left, right, condition: innermost, direct } of condition?.comparisons ?? []) {
      // The guard's own parts (joined by `&&`, `||`, `!`), not comparisons nested in calls or `?:`.
      if (innermost !== condition || !direct || operator === '<=' || operator === '>=') continue
      if (right.zero && indexOf(left.expression) >= 0) result.add(indexOf(left.expression))
      if (left.zero && indexOf(right.expression) >= 0) result.add(indexOf(right.expression))
    }
  }
  const passOn = (callee: FunctionIr | null, args: readonly SourceNode[] | null): void => {
    if (!callee || !args) return
    const inner = zeroCheckedParameters(analyses, callee, context, memo)
    args.forEach((arg, i) => {
      if (inner.has(i) && indexOf(arg) >= 0) result.add(indexOf(arg))
    })
  }
  for (const call of fn.facts.calls) if (call.kind === 'internal' || call.kind === 'library') passOn(analyses.dispatch.calleeIn(call, fn, context), call.args)
  for (const m of fn.modifierCalls) {
    const modifier = analyses.dispatch.modifierIn(m, fn, context)
    if (modifier) passOn(modifier, m.node.arguments)
    else passOn(baseConstructor(fn, m.name), m.node.arguments)
  }
  return result
}

function baseConstructor(fn: FunctionIr, name: string): FunctionIr | null {
  const base = fn.contract?.linearization.find((c) => c.name === name)
  return base?.functions.find((f) => f.kind === 'constructor') ?? null
}

export const missingZeroCheck = defineDetector({
  id: 'missing-zero-check',
  title: 'Missing zero-address check',
  category: 'access-control',
  severity: 'low',
  confidence: 'medium',
  explanation:
    'An address argument is stored or paid without rejecting the zero address. A mistaken or default value then locks the role or burns the funds, often irreversibly.',
  recommendation: 'Require the address to be non-zero before storing it or sending to it.',
  detect({ analyses, functions, entryPoints, report }) {
    const memos = new Map<DispatchContext, Map<FunctionIr, Set<number>>>()
    const constructors = functions.filter((f) => f.kind === 'constructor').map((fn) => ({ fn, context: fn.contract }))
    for (const { fn, context } of [...constructors, ...entryPoints]) {
      if (!fn.file.own) continue
      const memo = memos.get(context) ?? new Map<FunctionIr, Set<number>>()
      memos.set(context, memo)
      const addressParams = new Map<string, number>()
      fn.params.forEach((p, i) => {
        const local = p.name ? fn.facts.locals.get(p.name) : undefined
        if (local && isAddressType(local.type)) addressParams.set(local.name, i)
      })
      if (addressParams.size === 0) continue
      const checked = zeroCheckedParameters(analyses, fn, context, memo)
      const parameterIn = (node: SourceNode | null): string | null => {
        // p, payable(p), address(p)
        const name = node ? identifierName(withoutConversion(node)) : null
        if (name === null) return null
        const index = addressParams.get(name)
        return index !== undefined && !checked.has(index) ? name : null
      }
      for (const write of fn.facts.stateWrites) {
        const { statement, assignment } = write
        if (!statement || assignment?.operator !== '=') continue
        if (unwrap(assignment.target) !== write.node) continue
        if (!isAddressType(write.variable.type) && write.variable.type.kind !== 'contract') continue
        const name = parameterIn(assignment.value)
        if (!name) continue
        report(statement, fn.file, `${functionLabel(fn)} stores \`${name}\` in \`${write.variable.name}\` without checking it against the zero address.`, { foundIn: [{ fn, context }] })
      }
      for (const call of fn.facts.calls) {
        if (call.kind !== 'transfer' && call.kind !== 'send' && !(call.kind === 'low-level' && call.value !== null)) continue
        const name = parameterIn(call.target)
        if (!name) continue
        report(call.node, fn.file, `${functionLabel(fn)} sends ETH to \`${name}\` without checking it against the zero address: ${code(fn.file, call.node)}.`, { foundIn: [{ fn, context }] })
      }
    }
  },
})
