import type { Analyses } from '../../analyses/analyses.ts'
import { isAuthorized } from '../../analyses/authorization.ts'
import { checkedVariables, ownerVariables, stripConversion } from '../../analyses/owner-variables.ts'
import { identifierName, isLiteral, isMsgData } from '../../analyses/syntax.ts'
import type { CallIr, ContractIr, FunctionIr, SourceNode } from '../../ir/types.ts'
import { nodeText } from '../../source.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'

/** Shortest contract name matched inside a variable's name (`_walletLibrary` → `WalletLibrary`). */
const MIN_MATCHED_NAME = 5

/** How many functions a finding names. */
const MAX_NAMED = 3

export const delegatecallForwarding = defineDetector({
  id: 'delegatecall-forwarding',
  title: 'Every call forwarded by delegatecall',
  category: 'access-control',
  severity: 'high',
  lowered:
    "Informational when the code called cannot be found in the project (a proxy's implementation): the finding then only says that every function of that code runs in this contract's storage.",
  confidence: 'medium',
  explanation:
    "The contract forwards any call it does not know (`msg.data`) to a library or implementation by delegatecall. Every public function of that code then runs with this contract's storage and balance, outside this contract's own checks: a function there that nothing restricts (an initializer setting the owners, a kill switch) is open to anyone here.",
  recommendation:
    'Forward only the functions meant to be forwarded (match the selector), and make sure the code called has no unrestricted initializer or self-destruct: initialize it in its own deployment and restrict every function that changes owners.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      const reached = analyses.dispatch.reachableFunctions(fn, context)
      if (!reached.some((f) => f.facts.calls.some(isDelegatecall)) || isAuthorized(analyses, fn, context)) continue
      for (const holder of reached) {
        for (const call of holder.facts.calls) {
          if (!isDelegatecall(call) || !forwardsCalldata(holder, call)) continue
          // A target the entry point's caller picks is controlled-delegatecall's finding.
          if (holder === fn && call.target && analyses.taint.dependsOnParameters(call.target, fn)) continue
          if (!holder.file.own) continue
          const target = call.target ? code(holder.file, call.target) : 'the implementation'
          const library = call.target ? resolveTarget(analyses, holder, call.target) : null
          if (!library) {
            report(call.node, holder.file, `${functionLabel(fn)} forwards every call to ${target} by delegatecall.`, { foundIn: [{ fn, context }], severity: 'informational' })
            continue
          }
          const open = openFunctions(analyses, library)
          if (open.length === 0) continue
          const described = enumerate(open.map((o) => `${functionLabel(o.fn)} (${o.what})`), MAX_NAMED)
          report(call.node, holder.file, `${functionLabel(fn)} forwards every call to ${target} (\`${library.name}\`) by delegatecall, so anyone can run ${described} with \`${context.name}\`'s storage and balance.`, {
            foundIn: [{ fn, context }],
            evidence: open.filter((o) => o.fn.file.own).map((o) => ({ node: o.fn.node, file: o.fn.file })),
          })
        }
      }
    }
  },
})

function isDelegatecall(call: CallIr): boolean {
  return call.kind === 'low-level' && (call.lowLevel === 'delegatecall' || call.lowLevel === 'callcode')
}

/** Whether a delegatecall passes on the calldata: `msg.data` in Solidity, or `calldatacopy` of `calldatasize()` in the assembly around it. */
function forwardsCalldata(holder: FunctionIr, call: CallIr): boolean {
  if (call.assembly) return holder.facts.assembly.some((block) => /\bcalldatacopy\s*\(/.test(nodeText(holder.file, block, Number.MAX_SAFE_INTEGER)) && /\bcalldatasize\s*\(/.test(nodeText(holder.file, block, Number.MAX_SAFE_INTEGER)))
  return call.args.some(isMsgData)
}

/**
 * The contract or library a delegatecall target stands for: the contract type of the state
 * variable holding it, or the project's contract whose name the variable's name holds
 * (`_walletLibrary` for `WalletLibrary`); null when it cannot be told.
 */
function resolveTarget(analyses: Analyses, holder: FunctionIr, target: SourceNode): ContractIr | null {
  const name = identifierName(stripConversion(target))
  if (name === null || !holder.contract) return null
  const variable = analyses.scope.stateVariable(holder.contract, name)
  if (!variable) return null
  if (variable.type.kind === 'contract' && variable.type.contract) return variable.type.contract
  const spelled = variable.name.toLowerCase().replace(/_/g, '')
  const candidates = analyses.ir.contracts.filter((c) => c.file.own && c !== holder.contract && (c.kind === 'contract' || c.kind === 'library' || c.kind === 'abstract') && c.name.length >= MIN_MATCHED_NAME && spelled.includes(c.name.toLowerCase()))
  candidates.sort((a, b) => b.name.length - a.name.length)
  return candidates[0] ?? null
}

/** Entry points of the code called that nothing restricts and that set who may act (an owner, the owners' list) or self-destruct. */
function openFunctions(analyses: Analyses, library: ContractIr): { fn: FunctionIr; what: string }[] {
  const owners = new Set([...ownerVariables(analyses, library).keys(), ...checkedVariables(analyses, library)])
  const result: { fn: FunctionIr; what: string }[] = []
  for (const g of analyses.dispatch.entryPoints(library)) {
    if (g.mutability === 'view' || g.mutability === 'pure' || isAuthorized(analyses, g, library)) continue
    const reached = analyses.dispatch.reachableFunctions(g, library)
    if (reached.some((f) => f.facts.calls.some((c) => c.kind === 'builtin' && (c.name === 'selfdestruct' || c.name === 'suicide')))) {
      result.push({ fn: g, what: 'self-destructs' })
      continue
    }
    const set = new Set<string>()
    for (const e of analyses.effects.flatEffects(g, library)) {
      if (e.effect.kind !== 'write' || !owners.has(e.effect.access.variable)) continue
      const assignment = e.effect.access.assignment
      // Clearing an owner to a constant gives no one access; setting an entry of a list (`isOwner[a] = true`) does.
      if (assignment?.value && identifierName(assignment.target) !== null && isLiteral(assignment.value)) continue
      set.add(`\`${e.effect.access.variable.name}\``)
    }
    if (set.size > 0) result.push({ fn: g, what: `sets ${[...set].join(', ')}` })
  }
  return result
}
