// `npm run docs` (part): writes the README's configuration table from the settings table
// (src/config/settings.ts), between its two markers.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { settingsTable } from '../src/config/settings.ts'
import { PROJECT_ROOT } from './build-contracts.ts'

export const README = join(PROJECT_ROOT, 'README.md')
export const SETTINGS_BEGIN = '<!-- settings:begin — written by npm run docs from src/config/settings.ts -->'
export const SETTINGS_END = '<!-- settings:end -->'

/** `readme` with the configuration table between the markers replaced by the current one. */
export function withSettingsTable(readme: string): string {
  const begin = readme.indexOf(SETTINGS_BEGIN)
  const end = readme.indexOf(SETTINGS_END)
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the markers ${SETTINGS_BEGIN} … ${SETTINGS_END}`)
  return `${readme.slice(0, begin + SETTINGS_BEGIN.length)}\n${settingsTable()}\n${readme.slice(end)}`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(README, withSettingsTable(readFileSync(README, 'utf8')))
  console.log(`wrote the configuration table of ${README}`)
}
