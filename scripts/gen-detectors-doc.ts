import fs from 'node:fs'
import path from 'node:path'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { renderDetectorsDoc } from '../src/audit/detectors/render-docs.ts'

/** Writes docs/detectors.md from the detector registry. Run: node --import tsx scripts/gen-detectors-doc.ts */
const target = path.join(import.meta.dirname, '..', 'docs', 'detectors.md')
fs.writeFileSync(target, renderDetectorsDoc(DETECTORS))
console.log(`wrote ${path.relative(process.cwd(), target)} (${DETECTORS.length} detectors)`)
