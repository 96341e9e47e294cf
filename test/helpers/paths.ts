import { fileURLToPath } from 'node:url'

/** Root of the repository. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The repository's `node_modules`: the include path (solc's `--include-path`) of the audit
 * fixtures that import OpenZeppelin, since the analyzer reads nothing outside a project otherwise.
 */
export const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url))
