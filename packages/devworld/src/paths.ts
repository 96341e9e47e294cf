import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Root of the devworld package: one level above this module, whether it runs from its sources
 * (`src/`) or from its build (`dist/`).
 */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The package's TypeScript sources, whichever copy runs. */
export const SOURCES_DIR = resolve(PACKAGE_ROOT, 'src')
