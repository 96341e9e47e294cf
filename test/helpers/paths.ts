import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Root of the repository. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The repository's `node_modules`: the include path (solc's `--include-path`) of the audit
 * fixtures that import OpenZeppelin, since the analyzer reads nothing outside a project otherwise.
 */
export const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))

/**
 * Where the tests keep the data directories they reuse from run to run: under the system's
 * temporary folder, one per checkout (keyed by its path), never in the project's `data/`.
 */
export const TEST_DATA_ROOT = join(tmpdir(), `tokenrisk-test-${createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12)}`)

/** The data directory of the shared test world: built or loaded once by the global setup, loaded by the test files. */
export const TEST_DEVNET_DIR = join(TEST_DATA_ROOT, 'test-devnet')
