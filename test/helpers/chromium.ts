import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** The Chromium the browser tests drive (`apt-get install chromium`; CHROMIUM_PATH overrides). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Whether the browser tests run. In CI a missing Chromium is a failure, never a skip; on a
 * developer's machine the tests are skipped with a visible notice.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI) throw new Error(`Chromium is not installed at ${CHROMIUM}, and CI must run the browser tests (apt-get install chromium)`)
  process.stderr.write(`\n  NOTICE: Chromium is not installed at ${CHROMIUM}: the browser tests are SKIPPED (apt-get install chromium)\n\n`)
  return false
}

/** A headless Chromium that stays on this machine (no background networking, no updates). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
