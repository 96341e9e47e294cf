#!/usr/bin/env node
// The tokenrisk command. Sources are TypeScript, loaded through tsx so that a fresh clone runs
// without a build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
