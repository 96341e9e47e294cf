import type { Analyses } from '../analyses/analyses.ts'
import type { CallIr, FunctionIr, SourceFileIr, SourceNode, StateVariableIr } from '../ir/types.ts'
import { nodeText } from '../source.ts'

/** How a function is named in a finding: `Vault.withdraw()`, the constructor of `Vault`, … */
export function functionLabel(fn: FunctionIr): string {
  const owner = fn.contract ? fn.contract.name : ''
  switch (fn.kind) {
    case 'constructor':
      return `the constructor of \`${owner}\``
    case 'fallback':
      return `the fallback function of \`${owner}\``
    case 'receive':
      return `\`receive()\` of \`${owner}\``
    case 'modifier':
      return `modifier \`${owner ? `${owner}.` : ''}${fn.name}\``
    default:
      return `\`${owner ? `${owner}.` : ''}${fn.name}()\``
  }
}

/** `a`, `a and b`, `a, b and c`, `a, b, c and 2 more` (at most `max` named). */
export function enumerate(items: readonly string[], max: number): string {
  const named = items.slice(0, max)
  const more = items.length - named.length
  if (more > 0) return `${named.join(', ')} and ${more} more`
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}` : (named[0] ?? '')
}

/** `name` of a state variable as shown in findings. */
export function variableLabel(variable: StateVariableIr): string {
  return `\`${variable.name}\``
}

/** The call's source text, shortened. */
export function callText(file: SourceFileIr, call: CallIr): string {
  return `\`${nodeText(file, call.node, 70)}\``
}

/** The source text of a node in backticks. */
export function code(file: SourceFileIr, node: SourceNode, maxLength = 70): string {
  return `\`${nodeText(file, node, maxLength)}\``
}

/** Whether a call can run code we do not control and that code could call back (reenter). */
export function canReenter(call: CallIr): boolean {
  switch (call.kind) {
    case 'low-level':
      return call.lowLevel !== 'staticcall'
    case 'external':
      return !(call.callee !== null && (call.callee.mutability === 'view' || call.callee.mutability === 'pure'))
    default:
      return false
  }
}

/**
 * Whether a call's result is looked at (see `DataFlowAnalysis.resultChecked`): followed through
 * locals, state variables and internal returns to a condition or other use, so a flag copied or
 * returned by a helper and checked later counts, and a flag only stored does not. For a call made
 * in assembly, what the walker found (`AssemblyCallFacts.successChecked`).
 */
export function resultChecked(analyses: Analyses, fn: FunctionIr, call: CallIr): boolean {
  if (call.assembly) return call.assembly.successChecked
  return analyses.dataflow.resultChecked(call, fn)
}

/**
 * For a result `resultChecked` says nobody looks at, where it went (else empty): `: it is
 * returned to …, which drop it` when internal functions hand it back to callers that ignore it
 * (those calls are the evidence), `: it is stored in …, which nothing checks`.
 */
export function droppedByCallers(analyses: Analyses, fn: FunctionIr, call: CallIr): { text: string; evidence: { node: SourceNode; file: SourceFileIr }[] } {
  if (call.assembly) return { text: '', evidence: [] }
  const { droppedAt, storedIn } = analyses.dataflow.resultUse(call, fn)
  const callers = [...new Set(droppedAt.map((d) => d.fn))]
  const parts = [
    ...(callers.length > 0 ? [`it is returned to ${enumerate(callers.map(functionLabel), 3)}, which ${callers.length === 1 ? 'drops' : 'drop'} it`] : []),
    ...(storedIn.length > 0 ? [`it is stored in ${enumerate(storedIn.map(variableLabel), 3)}, which nothing checks`] : []),
  ]
  return { text: parts.length > 0 ? `: ${parts.join(' and ')}` : '', evidence: droppedAt.map((d) => ({ node: d.node, file: d.fn.file })) }
}
