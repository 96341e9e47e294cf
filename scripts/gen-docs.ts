// `npm run docs`: writes docs/checks.md from the checks' metadata (EVM and Solana).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from './build-contracts.ts'
import { EVM_CHECKS } from '../src/engines/evm/checks/registry.ts'
import { SOLANA_CHECKS } from '../src/engines/solana/checks/registry.ts'
import { renderChecksDoc, type ChecksDocSection } from '../src/report/checks-doc.ts'

export const CHECKS_DOC = join(PROJECT_ROOT, 'docs', 'checks.md')

/** The sections of docs/checks.md: EVM checks, then Solana checks. */
export async function checksDocSections(): Promise<ChecksDocSection[]> {
  return [
    { title: 'EVM tokens', checks: EVM_CHECKS },
    { title: 'Solana tokens', checks: SOLANA_CHECKS },
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = renderChecksDoc(await checksDocSections())
  writeFileSync(CHECKS_DOC, text)
  console.log(`wrote ${CHECKS_DOC}`)
}
