// The 24 h price range of a token on a four.meme-interface curve counts its sales back to the curve
// as well as its buys: a sale lowers the curve's price, and the range's low with it.
import type { Abi, Address, Hex } from 'viem'
import { encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { loadArtifact } from '@tokenrisk/devworld/compile'
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

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const answer = (await (await fetch(world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result?: T; error?: { message: string } }
  if (answer.error) throw new Error(answer.error.message)
  return answer.result as T
}

/** Sends a transaction from an unlocked account of the local chain and waits for it to succeed. */
async function send(from: Address, to: Address, data: Hex): Promise<void> {
  const hash = await rpc<Hex>('eth_sendTransaction', [{ from, to, data }])
  let receipt: { status: Hex } | null = null
  for (let tries = 0; !receipt && tries < 50; tries++) {
    receipt = await rpc<{ status: Hex } | null>('eth_getTransactionReceipt', [hash])
    if (!receipt) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(receipt?.status).toBe('0x1')
}

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
    const held = BigInt(await rpc<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [seller] }) }, 'latest']))
    expect(held).toBeGreaterThan(0n)
    await send(seller, token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [manager, maxUint256] }))
    const managerAbi = loadArtifact('WorldFourMemeManager').abi as Abi
    await send(seller, manager, encodeFunctionData({ abi: managerAbi, functionName: 'sellToken', args: [token, held / 2n] }))

    const after = await service.reportWithFacts(31337, token, {})
    expect(after.facts.markets.dayRangeNote).toMatch(new RegExp(`^${events + 1} pool events in the last 24 h`))
    const m = after.report.tokenInformation.marketData
    expect(Number(m.pastOneDayLow)).toBeLessThan(low)
    expect(Number(m.pastOneDayHigh)).toBeGreaterThanOrEqual(Number(m.pastOneDayLow))
  }, 120_000)
})
