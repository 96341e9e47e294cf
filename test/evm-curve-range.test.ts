// The 24 h price range of a token on a four.meme-interface curve counts its sales back to the curve
// as well as its buys: a sale lowers the curve's price, and the range's low with it.
import type { Abi, Address } from 'viem'
import { erc20Abi, maxUint256 } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { loadArtifact } from '@tokenrisk/devworld/compile'
import { createWorldChain } from '@tokenrisk/devworld/chain'
import { createDevnetRpc } from '@tokenrisk/devworld/rpc'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

let world: World
let service: ReturnType<typeof createEvmReportService>

beforeAll(async () => {
  world = await startWorld({ dataDir: TEST_DEVNET_DIR })
  const registry = loadChainRegistry({ chains: localChains(world.manifest) })
  service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { cacheTtlMs: 0 } })
}, 240_000)

afterAll(async () => {
  await world?.stop()
})

describe('a token on a four.meme-interface curve', () => {
  it('has a 24 h range that its sales back to the curve lower, not only its buys', async () => {
    const token = world.manifest.tokens.find((t) => t.key === 'fourmeme-clean')!.address as Address
    const before = await service.reportWithFacts(31337, token, {})
    // Its buys in the world may be older than a day: then the range is the current price.
    const counted = /^(\d+) pool events in the last 24 h/.exec(before.facts.markets.dayRangeNote)
    const events = counted ? Number(counted[1]) : 0
    const low = Number(before.report.tokenInformation.marketData.pastOneDayLow)
    expect(low).toBeGreaterThan(0)

    // A first buyer sells half of what it holds back to the curve.
    const seller = world.manifest.accounts!.traders[0] as Address
    const manager = world.manifest.contracts.fourMemeManager as Address
    const chain = createWorldChain(createDevnetRpc(world.rpcUrl))
    const held = await chain.read<bigint>(token, erc20Abi, 'balanceOf', [seller])
    expect(held).toBeGreaterThan(0n)
    await chain.send(seller, token, erc20Abi, 'approve', [manager, maxUint256])
    await chain.send(seller, manager, loadArtifact('WorldFourMemeManager').abi as Abi, 'sellToken', [token, held / 2n])
    // Mined and checked: a transaction that failed throws.
    await chain.mine()

    const after = await service.reportWithFacts(31337, token, {})
    expect(after.facts.markets.dayRangeNote).toMatch(new RegExp(`^${events + 1} pool events in the last 24 h`))
    const m = after.report.tokenInformation.marketData
    expect(Number(m.pastOneDayLow)).toBeLessThan(low)
    expect(Number(m.pastOneDayHigh)).toBeGreaterThanOrEqual(Number(m.pastOneDayLow))
  }, 120_000)
})
