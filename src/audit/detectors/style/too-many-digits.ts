import { nodesOf, numberLiteralsIn } from '../../analyses/syntax.ts'
import type { SourceFileIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'

/** Consecutive zeros from which a literal is hard to read. */
const ZEROS = /0{5,}/

export const tooManyDigits = defineDetector({
  id: 'too-many-digits',
  title: 'Number literal with many digits',
  category: 'style',
  severity: 'informational',
  confidence: 'medium',
  explanation: 'Long runs of zeros are easy to miscount; a missing or extra zero changes an amount by a factor of ten.',
  recommendation: 'Use scientific notation (`1e18`), underscores (`1_000_000`) or units (`1 ether`).',
  detect({ contracts, functions, report }) {
    const check = (node: SourceNode & { number: string; subdenomination?: string | null }, file: SourceFileIr): void => {
      const text = node.number
      if (text.startsWith('0x') || text.includes('_') || /[eE]/.test(text) || node.subdenomination) return
      if (!ZEROS.test(text)) return
      report(node, file, `\`${text}\` has ${text.length} digits.`)
    }
    for (const fn of functions) for (const n of nodesOf(fn, 'NumberLiteral')) check(n, fn.file)
    for (const contract of contracts) {
      for (const v of contract.stateVariables) {
        for (const n of numberLiteralsIn(v.initialValue)) check(n, contract.file)
      }
    }
  },
})
