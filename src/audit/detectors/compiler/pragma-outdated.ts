import { CHECKED_ARITHMETIC_SINCE } from '../../ir/version.ts'
import { defineDetector } from '../define-detector.ts'

export const pragmaOutdated = defineDetector({
  id: 'pragma-outdated',
  title: 'Outdated compiler version',
  category: 'compiler',
  severity: 'low',
  confidence: 'high',
  explanation:
    'The pragma only allows compilers older than 0.8.0: no checked arithmetic by default, and many compiler bugs fixed since then apply.',
  recommendation: 'Port the code to a recent 0.8 compiler; until then use SafeMath everywhere and review the known bugs of the chosen version.',
  detect({ files, report }) {
    for (const file of files) {
      if (file.compiler === null || file.compiler.max > CHECKED_ARITHMETIC_SINCE) continue
      const pragma = file.pragmas.find((p) => p.name === 'solidity')
      if (!pragma) continue
      report(pragma, file, `\`pragma solidity ${pragma.value}\` allows only compilers before 0.8.0.`)
    }
  },
})
