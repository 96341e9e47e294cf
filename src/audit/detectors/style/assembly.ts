import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

export const assembly = defineDetector({
  id: 'assembly',
  title: 'Inline assembly',
  category: 'style',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'Inline assembly bypasses the compiler’s safety checks (types, memory safety, overflow); mistakes in it are easy to make and hard to see.',
  recommendation: 'Keep assembly to small, well-commented blocks with tests, or replace it with Solidity.',
  detect({ functions, report }) {
    for (const fn of functions) {
      for (const block of fn.facts.assembly) report(block, fn.file, `${functionLabel(fn)} uses inline assembly.`, { header: true })
    }
  },
})
