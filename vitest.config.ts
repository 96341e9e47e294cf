import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Workspace packages (tokenrisk itself, @tokenrisk/devworld) resolve to their TypeScript sources.
  resolve: { conditions: ['tokenrisk-source'] },
  ssr: { resolve: { conditions: ['tokenrisk-source'], externalConditions: ['tokenrisk-source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // This project's CI machines have two cores; chains and databases run beside the tests.
    maxWorkers: 2,
    minWorkers: 1,
  },
})
