// A read that fails is "not read", never 0: on the local world, a token of ours whose balanceOf
// reverts for one account (and, deployed again, whose totalSupply reverts) is read by the probe's
// readers; the account that cannot be read comes back unknown, beside a read 0 and a read 2^256 - 1,
// and the code that concludes from those reads says "unknown" rather than "nothing there".
import { createPublicClient, encodeDeployData, getAddress, http, maxUint256, type Abi, type Address, type Hex, type PublicClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { ACTOR_CODE, PROBE_ADDRESSES, decodeCreationBalances, decodeHolderSells, decodePools, decodePresence, encodeCreationBalances, encodeHolderSells, encodePools, encodePresence, probeCode, type DexQuery } from '../src/engines/evm/chain/probe.ts'
import { poolFacts } from '../src/engines/evm/collect/markets.ts'
import { uniswapV2 } from '../src/engines/evm/venues/uniswap-v2.ts'
import { uniswapV3 } from '../src/engines/evm/venues/uniswap-v3.ts'
import { solidly } from '../src/engines/evm/venues/solidly.ts'
import { holderSellFact } from '../src/engines/evm/collect/holder-sells.ts'
import { creationVerdict } from '../src/engines/evm/collect/creation-supply.ts'
import { eventEffect } from '../src/engines/evm/collect/power-trace.ts'
import { isPlausible } from '../src/engines/evm/collect/slot-accounts.ts'
import { loadArtifact } from './helpers/contracts.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { createDeployer } from './fixtures/evm/deploy.ts'

const DATA_DIR = TEST_DEVNET_DIR
const UNREADABLE = '0x00000000000000000000000000000000000a11ce' as Address
const FULL = '0x00000000000000000000000000000000000f0110' as Address
const EMPTY = '0x0000000000000000000000000000000000000e11' as Address

let world: World
let pub: PublicClient
let token: Address
let deploy: (contract: string, args?: unknown[]) => Promise<Address>

/** The probe called as the engine calls it: its code put at its address for this one call. */
async function probe(data: Hex, actors: Address[] = []): Promise<Hex> {
  const { data: out } = await pub.call({
    to: PROBE_ADDRESSES.main,
    data,
    gas: 30_000_000n,
    stateOverride: [{ address: PROBE_ADDRESSES.main, code: probeCode() }, ...actors.map((address) => ({ address, code: ACTOR_CODE }))],
  })
  if (!out) throw new Error('the probe answered nothing')
  return out
}

function initCode(supplyReverts: boolean): Hex {
  const artifact = loadArtifact('UnreadableReadsToken')
  return encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: [UNREADABLE, FULL, supplyReverts] })
}

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  pub = createPublicClient({ chain: foundry, transport: http(world.rpcUrl) }) as PublicClient
  const deployer = await createDeployer(world.rpcUrl)
  token = await deployer.deploy('UnreadableReadsToken', [UNREADABLE, FULL, false])
  deploy = (contract, args) => deployer.deploy(contract, args)
})

afterAll(async () => {
  await world?.stop()
})

describe('a failed read is not read, never 0', () => {
  it('presence: the balance that reverts is unknown, a balance of 0 and one of 2^256 - 1 are read', async () => {
    const { balances, codeSizes } = decodePresence(await probe(encodePresence(token, [UNREADABLE, EMPTY, FULL])))
    expect(balances).toEqual([undefined, 0n, maxUint256])
    expect(codeSizes).toEqual([0n, 0n, 0n])
    // Unknown is not absent: an account whose balance could not be read (and with nothing else
    // read) stays a candidate; one read empty everywhere does not.
    expect(isPlausible({ slot: 0, offset: 0, address: UNREADABLE, codeSize: undefined, tokenBalance: balances[0], nativeBalance: undefined, nonce: undefined })).toBe(true)
    expect(isPlausible({ slot: 0, offset: 0, address: EMPTY, codeSize: 0n, tokenBalance: balances[1], nativeBalance: 0n, nonce: 0n })).toBe(false)
  })

  it('creation re-run: the balance that reverts and a supply that reverts are unknown; the creator\'s share is read', async () => {
    const run = decodeCreationBalances(await probe(encodeCreationBalances(initCode(false), [UNREADABLE, EMPTY, FULL, PROBE_ADDRESSES.main])))
    expect(run.supply).toBe(1_000_000n * 10n ** 18n)
    expect(run.balances).toEqual([undefined, 0n, maxUint256, 1_000_000n * 10n ** 18n])
    const hidden = decodeCreationBalances(await probe(encodeCreationBalances(initCode(true), [EMPTY])))
    expect(hidden.supply).toBeUndefined()
    expect(hidden.balances).toEqual([0n])
  })

  it('a creation verdict over a balance not read says unknown, not "none written"', async () => {
    const run = decodeCreationBalances(await probe(encodeCreationBalances(initCode(false), [UNREADABLE, EMPTY])))
    const v = creationVerdict([UNREADABLE, EMPTY], run.balances, new Map(), run.supply, 're-run', 'run again')
    expect(v.list).toEqual([])
    expect(v.percentOfSupply).toBeUndefined()
    expect(v.note).toContain(`1 balance(s) could not be read (${UNREADABLE})`)
    // All read: nothing found is a measured 0 %.
    const read = creationVerdict([EMPTY], [0n], new Map(), run.supply, 're-run', 'run again')
    expect(read.percentOfSupply).toBe(0)
    // The supply not read: no share at all.
    const hidden = decodeCreationBalances(await probe(encodeCreationBalances(initCode(true), [EMPTY])))
    expect(creationVerdict([EMPTY], hidden.balances, new Map(), hidden.supply, 're-run', 'run again').note).toContain('the supply is unknown')
  })

  it('a replay whose supply or a balance was not read concludes no mint, and says why; a measured loss still counts', () => {
    const owner = '0x00000000000000000000000000000000000000bb' as Address
    const hidden = '0x00000000000000000000000000000000000000cc' as Address
    const victim = '0x00000000000000000000000000000000000000dd' as Address
    const trace = (deltas: Record<string, bigint | undefined>, supplyDelta: bigint | undefined) => ({
      traced: true as const,
      named: new Set([owner, hidden, victim].map((a) => a.toLowerCase())),
      supplyDelta,
      delta: (a: Address) => deltas[a.toLowerCase()],
    })
    // Read on every side: the credit no debit explains is created.
    expect(eventEffect(trace({ [owner]: 0n, [hidden]: 500n, [victim]: 0n }, 0n), [owner]).minted).toEqual([{ account: getAddress(hidden), amount: 500n }])
    // The supply not read: whether the supply rose with the credit is unknown.
    const noSupply = eventEffect(trace({ [owner]: 0n, [hidden]: 500n, [victim]: -70n }, undefined), [owner])
    expect(noSupply.minted).toEqual([])
    expect(noSupply.unread).toContain('the total supply could not be read')
    expect(noSupply.taken).toEqual([{ account: getAddress(victim), amount: 70n }])
    // The watched owner's balance not read: its debit might pay the credit.
    const noOwner = eventEffect(trace({ [owner]: undefined, [hidden]: 500n, [victim]: 0n }, 0n), [owner])
    expect(noOwner.minted).toEqual([])
    expect(noOwner.unread).toContain(`the balance of ${owner} could not be read`)
  })

  it('a holder whose balance cannot be read is not a holder of 0: its sell is unknown for that reason', async () => {
    const pool = { pool: world.manifest.contracts.v2Factory, kind: 2 as const, quote: world.manifest.contracts.weth, feeBps: 30 }
    const raw = await probe(encodeHolderSells(token, pool, undefined, [UNREADABLE, EMPTY]), [UNREADABLE, EMPTY])
    const [unread, empty] = decodeHolderSells(raw).sells
    expect(unread.balanceRead).toBe(false)
    expect(holderSellFact(unread)).toMatchObject({ outcome: 'unknown', reason: 'its balance could not be read' })
    expect(empty.balanceRead).toBe(true)
    expect(holderSellFact(empty)).toMatchObject({ outcome: 'unknown', reason: 'no balance to sell' })
  })

  it('pool state: a pair whose getReserves and totalSupply revert has unknown reserves and LP supply, no price and no liquidity; one answering 0 is read empty', async () => {
    const weth = world.manifest.contracts.weth
    /** The probe's pool lens over a factory answering with one pool of ours, hiding the reads `hidden` says. */
    const lens = async (kind: DexQuery['kind'], hidden: number, reserves: [bigint, bigint] = [0n, 0n]) => {
      const pool = await deploy('UnreadablePool', [token, weth, hidden, ...reserves])
      const factory = await deploy('UnreadablePoolFactory', [pool])
      const [info] = decodePools(await probe(encodePools(token, [{ factory, kind, fees: kind === 3 ? [3000] : [] }], [weth])))
      return info
    }
    const tokenIs0 = BigInt(token) < BigInt(weth)
    // getReserves and totalSupply revert: unknown, never 0; token0 is read.
    const hidden = await lens(2, 1 | 2)
    expect(hidden).toMatchObject({ token0: tokenIs0 ? token : getAddress(weth), reserveToken: undefined, reserveQuote: undefined, lpSupply: undefined })
    expect(uniswapV2.price(hidden, token, 18, 18)).toBeUndefined()
    // The same facts as the report's pools: reserves and liquidity unknown, never 0.
    const ctx = { token, chain: { dexes: [{ name: 'a V2 exchange', type: 'uniswap-v2', feeBps: 30 }] } } as never
    const d = { pools: [hidden], quotes: [{ address: weth, decimals: 18, symbol: 'WETH' }], basics: { decimals: 18 } } as never
    const [fact] = poolFacts(ctx, d, { [weth.toLowerCase()]: 3000 })
    expect(fact).toMatchObject({ tokenReserve: undefined, quoteReserve: undefined, lpSupply: undefined, liquidityUsd: undefined, priceUsd: undefined })
    // A pair answering 0 everywhere is read empty: 0 is a value read.
    const empty = await lens(2, 0)
    expect(empty).toMatchObject({ reserveToken: 0n, reserveQuote: 0n, lpSupply: 0n })
    // token0 hidden: the reserves cannot be ordered, so they are unknown, whatever getReserves says.
    const unordered = await lens(2, 16, [5n, 7n])
    expect(unordered).toMatchObject({ token0: undefined, reserveToken: undefined, reserveQuote: undefined, lpSupply: 0n })
    // A V3 pool whose slot0 and liquidity revert: price and liquidity unknown, its balances read.
    const v3 = await lens(3, 4 | 8)
    expect(v3).toMatchObject({ sqrtPriceX96: undefined, liquidity: undefined, reserveToken: 0n, reserveQuote: 0n, fee: 3000 })
    expect(uniswapV3.price(v3, token, 18, 18)).toBeUndefined()
    // A Solidly factory whose getFee reverts: the fee is unknown, the reserves read.
    const volatile = await lens(5, 0, [5n, 7n])
    expect(volatile).toMatchObject({ fee: undefined, reserveToken: tokenIs0 ? 5n : 7n, reserveQuote: tokenIs0 ? 7n : 5n })
    expect(solidly.fee({} as never, volatile)).toBeUndefined()
  })
})
