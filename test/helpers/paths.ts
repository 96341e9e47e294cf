import { fileURLToPath } from 'node:url'

/** Root of the repository. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url))
