import { defineDetector } from '../define-detector.ts'

export const pragmaFloating = defineDetector({
  id: 'pragma-floating',
  title: 'Floating compiler version',
  category: 'compiler',
  severity: 'informational',
  confidence: 'high',
  explanation:
    'A deployable contract should be deployed with the compiler it was tested and audited with. A floating pragma (`^`, `>=`, a range) lets a different version — with different bugs and optimizer behaviour — compile it.',
  recommendation: 'Pin the exact compiler version in files with deployable contracts (`pragma solidity 0.8.24;`); libraries and interfaces meant for reuse may keep a range.',
  detect({ files, report }) {
    for (const file of files) {
      if (!file.contracts.some((c) => c.kind === 'contract')) continue
      const pragmas = file.pragmas.filter((p) => p.name === 'solidity')
      if (pragmas.length === 0) {
        const first = file.ast.children[0]
        if (first) report(first, file, `\`${file.path}\` has no \`pragma solidity\`, so any compiler version builds it.`)
        continue
      }
      if (file.compiler?.pinned) continue
      for (const pragma of pragmas) report(pragma, file, `\`pragma solidity ${pragma.value}\` does not pin a version.`)
    }
  },
})
