import type { FunctionIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const externalFunction = defineDetector({
  id: 'external-function',
  title: 'Public function could be external',
  category: 'optimization',
  severity: 'optimization',
  confidence: 'high',
  explanation: 'The public function is never called from inside the contract and copies its array, bytes or string arguments to memory; as external with calldata parameters it would read them in place.',
  recommendation: 'Declare the function `external` and its reference parameters `calldata`.',
  detect({ analyses, functions, report }) {
    const calledInternally = new Set<FunctionIr>()
    const calledNames = new Set<string>()
    for (const fn of analyses.dispatch.allFunctions()) {
      for (const call of fn.facts.calls) {
        if (call.kind !== 'internal') continue
        if (call.callee) calledInternally.add(call.callee)
        calledNames.add(call.name)
      }
    }
    for (const fn of functions) {
      if (fn.kind !== 'function' || fn.visibility !== 'public' || fn.body === null || !fn.contract) continue
      if (fn.contract.kind !== 'contract' && fn.contract.kind !== 'abstract') continue
      if (fn.isVirtual || fn.isOverride) continue
      if (calledInternally.has(fn) || calledNames.has(fn.name)) continue
      const copied = fn.params.filter((p) => p.storageLocation === 'memory')
      if (copied.length === 0) continue
      report(fn.node, fn.file, `${functionLabel(fn)} is public, never called internally, and copies ${copied.map((p) => `\`${p.name ?? '?'}\``).join(', ')} to memory.`, { header: true })
    }
  },
})
