// Pre-Cancun and pre-Shanghai chains: the local world built on anvil with `--hardfork shanghai`
// (no transient storage) and `--hardfork london` (no PUSH0 either). The EVM version is detected,
// the probe and readers built for it run, and the zoo's risks are found as on a Cancun chain.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { startWorld } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { TEST_DATA_ROOT } from './helpers/paths.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const checksOf = (r: TokenReport) => ({ ...r.codeChecks.ownershipChecks, ...r.codeChecks.otherChecks })

describe.each([
  ['shanghai', 'shanghai'],
  ['london', 'paris'],
] as const)('the zoo on anvil --hardfork %s', (hardfork, evm) => {
  it(`is reported with the probe built for ${evm}: honeypot, mint and clean as on Cancun`, async () => {
    // Kept between runs in the system's temporary folder, never in the project's data/.
    const world = await startWorld({ dataDir: join(TEST_DATA_ROOT, `test-devnet-${hardfork}`), hardfork })
    try {
      const registry = loadChainRegistry({ chains: localChains(world.manifest) })
      const service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: 20_000, cacheTtlMs: 0 } })
      const caps = await service.capabilities(31337)
      expect(caps.evm).toEqual({ version: evm, source: 'detected' })
      expect(caps.stateOverride).toBe('yes')
      const report = async (key: string) => (await service.reportWithFacts(31337, world.manifest.tokens.find((t) => t.key === key)!.address, {})).report
      const honeypot = await report('honeypot')
      expect(honeypot.honeypotDetails.some((p) => p.isPairHoneypot === '1')).toBe(true)
      expect(checksOf(await report('mintable')).isMintable.status).toBe('1')
      expect(checksOf(await report('reserve-credit')).isMintable.status).toBe('1')
      const clean = await report('clean')
      expect(Object.entries(checksOf(clean)).filter(([, c]) => c.status !== '0')).toEqual([])
      expect(clean.honeypotDetails.every((p) => p.isPairHoneypot === '0')).toBe(true)
      await service.close()
    } finally {
      await world.stop()
    }
  }, 300_000)
})
