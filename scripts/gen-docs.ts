// `npm run docs`: writes docs/checks.md from the checks' metadata (EVM, and Solana when present).
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from '../src/contracts/compile.ts'
import { EVM_CHECKS } from '../src/token/checks/registry.ts'
import { renderChecksDoc, type ChecksDocSection } from '../src/token/docs.ts'

export const CHECKS_DOC = join(PROJECT_ROOT, 'docs', 'checks.md')

/** The sections of docs/checks.md: EVM checks, then Solana checks when their registry exists. */
export async function checksDocSections(): Promise<ChecksDocSection[]> {
  const sections: ChecksDocSection[] = [{ title: 'EVM tokens', checks: EVM_CHECKS }]
  const solana = join(PROJECT_ROOT, 'src', 'solana', 'checks', 'registry.ts')
  if (existsSync(solana)) {
    const mod = (await import(pathToFileURL(solana).href)) as { SOLANA_CHECKS?: ChecksDocSection['checks'] }
    if (mod.SOLANA_CHECKS) sections.push({ title: 'Solana tokens', checks: mod.SOLANA_CHECKS })
  }
  return sections
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = renderChecksDoc(await checksDocSections())
  writeFileSync(CHECKS_DOC, text)
  console.log(`wrote ${CHECKS_DOC}`)
}
