// The local chain world, checked on the chain itself with viem, independently of the token
// engine: every zoo behaviour is real (and absent from its clean twin), and the manifest says
// what the chain says.
import { join } from 'node:path'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  parseAbiItem,
  parseEther,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadArtifact } from '@tokenrisk/devworld/compile'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { WORLD_TX_GAS } from '@tokenrisk/devworld/chain'
import { MULTICALL3_ADDRESS } from '@tokenrisk/devworld/dex'
import { loadDexArtifact } from '@tokenrisk/devworld/dex-artifacts'
import type { DevnetManifest, ManifestToken } from '@tokenrisk/devworld/manifest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { HONEYPOT_REASON, POOL_HONEYPOT_REASON } from '@tokenrisk/devworld/zoo'
import { OTHER_CHECKS, OWNERSHIP_CHECKS, type EvmCheckName } from '../src/contract/checks.ts'
import { VENUE_ZOO } from '@tokenrisk/devworld/zoo-venues'

const VENUE_KEYS = new Set(VENUE_ZOO.map((spec) => spec.key))

// Shared by the devnet test files so that a saved world is reused between runs.
const DATA_DIR = TEST_DEVNET_DIR
const DEADLINE = 10_000_000_000n
const DAY = 86_400
const POLL_MS = 20
/** 100 whole tokens (18 decimals): enough for a sell to get some ether out of a pool. */
const HUNDRED = 100n * 10n ** 18n

const abi = (name: string): Abi => loadArtifact(name).abi as Abi
const routerAbi = loadDexArtifact('UniswapV2Router02').abi
const factoryAbi = loadDexArtifact('UniswapV2Factory').abi
const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function totalSupply() view returns (uint256)',
])
const syncEvent = parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)')
const ownerAbi = parseAbi(['function owner() view returns (address)', 'function getOwner() view returns (address)'])
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

let world: World
let manifest: DevnetManifest
let pub: PublicClient
let wallet: ReturnType<typeof createWalletClient>
let testClient: ReturnType<typeof createTestClient>

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  manifest = world.manifest
  pub = createPublicClient({ chain: foundry, transport: http(world.rpcUrl), pollingInterval: POLL_MS }) as PublicClient
  wallet = createWalletClient({ chain: foundry, transport: http(world.rpcUrl), pollingInterval: POLL_MS })
  testClient = createTestClient({ chain: foundry, mode: 'anvil', transport: http(world.rpcUrl), pollingInterval: POLL_MS })
})

afterAll(async () => {
  await world?.stop()
})

function token(key: string): ManifestToken {
  const found = manifest.tokens.find((t) => t.key === key)
  if (!found) throw new Error(`no token ${key} in the manifest`)
  return found
}

/**
 * Sends a contract call from a dev account; a call that would revert throws with its reason.
 * The gas limit is fixed rather than estimated: an estimate assumes the pending block's
 * timestamp, and a Uniswap pair spends more gas (its cumulative prices) when the mined block
 * turns out to be later than the pair's last update, so an estimated swap could run out of gas.
 */
/** How long a sent transaction may take to be mined before the test says so. */
const RECEIPT_WAIT_MS = 30_000

/**
 * The receipt of a transaction sent to the world's anvil (it mines each one as it arrives, a
 * moment later under load), read by asking for it until it is there. Not by watching for new
 * blocks: the tests revert to snapshots, so block numbers go back, and a block watcher that saw a
 * higher number waits forever.
 */
async function minedReceipt(hash: Hex) {
  const until = Date.now() + RECEIPT_WAIT_MS
  for (;;) {
    const receipt = await pub.getTransactionReceipt({ hash }).catch((error: Error) => {
      if (error.name === 'TransactionReceiptNotFoundError' && Date.now() < until) return undefined
      throw error
    })
    if (receipt) return receipt
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

async function send(from: Address, address: Address, contractAbi: Abi | readonly unknown[], functionName: string, args: readonly unknown[] = [], value?: bigint) {
  await pub.simulateContract({ account: from, address, abi: contractAbi as Abi, functionName, args: args as unknown[], value })
  const hash = await wallet.writeContract({
    account: from,
    chain: foundry,
    address,
    abi: contractAbi as Abi,
    functionName,
    args: args as unknown[],
    value,
    gas: WORLD_TX_GAS,
  })
  const receipt = await minedReceipt(hash)
  if (receipt.status !== 'success') {
    // Replay the mined transaction on the state before its block for the reason it reverted.
    const reason = await pub
      .call({ account: from, to: address, data: (await pub.getTransaction({ hash })).input, value, blockNumber: receipt.blockNumber - 1n })
      .then(() => 'no revert when replayed on the previous block', (error: Error) => error.message.split('\n')[0])
    throw new Error(`${functionName} reverted in block ${receipt.blockNumber} (gas used ${receipt.gasUsed} of ${WORLD_TX_GAS}): ${reason}`)
  }
  return receipt
}

const balanceOf = (tokenAddress: Address, holder: Address): Promise<bigint> =>
  pub.readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })

/** A trader (dev account, key known) holding the token now. */
function holdingTrader(t: ManifestToken, exclude: Address[] = []): Address {
  const traders = new Set(manifest.accounts!.traders)
  const holder = t.holders.top.find((h) => traders.has(h.address) && !exclude.includes(h.address) && BigInt(h.balance) > 0n)
  if (!holder) throw new Error(`no trader holds ${t.key}`)
  return holder.address
}

/** A dev account that never touched the token. */
function freshTrader(t: ManifestToken): Address {
  const holders = new Set(t.holders.top.map((h) => h.address))
  const trader = manifest.accounts!.traders.find((a) => !holders.has(a))
  if (!trader) throw new Error(`every trader holds ${t.key}`)
  return trader
}

function wethPair(t: ManifestToken): Address {
  const p = t.pools.find((pool) => pool.type === 'uniswap-v2' && pool.quoteSymbol === 'WETH')
  if (!p) throw new Error(`${t.key} has no V2 WETH pool`)
  return p.pairAddress
}

async function buyWithEth(t: ManifestToken, buyer: Address, eth: bigint): Promise<{ received: bigint; pairSent: bigint }> {
  const [, expectedOut] = await pub.readContract({
    address: manifest.contracts.v2Router,
    abi: routerAbi,
    functionName: 'getAmountsOut',
    args: [eth, [manifest.contracts.weth, t.address]],
  }) as bigint[]
  const before = await balanceOf(t.address, buyer)
  await send(buyer, manifest.contracts.v2Router, routerAbi, 'swapExactETHForTokensSupportingFeeOnTransferTokens', [0n, [manifest.contracts.weth, t.address], buyer, DEADLINE], eth)
  return { received: (await balanceOf(t.address, buyer)) - before, pairSent: expectedOut }
}

async function sellForEth(t: ManifestToken, seller: Address, amount: bigint): Promise<{ pairReceived: bigint }> {
  const pair = wethPair(t)
  await send(seller, t.address, erc20Abi, 'approve', [manifest.contracts.v2Router, maxUint256])
  const before = await balanceOf(t.address, pair)
  await send(seller, manifest.contracts.v2Router, routerAbi, 'swapExactTokensForETHSupportingFeeOnTransferTokens', [amount, 0n, [t.address, manifest.contracts.weth], seller, DEADLINE])
  return { pairReceived: (await balanceOf(t.address, pair)) - before }
}

async function transferDelivered(t: ManifestToken, from: Address, to: Address, amount: bigint): Promise<bigint> {
  const before = await balanceOf(t.address, to)
  await send(from, t.address, erc20Abi, 'transfer', [to, amount])
  return (await balanceOf(t.address, to)) - before
}

const pct = (value: bigint, percent: bigint): bigint => (value * percent) / 100n

describe('the local world', () => {
  it('runs anvil on 127.0.0.1 with chain id 31337 and writes its manifest there', async () => {
    expect(world.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await pub.getChainId()).toBe(31337)
    expect(manifest.rpcUrl).toBe(world.rpcUrl)
    expect(manifest.chainId).toBe(31337)
    expect(world.readyMs).toBeGreaterThan(0)
    const onDisk = JSON.parse((await import('node:fs')).readFileSync(join(DATA_DIR, 'devnet', 'manifest.json'), 'utf8')) as DevnetManifest
    expect(onDisk.rpcUrl).toBe(world.rpcUrl)
    expect(await pub.getBlockNumber()).toBe(BigInt(manifest.readyBlock))
  })

  it('has a Multicall3-compatible contract at the canonical address', async () => {
    const mc = abi('WorldMulticall3')
    const deployer = manifest.deployer
    const results = await pub.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: [
        { address: MULTICALL3_ADDRESS, abi: mc, functionName: 'getEthBalance', args: [deployer] },
        { address: MULTICALL3_ADDRESS, abi: mc, functionName: 'getBlockNumber' },
        { address: MULTICALL3_ADDRESS, abi: mc, functionName: 'getCurrentBlockTimestamp' },
        { address: token('clean').address, abi: erc20Abi, functionName: 'totalSupply' },
        { address: token('clean').address, abi: abi('ZooMintable'), functionName: 'mint', args: [deployer, 1n] },
      ],
    })
    expect(results[0]).toEqual({ status: 'success', result: await pub.getBalance({ address: deployer }) })
    expect(results[1]).toEqual({ status: 'success', result: BigInt(manifest.readyBlock) })
    expect(results[2].status).toBe('success')
    expect(results[3]).toEqual({ status: 'success', result: BigInt(token('clean').totalSupply) })
    expect(results[4].status).toBe('failure') // the clean token has no mint()
    await expect(
      pub.readContract({
        address: MULTICALL3_ADDRESS,
        abi: mc,
        functionName: 'aggregate3',
        args: [[{ target: token('clean').address, allowFailure: false, callData: '0x40c10f19' as Hex }]],
      }),
    ).rejects.toThrow(/Multicall3: call failed/)
  })

  it('prices ether near 3,000 USD in the WETH/USD pool, and USD has 6 decimals', async () => {
    const [r0, r1] = await pub.readContract({ address: manifest.contracts.wethUsdPair!, abi: pairAbi, functionName: 'getReserves' })
    const token0 = await pub.readContract({ address: manifest.contracts.wethUsdPair!, abi: pairAbi, functionName: 'token0' })
    const [weth, usd] = getAddress(token0) === manifest.contracts.weth ? [r0, r1] : [r1, r0]
    const price = Number((usd * 10n ** 12n * 1000n) / weth) / 1000
    expect(price).toBeGreaterThan(2900)
    expect(price).toBeLessThan(3100)
    expect(await pub.readContract({ address: manifest.contracts.usd, abi: erc20Abi, functionName: 'decimals' })).toBe(6)
  })

  it('deploys the published Uniswap V2 pair bytecode (the router finds its pairs by init code hash)', async () => {
    const out = (await pub.readContract({
      address: manifest.contracts.v2Router,
      abi: routerAbi,
      functionName: 'getAmountsOut',
      args: [parseEther('1'), [manifest.contracts.weth, manifest.contracts.usd]],
    })) as bigint[]
    expect(out[1]).toBeGreaterThan(2_900n * 10n ** 6n)
  })

  it('has a history: swaps older than 24 h, and in the last 24 h a price range (high ≠ low)', async () => {
    const pair = wethPair(token('clean'))
    const token0 = getAddress(await pub.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }))
    const tokenIsZero = token0 === token('clean').address
    const syncs = await pub.getLogs({ address: pair, event: syncEvent, fromBlock: 0n, toBlock: BigInt(manifest.readyBlock) })
    const since = manifest.readyTimestamp - DAY
    const recent: number[] = []
    let older = 0
    for (const log of syncs) {
      const block = await pub.getBlock({ blockNumber: log.blockNumber! })
      const { reserve0, reserve1 } = log.args as { reserve0: bigint; reserve1: bigint }
      const price = tokenIsZero ? Number(reserve1) / Number(reserve0) : Number(reserve0) / Number(reserve1)
      if (Number(block.timestamp) > since) recent.push(price)
      else older++
    }
    expect(older).toBeGreaterThan(0)
    expect(recent.length).toBeGreaterThan(1)
    expect(Math.max(...recent)).not.toBe(Math.min(...recent))
  })
})

/** The checks of powers over trading a proxy hook leaves unknown (its implementation's functions are not read). */
const PROXY_HOOK_UNREAD: EvmCheckName[] = ['slippageModifiable', 'personalSlippageModifiable', 'isBlacklisted', 'isWhitelisted', 'antiwhaleModifiable']

describe('the manifest matches the chain', () => {
  it('lists every check of the report for every token, with behaviours that imply them', () => {
    const checks: EvmCheckName[] = [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]
    const implied: Record<string, EvmCheckName[]> = {
      mintable: ['isMintable'],
      'hidden-mint': ['isMintable'],
      'two-step-mint': ['isMintable'],
      'hidden-owner': ['hiddenOwner'],
      'hidden-keeper': ['hiddenOwner'],
      'v4-sell-gate': ['cannotSellAll'],
      'v4-paired-gate': ['cannotSellAll'],
      'curve-honeypot': ['cannotSellAll'],
      'fourmeme-honeypot': ['cannotSellAll'],
      'v4-owner-fee': ['slippageModifiable', 'transferPausable'],
      'v4-pausable': ['transferPausable'],
      'v4-paired-pausable': ['transferPausable'],
      'v4-routed': ['transferPausable'],
      'v4-proxy-hook': ['transferPausable'],
      'v4-pause-beside-v2': ['transferPausable'],
      'owner-change-balance': ['ownerChangeBalance'],
      'self-destruct': ['selfDestruct'],
      pausable: ['transferPausable'],
      'sell-hook-trap': ['transferPausable'],
      'sell-switch': ['transferPausable'],
      'tax-modifiable': ['slippageModifiable', 'transferPausable'],
      'trade-closable': ['transferPausable'],
      'sell-clamp': ['cannotSellAll'],
      'tax-modifiable-capped': ['slippageModifiable'],
      blacklist: ['personalSlippageModifiable', 'isBlacklisted'],
      'blacklist-renamed': ['personalSlippageModifiable', 'isBlacklisted'],
      'per-address-tax': ['personalSlippageModifiable', 'isBlacklisted'],
      'fee-exemption': ['personalSlippageModifiable', 'isWhitelisted'],
      'external-call': ['externalCall'],
      'proxy-1967-transparent': ['isProxy'],
      'proxy-uups': ['isProxy'],
      'proxy-1167': ['isProxy'],
      'trading-cooldown': ['tradingCooldown'],
      'cannot-buy': ['cannotBuy'],
      'cannot-sell-all': ['cannotSellAll'],
      honeypot: ['cannotSellAll'],
      'honeypot-one-pool': ['cannotSellAll'],
      'honeypot-swap-back': ['cannotSellAll'],
      'honeypot-own-pair': ['cannotSellAll'],
      'honeypot-router': ['cannotSellAll'],
      'blacklist-renounced': ['isBlacklisted'],
      'hostile-dependency': ['transferPausable'],
      'dependency-takes': ['ownerChangeBalance'],
      'anti-whale-max-tx': ['isAntiWhale'],
      'anti-whale-max-wallet': ['isAntiWhale'],
      'anti-whale-modifiable': ['antiwhaleModifiable', 'transferPausable'],
      'fee-wallet-must-accept': ['transferPausable'],
      'hidden-allowance-backdoor': ['hiddenOwner'],
    }
    for (const t of manifest.tokens) {
      expect(Object.keys(t.codeChecks).sort()).toEqual([...checks].sort())
      const expected = new Set(t.behaviours.flatMap((b) => implied[b] ?? []))
      // What cannot be measured on a token by design is "" (a token nobody can buy has no cooldown or limit to measure).
      // Nor can a hook's powers over trading whose functions live in a proxy's implementation, unread within a report.
      const unmeasurable = (check: EvmCheckName) =>
        (t.behaviours.includes('cannot-buy') && (check === 'tradingCooldown' || check === 'isAntiWhale')) ||
        (t.behaviours.includes('v4-proxy-hook') && PROXY_HOOK_UNREAD.includes(check))
      for (const check of checks) {
        expect([t.key, check, t.codeChecks[check]]).toEqual([t.key, check, expected.has(check) ? '1' : unmeasurable(check) ? '' : '0'])
      }
      if (t.twin) {
        const twin = token(t.twin)
        const extra = t.behaviours.filter((b) => !twin.behaviours.includes(b))
        expect(extra.length, `${t.key} differs from ${t.twin}`).toBeGreaterThan(0)
      }
      // A trap on the token's own recorded pair lives on a pair the world's DEX does not list
      // among the token's pools (the report's row for it is checked in evm-world.test.ts).
      const honeypot = t.behaviours.some((b) => (b.startsWith('honeypot') && b !== 'honeypot-own-pair') || b === 'v4-sell-gate' || b === 'v4-paired-gate' || b === 'curve-honeypot' || b === 'fourmeme-honeypot')
      expect(t.pools.some((p) => p.isPairHoneypot === '1'), t.key).toBe(honeypot)
      for (const p of t.pools) expect(p.honeypotReason === '').toBe(p.isPairHoneypot === '0')
    }
    expect(new Set(manifest.tokens.map((t) => t.key)).size).toBe(manifest.tokens.length)
  })

  it('has checksummed addresses everywhere', () => {
    const addresses: string[] = [manifest.deployer, ...Object.values(manifest.contracts), ...manifest.burnAddresses]
    for (const t of manifest.tokens) {
      addresses.push(t.address, t.creator, ...t.pools.flatMap((p) => [p.pairAddress, ...p.pair, p.quoteToken]), ...t.holders.top.map((h) => h.address))
      if (t.owner) addresses.push(t.owner)
      if (t.liquidity) addresses.push(t.liquidity.pairAddress, ...t.liquidity.holders.map((h) => h.address))
    }
    for (const a of addresses) expect(a).toBe(getAddress(a))
  })

  it('gives the metadata, supply, owner and creator the chain gives', async () => {
    for (const t of manifest.tokens) {
      const supply = await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })
      expect([t.key, supply.toString()]).toEqual([t.key, t.totalSupply])
      expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'decimals' })).toBe(t.decimals)
      if (t.key !== 'bytes32-metadata') {
        expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'name' })).toBe(t.name)
        expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'symbol' })).toBe(t.symbol)
      }
      let owner: string = ''
      try {
        owner = await pub.readContract({ address: t.address, abi: ownerAbi, functionName: 'owner' })
      } catch {
        owner = ''
      }
      expect([t.key, owner]).toEqual([t.key, t.owner])
      const creation = (await pub.request({ method: 'ots_getContractCreator' as never, params: [t.address] as never })) as { hash: Hex; creator: Address }
      expect(getAddress(creation.creator)).toBe(t.creator)
      const receipt = await pub.getTransactionReceipt({ hash: creation.hash })
      expect(Number(receipt.blockNumber)).toBe(t.creationBlock)
    }
    expect(token('hidden-owner').owner).toBe('0x0000000000000000000000000000000000000000')
    expect(token('hidden-owner').hiddenOwner).toBe(manifest.accounts!.hiddenAdmin)
    expect(token('usd').owner).toBe('')
  })

  it('counts the holders and their balances from the Transfer events', async () => {
    for (const t of manifest.tokens) {
      const logs = await pub.getLogs({ address: t.address, event: transferEvent, fromBlock: 0n, toBlock: BigInt(manifest.readyBlock) })
      const seen = new Set<Address>()
      for (const l of logs) {
        seen.add(getAddress(l.args.from!))
        seen.add(getAddress(l.args.to!))
      }
      seen.delete('0x0000000000000000000000000000000000000000')
      const list = [...seen]
      const balances = await pub.multicall({
        multicallAddress: MULTICALL3_ADDRESS,
        allowFailure: false,
        contracts: list.map((h) => ({ address: t.address, abi: erc20Abi, functionName: 'balanceOf' as const, args: [h] as const })),
      })
      const holders = list.map((address, i) => ({ address, balance: balances[i] })).filter((h) => h.balance > 0n)
      expect([t.key, holders.length]).toEqual([t.key, t.holders.count])
      // The venues' tokens are seeded, not traded in the history: fewer holders.
      expect(t.holders.count).toBeGreaterThanOrEqual(t.key === 'usd' || VENUE_KEYS.has(t.key) ? 10 : 24)
      expect(t.holders.top.length).toBeGreaterThanOrEqual(10)
      for (const h of t.holders.top) {
        const onChain = holders.find((x) => x.address === h.address)
        expect([t.key, h.address, onChain?.balance.toString()]).toEqual([t.key, h.address, h.balance])
        const code = await pub.getCode({ address: h.address })
        expect(h.isContract).toBe(code !== undefined && code !== '0x')
        expect(h.isLocked).toBe(h.address === manifest.contracts.locker || manifest.burnAddresses.includes(h.address))
      }
      const sorted = [...t.holders.top].sort((a, b) => (BigInt(b.balance) > BigInt(a.balance) ? 1 : BigInt(b.balance) < BigInt(a.balance) ? -1 : 0))
      expect(t.holders.top.map((h) => h.balance)).toEqual(sorted.map((h) => h.balance))
    }
  })

  it('marks burned tokens as locked holdings', () => {
    const dead = token('lp-locked').holders.top.find((h) => h.address === '0x000000000000000000000000000000000000dEaD')
    expect(dead).toMatchObject({ balance: (50_000n * 10n ** 18n).toString(), isLocked: true, isContract: false })
  })

  it('gives each pool its address, tokens and USD liquidity', async () => {
    const [r0, r1] = await pub.readContract({ address: manifest.contracts.wethUsdPair!, abi: pairAbi, functionName: 'getReserves' })
    const wethIsZero = getAddress(await pub.readContract({ address: manifest.contracts.wethUsdPair!, abi: pairAbi, functionName: 'token0' })) === manifest.contracts.weth
    const ethUsd = wethIsZero ? (Number(r1) / 1e6) / (Number(r0) / 1e18) : (Number(r0) / 1e6) / (Number(r1) / 1e18)
    expect(Number(manifest.ethUsd)).toBeCloseTo(ethUsd, 2)
    const v3PoolAbi = parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)'])
    for (const t of manifest.tokens) {
      // Uniswap V2/V3 pools against WETH or USD, read here from the chain; the other venues' pools
      // (V4, PancakeSwap V3, Solidly-style, against another token) are checked in evm-venues.test.ts.
      for (const p of t.pools.filter((p) => (p.type === 'uniswap-v2' || p.type === 'uniswap-v3') && (p.quoteToken === manifest.contracts.usd || p.quoteToken === manifest.contracts.weth))) {
        const quoteUsd = p.quoteToken === manifest.contracts.usd ? 1 : ethUsd
        const quoteDecimals = p.quoteToken === manifest.contracts.usd ? 6 : 18
        const token0 = getAddress(await pub.readContract({ address: p.pairAddress, abi: pairAbi, functionName: 'token0' }))
        const token1 = getAddress(await pub.readContract({ address: p.pairAddress, abi: pairAbi, functionName: 'token1' }))
        expect(p.pair).toEqual([token0, token1])
        expect([token0, token1].sort()).toEqual([t.address, p.quoteToken].sort())
        let liquidity: number
        if (p.type === 'uniswap-v2') {
          const pair = await pub.readContract({ address: manifest.contracts.v2Factory, abi: factoryAbi, functionName: 'getPair', args: [t.address, p.quoteToken] })
          expect(getAddress(pair as Address)).toBe(p.pairAddress)
          const [a, b] = await pub.readContract({ address: p.pairAddress, abi: pairAbi, functionName: 'getReserves' })
          const quoteReserve = token0 === p.quoteToken ? a : b
          liquidity = 2 * (Number(quoteReserve) / 10 ** quoteDecimals) * quoteUsd
        } else {
          const [sqrtPriceX96] = await pub.readContract({ address: p.pairAddress, abi: v3PoolAbi, functionName: 'slot0' })
          const price1per0 = (Number(sqrtPriceX96) / 2 ** 96) ** 2
          const tokenBalance = Number(await balanceOf(t.address, p.pairAddress))
          const quoteBalance = Number(await balanceOf(p.quoteToken, p.pairAddress))
          const tokenInQuoteRaw = token0 === t.address ? price1per0 : 1 / price1per0
          liquidity = (quoteBalance / 10 ** quoteDecimals) * quoteUsd + ((tokenBalance * tokenInQuoteRaw) / 10 ** quoteDecimals) * quoteUsd
        }
        expect(Math.abs(Number(p.liquidityUsd) - liquidity) / liquidity, `${t.key} ${p.quoteSymbol}`).toBeLessThan(1e-6)
      }
    }
    // The V3-only token has no V2 pool at all.
    const v3 = token('v3-only')
    for (const quote of [manifest.contracts.weth, manifest.contracts.usd]) {
      expect(await pub.readContract({ address: manifest.contracts.v2Factory, abi: factoryAbi, functionName: 'getPair', args: [v3.address, quote] })).toBe(
        '0x0000000000000000000000000000000000000000',
      )
    }
    expect(v3.pools.map((p) => p.type)).toEqual(['uniswap-v3'])
  })

  it('gives the LP supply, its holders, the burned and locked shares and the unlocks', async () => {
    const lockerAbi = abi('LpLocker')
    const burn = new Set(manifest.burnAddresses)
    for (const t of manifest.tokens) {
      const lp = t.liquidity
      if (!lp) continue
      const total = await pub.readContract({ address: lp.pairAddress, abi: pairAbi, functionName: 'totalSupply' })
      expect(lp.totalLpSupply).toBe(total.toString())
      let burned = 0n
      for (const b of burn) burned += await balanceOf(lp.pairAddress, b)
      const count = (await pub.readContract({ address: manifest.contracts.locker, abi: lockerAbi, functionName: 'lockCount', args: [lp.pairAddress] })) as bigint
      let locked = 0n
      const unlocks: { unlockTime: number; amount: string }[] = []
      for (let i = 0n; i < count; i++) {
        const [, amount, unlockTime, withdrawn] = (await pub.readContract({
          address: manifest.contracts.locker,
          abi: lockerAbi,
          functionName: 'lockAt',
          args: [lp.pairAddress, i],
        })) as [Address, bigint, bigint, boolean]
        if (!withdrawn) {
          locked += amount
          unlocks.push({ unlockTime: Number(unlockTime), amount: amount.toString() })
        }
      }
      expect(lp.unlocks).toEqual(unlocks.sort((a, b) => a.unlockTime - b.unlockTime))
      expect(Number(lp.burnedPercent)).toBeCloseTo((Number(burned) / Number(total)) * 100, 5)
      expect(Number(lp.lockedPercent)).toBeCloseTo((Number(locked) / Number(total)) * 100, 5)
      for (const h of lp.holders) {
        expect(h.balance).toBe((await balanceOf(lp.pairAddress, h.address)).toString())
        expect(h.isLocked).toBe(h.address === manifest.contracts.locker || burn.has(h.address))
      }
    }
    const locked = token('lp-locked').liquidity!
    expect(locked.unlocks.length).toBeGreaterThanOrEqual(3)
    expect(new Set(locked.unlocks.map((u) => u.unlockTime)).size).toBe(locked.unlocks.length)
    for (const u of locked.unlocks) expect(u.unlockTime).toBeGreaterThan(manifest.readyTimestamp)
    expect(Number(locked.burnedPercent)).toBeGreaterThan(10)
    expect(Number(locked.lockedPercent)).toBeGreaterThan(10)
    const held = token('clean').liquidity!
    expect(held.lockedPercent).toBe('0')
    expect(held.holders[0].address).toBe(manifest.deployer)
    expect(held.holders[0].isLocked).toBe(false)
  })
})

describe('every zoo behaviour is real on the chain', () => {
  let snapshot: Hex
  beforeEach(async () => {
    snapshot = await testClient.snapshot()
  })
  afterEach(async () => {
    await testClient.revert({ id: snapshot })
  })

  it('clean: a buy delivers what the pool sends, 100 % can be sold, a transfer delivers 100 %', async () => {
    const t = token('clean')
    const trader = freshTrader(t)
    const { received, pairSent } = await buyWithEth(t, trader, parseEther('0.05'))
    expect(received).toBe(pairSent)
    const { pairReceived } = await sellForEth(t, trader, received)
    expect(pairReceived).toBe(received)
    expect(await balanceOf(t.address, trader)).toBe(0n)
    expect(await transferDelivered(t, holdingTrader(t), manifest.accounts!.receivers[0], 1000n)).toBe(1000n)
  })

  it('tax-3-7-1: a buy delivers 97 %, a sell puts 93 % in the pool, a transfer delivers 99 %', async () => {
    const t = token('tax-3-7-1')
    const trader = freshTrader(t)
    const { received, pairSent } = await buyWithEth(t, trader, parseEther('0.05'))
    expect(received).toBe(pairSent - pct(pairSent, 3n))
    const { pairReceived } = await sellForEth(t, trader, received / 2n)
    expect(pairReceived).toBe(received / 2n - pct(received / 2n, 7n))
    expect(await transferDelivered(t, trader, manifest.accounts!.receivers[0], 10_000n)).toBe(9_900n)
    const p = t.pools[0]
    expect([p.buyTax, p.sellTax, p.transferTax]).toEqual(['3', '7', '1'])
  })

  it('fee-forward: the same taxes, and every taxed transfer calls the fee collector', async () => {
    const t = token('fee-forward')
    const trader = holdingTrader(t)
    const collector = manifest.contracts.feeCollector!
    const feesBefore = (await pub.readContract({ address: collector, abi: abi('ZooFeeCollector'), functionName: 'feesOf', args: [t.address] })) as bigint
    const receipt = await send(trader, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[1], 10_000n])
    expect(receipt.logs.some((l) => getAddress(l.address) === collector)).toBe(true)
    const feesAfter = (await pub.readContract({ address: collector, abi: abi('ZooFeeCollector'), functionName: 'feesOf', args: [t.address] })) as bigint
    expect(feesAfter - feesBefore).toBe(100n)
    // The twin sends its fee to an EOA: no contract is called.
    const twin = token('tax-3-7-1')
    const twinReceipt = await send(holdingTrader(twin), twin.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[1], 10_000n])
    expect(twinReceipt.logs.every((l) => getAddress(l.address) === twin.address)).toBe(true)
  })

  it('tax-modifiable: the owner raises the buy tax for everyone; others cannot', async () => {
    const t = token('tax-modifiable')
    const owner = t.owner as Address
    const trader = freshTrader(t)
    await expect(send(trader, t.address, abi('ZooTaxModifiable'), 'setTaxes', [1000n, 1000n, 1000n])).rejects.toThrow(/not the owner/)
    await send(owner, t.address, abi('ZooTaxModifiable'), 'setTaxes', [1000n, 1000n, 1000n])
    const { received, pairSent } = await buyWithEth(t, trader, parseEther('0.05'))
    expect(received).toBe(pairSent - pct(pairSent, 10n))
    await expect(send(owner, token('tax-3-7-1').address, abi('ZooTaxModifiable'), 'setTaxes', [1000n, 1000n, 1000n])).rejects.toThrow()
  })

  it('tax-per-address: the owner taxes one address; the others keep 1 %', async () => {
    const t = token('tax-per-address')
    const [victim, other] = [holdingTrader(t), holdingTrader(t, [holdingTrader(t)])]
    await send(t.owner as Address, t.address, abi('ZooTaxPerAddress'), 'setAccountTax', [victim, 4000n])
    expect(await transferDelivered(t, victim, manifest.accounts!.receivers[2], 10_000n)).toBe(5_900n)
    await send(t.owner as Address, t.address, abi('ZooTaxPerAddress'), 'setAccountTax', [other, 0n])
    expect(await transferDelivered(t, other, manifest.accounts!.receivers[2], 10_000n)).toBe(9_900n)
  })

  it('honeypot: buys work, a holder cannot sell (the token reverts), the owner can', async () => {
    const t = token('honeypot')
    const pair = wethPair(t)
    const trader = freshTrader(t)
    const { received } = await buyWithEth(t, trader, parseEther('0.05'))
    expect(received).toBeGreaterThan(0n)
    await expect(send(trader, t.address, erc20Abi, 'transfer', [pair, received / 2n])).rejects.toThrow(HONEYPOT_REASON)
    await expect(sellForEth(t, trader, received / 2n)).rejects.toThrow()
    expect(t.pools[0].honeypotReason).toBe(HONEYPOT_REASON)
    const owner = t.owner as Address
    const { pairReceived } = await sellForEth(t, owner, 1000n * 10n ** 18n)
    expect(pairReceived).toBe(1000n * 10n ** 18n)
    // Wallet-to-wallet transfers still work.
    expect(await transferDelivered(t, trader, manifest.accounts!.receivers[0], 1000n)).toBe(1000n)
  })

  it('pool-honeypot: selling into the WETH pool works, into the USD pool reverts', async () => {
    const t = token('pool-honeypot')
    const trader = holdingTrader(t)
    const [wethPool, usdPool] = t.pools
    expect([wethPool.quoteSymbol, wethPool.isPairHoneypot, usdPool.quoteSymbol, usdPool.isPairHoneypot]).toEqual(['WETH', '0', 'USD', '1'])
    await expect(send(trader, t.address, erc20Abi, 'transfer', [usdPool.pairAddress, 1000n])).rejects.toThrow(POOL_HONEYPOT_REASON)
    const { pairReceived } = await sellForEth(t, trader, HUNDRED)
    expect(pairReceived).toBe(HUNDRED)
    // The clean twin's USD pool takes sells.
    const clean = token('clean')
    await send(holdingTrader(clean), clean.address, erc20Abi, 'transfer', [clean.pools[1].pairAddress, 1000n])
  })

  it('blacklist: a blacklisted holder can neither send nor receive; the owner blocks anyone', async () => {
    const t = token('blacklist')
    const isBlocked = async (a: Address) => pub.readContract({ address: t.address, abi: abi('ZooBlacklist'), functionName: 'isBlacklisted', args: [a] }) as Promise<boolean>
    const listed = [] as Address[]
    for (const a of manifest.accounts!.traders) if (await isBlocked(a)) listed.push(a)
    expect(listed.length).toBe(1)
    const holder = holdingTrader(t, listed)
    await expect(send(listed[0], t.address, erc20Abi, 'transfer', [holder, 1n])).rejects.toThrow(/ZooBlacklist: address is blacklisted/)
    await send(t.owner as Address, t.address, abi('ZooBlacklist'), 'setBlacklisted', [holder, true])
    await expect(send(holder, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[0], 1n])).rejects.toThrow(/blacklisted/)
    await expect(send(holder, t.address, abi('ZooBlacklist'), 'setBlacklisted', [t.owner, true])).rejects.toThrow(/not the owner/)
  })

  it('pausable: the owner stops every transfer, its own included, and restarts them', async () => {
    const t = token('pausable')
    const owner = t.owner as Address
    const holder = holdingTrader(t)
    expect(await transferDelivered(t, holder, manifest.accounts!.receivers[0], 10n)).toBe(10n)
    await send(owner, t.address, abi('ZooPausable'), 'pause')
    await expect(send(holder, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[0], 10n])).rejects.toThrow(/paused/)
    await expect(send(owner, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[0], 10n])).rejects.toThrow(/paused/)
    await expect(buyWithEth(t, freshTrader(t), parseEther('0.01'))).rejects.toThrow()
    await send(owner, t.address, abi('ZooPausable'), 'unpause')
    expect(await transferDelivered(t, holder, manifest.accounts!.receivers[0], 10n)).toBe(10n)
  })

  it('mintable: the owner raises the supply; no one else can; the clean twin has no mint', async () => {
    const t = token('mintable')
    const before = await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })
    await send(t.owner as Address, t.address, abi('ZooMintable'), 'mint', [manifest.accounts!.receivers[3], 5n])
    expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(before + 5n)
    await expect(send(holdingTrader(t), t.address, abi('ZooMintable'), 'mint', [holdingTrader(t), 5n])).rejects.toThrow(/not the owner/)
    const clean = token('clean')
    await expect(send(clean.owner as Address, clean.address, abi('ZooMintable'), 'mint', [clean.owner, 5n])).rejects.toThrow()
  })

  it('owner-change-balance: the owner moves a holder’s tokens without approval', async () => {
    const t = token('owner-change-balance')
    const victim = holdingTrader(t)
    const balance = await balanceOf(t.address, victim)
    await send(t.owner as Address, t.address, abi('ZooForceTransfer'), 'adminTransfer', [victim, t.owner, balance])
    expect(await balanceOf(t.address, victim)).toBe(0n)
    await expect(send(victim, t.address, abi('ZooForceTransfer'), 'adminTransfer', [t.owner, victim, 1n])).rejects.toThrow(/not the owner/)
  })

  it('self-destruct: the owner runs SELFDESTRUCT (it sweeps the contract’s ether)', async () => {
    const t = token('self-destruct')
    const owner = t.owner as Address
    await testClient.setBalance({ address: t.address, value: parseEther('1') })
    await expect(send(holdingTrader(t), t.address, abi('ZooSelfDestruct'), 'destroy')).rejects.toThrow(/not the owner/)
    const receipt = await send(owner, t.address, abi('ZooSelfDestruct'), 'destroy')
    const trace = (await pub.request({ method: 'debug_traceTransaction' as never, params: [receipt.transactionHash, { tracer: 'callTracer' }] as never })) as {
      calls?: { type: string }[]
    }
    expect(trace.calls?.some((c) => c.type === 'SELFDESTRUCT')).toBe(true)
    expect(await pub.getBalance({ address: t.address })).toBe(0n)
  })

  it('hidden-owner: owner() is zero, yet the hidden admin mints; the deployer cannot', async () => {
    const t = token('hidden-owner')
    expect(await pub.readContract({ address: t.address, abi: ownerAbi, functionName: 'owner' })).toBe('0x0000000000000000000000000000000000000000')
    const before = await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })
    await send(t.hiddenOwner!, t.address, abi('ZooHiddenOwner'), 'mint', [t.hiddenOwner, 7n])
    expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(before + 7n)
    await expect(send(manifest.deployer, t.address, abi('ZooHiddenOwner'), 'mint', [manifest.deployer, 7n])).rejects.toThrow(/not allowed/)
  })

  it('proxy-transparent: logic in the EIP-1967 slot, owner mints through the proxy, the admin can upgrade', async () => {
    const t = token('proxy-transparent')
    const slot = await pub.getStorageAt({ address: t.address, slot: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc' })
    expect(getAddress(`0x${slot!.slice(-40)}`)).toBe(t.implementation)
    const before = await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })
    await send(t.owner as Address, t.address, abi('ZooMintableLogic'), 'mint', [t.owner, 3n])
    expect(await pub.readContract({ address: t.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(before + 3n)
    const proxyAdminAbi = parseAbi(['function upgradeAndCall(address proxy, address implementation, bytes data) payable', 'function owner() view returns (address)'])
    expect(await pub.readContract({ address: t.proxyAdmin!, abi: proxyAdminAbi, functionName: 'owner' })).toBe(t.proxyAdminOwner)
    await send(t.proxyAdminOwner!, t.proxyAdmin!, proxyAdminAbi, 'upgradeAndCall', [t.address, token('clone-1167').implementation, '0x'])
    const after = await pub.getStorageAt({ address: t.address, slot: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc' })
    expect(getAddress(`0x${after!.slice(-40)}`)).toBe(token('clone-1167').implementation)
  })

  it('proxy-uups: the owner blacklists through the proxy and upgrades it; others cannot upgrade', async () => {
    const t = token('proxy-uups')
    const logic = abi('ZooBlacklistUupsLogic')
    const holder = holdingTrader(t)
    await send(t.owner as Address, t.address, logic, 'setBlacklisted', [holder, true])
    await expect(send(holder, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[0], 1n])).rejects.toThrow(/blacklisted/)
    const hash = await wallet.deployContract({ account: manifest.deployer, chain: foundry, abi: logic, bytecode: loadArtifact('ZooBlacklistUupsLogic').bytecode })
    const newLogic = (await minedReceipt(hash)).contractAddress!
    await expect(send(holder, t.address, logic, 'upgradeToAndCall', [newLogic, '0x'])).rejects.toThrow()
    await send(t.owner as Address, t.address, logic, 'upgradeToAndCall', [newLogic, '0x'])
    expect(t.upgradeable).toBe(true)
  })

  it('clone-1167: a 45-byte minimal proxy to the clean logic that trades like the clean token', async () => {
    const t = token('clone-1167')
    const code = await pub.getCode({ address: t.address })
    expect(code?.toLowerCase()).toBe(`0x363d3d373d3d3d363d73${t.implementation!.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`)
    expect(t.upgradeable).toBe(false)
    const { received, pairSent } = await buyWithEth(t, freshTrader(t), parseEther('0.02'))
    expect(received).toBe(pairSent)
  })

  it('cooldown: a second buy right after the first reverts, and works 60 s later; the twin has none', async () => {
    const t = token('cooldown')
    const trader = freshTrader(t)
    await buyWithEth(t, trader, parseEther('0.01'))
    await expect(buyWithEth(t, trader, parseEther('0.01'))).rejects.toThrow()
    await expect(
      pub.simulateContract({
        account: wethPair(t),
        address: t.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [trader, 1n],
      }),
    ).rejects.toThrow(/ZooCooldown: wait before buying again/)
    await testClient.increaseTime({ seconds: 61 })
    await testClient.mine({ blocks: 1 })
    await buyWithEth(t, trader, parseEther('0.01'))
    // Selling right after buying is free.
    await sellForEth(t, trader, HUNDRED)
    const clean = token('clean')
    const cleanTrader = freshTrader(clean)
    await buyWithEth(clean, cleanTrader, parseEther('0.01'))
    await buyWithEth(clean, cleanTrader, parseEther('0.01'))
  })

  it('max-tx: no transfer above 1 % of the supply; the twin allows it', async () => {
    const t = token('max-tx')
    const max = (await pub.readContract({ address: t.address, abi: abi('ZooMaxTx'), functionName: 'maxTransactionAmount' })) as bigint
    expect(max).toBe(BigInt(t.totalSupply) / 100n)
    const owner = t.owner as Address
    const whale = freshTrader(t)
    await send(owner, t.address, erc20Abi, 'transfer', [whale, max * 2n])
    await expect(send(whale, t.address, erc20Abi, 'transfer', [manifest.accounts!.receivers[0], max + 1n])).rejects.toThrow(/maximum transaction/)
    expect(await transferDelivered(t, whale, manifest.accounts!.receivers[0], max)).toBe(max)
    await expect(buyWithEth(t, freshTrader(t), parseEther('2'))).rejects.toThrow()
    const clean = token('clean')
    const cleanWhale = freshTrader(clean)
    await send(clean.owner as Address, clean.address, erc20Abi, 'transfer', [cleanWhale, max * 2n])
    expect(await transferDelivered(clean, cleanWhale, manifest.accounts!.receivers[0], max * 2n)).toBe(max * 2n)
  })

  it('max-wallet: no wallet may grow above 2 % of the supply', async () => {
    const t = token('max-wallet')
    const max = (await pub.readContract({ address: t.address, abi: abi('ZooMaxWallet'), functionName: 'maxWalletAmount' })) as bigint
    expect(max).toBe((BigInt(t.totalSupply) * 2n) / 100n)
    const holder = holdingTrader(t)
    const target = manifest.accounts!.receivers[5]
    const room = max - (await balanceOf(t.address, target))
    await send(t.owner as Address, t.address, erc20Abi, 'transfer', [holder, max])
    await expect(send(holder, t.address, erc20Abi, 'transfer', [target, room + 1n])).rejects.toThrow(/maximum wallet/)
    expect(await transferDelivered(t, holder, target, room)).toBe(room)
  })

  it('cannot-sell-all: selling 100 % reverts while 99 % works; the twin sells 100 %', async () => {
    const t = token('cannot-sell-all')
    const trader = holdingTrader(t)
    const balance = await balanceOf(t.address, trader)
    await expect(send(trader, t.address, erc20Abi, 'transfer', [wethPair(t), balance])).rejects.toThrow(/cannot sell the whole balance/)
    await expect(sellForEth(t, trader, balance)).rejects.toThrow()
    const { pairReceived } = await sellForEth(t, trader, pct(balance, 99n))
    expect(pairReceived).toBe(pct(balance, 99n))
    const clean = token('clean')
    const cleanTrader = holdingTrader(clean)
    await sellForEth(clean, cleanTrader, await balanceOf(clean.address, cleanTrader))
    expect(await balanceOf(clean.address, cleanTrader)).toBe(0n)
  })

  it('no-buy: buying reverts for an ordinary address; holders sell', async () => {
    const t = token('no-buy')
    await expect(buyWithEth(t, freshTrader(t), parseEther('0.01'))).rejects.toThrow()
    await expect(
      pub.simulateContract({ account: wethPair(t), address: t.address, abi: erc20Abi, functionName: 'transfer', args: [freshTrader(t), 1n] }),
    ).rejects.toThrow(/ZooNoBuy: buying is disabled/)
    const trader = holdingTrader(t)
    const { pairReceived } = await sellForEth(t, trader, HUNDRED)
    expect(pairReceived).toBe(HUNDRED)
  })

  it('bends ERC-20: bytes32 metadata, no boolean return, 0 and 24 decimals, empty symbol', async () => {
    const b32 = token('bytes32-metadata')
    const bytes32Abi = parseAbi(['function name() view returns (bytes32)', 'function symbol() view returns (bytes32)'])
    const name = await pub.readContract({ address: b32.address, abi: bytes32Abi, functionName: 'name' })
    expect(Buffer.from(name.slice(2), 'hex').toString('utf8').replace(/\0+$/, '')).toBe(b32.name)
    await expect(pub.readContract({ address: b32.address, abi: erc20Abi, functionName: 'name' })).rejects.toThrow()

    const noRet = token('no-bool-return')
    const noRetAbi = parseAbi(['function transfer(address to, uint256 value)'])
    const { data } = await pub.call({
      account: holdingTrader(noRet),
      to: noRet.address,
      data: encodeFunctionData({ abi: noRetAbi, functionName: 'transfer', args: [manifest.accounts!.receivers[0], 1n] }),
    })
    expect(data).toBeUndefined()
    const before = await balanceOf(noRet.address, manifest.accounts!.receivers[0])
    await send(holdingTrader(noRet), noRet.address, noRetAbi, 'transfer', [manifest.accounts!.receivers[0], 5n])
    expect(await balanceOf(noRet.address, manifest.accounts!.receivers[0])).toBe(before + 5n)

    expect(await pub.readContract({ address: token('decimals-0').address, abi: erc20Abi, functionName: 'decimals' })).toBe(0)
    expect(await pub.readContract({ address: token('decimals-24').address, abi: erc20Abi, functionName: 'decimals' })).toBe(24)
    expect(await pub.readContract({ address: token('empty-symbol').address, abi: erc20Abi, functionName: 'symbol' })).toBe('')
  })

  it('v3-only: quoted and bought through Uniswap V3 only', async () => {
    const t = token('v3-only')
    const trader = freshTrader(t)
    const quoterAbi = loadDexArtifact('QuoterV2').abi
    const { result } = await pub.simulateContract({
      address: manifest.contracts.v3Quoter!,
      abi: quoterAbi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: manifest.contracts.weth, tokenOut: t.address, amountIn: parseEther('0.05'), fee: 3000, sqrtPriceLimitX96: 0n }],
    })
    const quoted = (result as readonly bigint[])[0]
    expect(quoted).toBeGreaterThan(0n)
    await send(trader, manifest.contracts.v3SwapRouter!, loadDexArtifact('SwapRouter').abi, 'exactInputSingle', [
      { tokenIn: manifest.contracts.weth, tokenOut: t.address, fee: 3000, recipient: trader, deadline: DEADLINE, amountIn: parseEther('0.05'), amountOutMinimum: 0n, sqrtPriceLimitX96: 0n },
    ], parseEther('0.05'))
    expect(await balanceOf(t.address, trader)).toBe(quoted)
  })

  it('lp-locked: locks release only to their owner and only after their unlock time', async () => {
    const t = token('lp-locked')
    const lp = t.liquidity!
    const locker = manifest.contracts.locker
    const lockerAbi = abi('LpLocker')
    const first = lp.unlocks[0]
    const count = (await pub.readContract({ address: locker, abi: lockerAbi, functionName: 'lockCount', args: [lp.pairAddress] })) as bigint
    let index = -1n
    for (let i = 0n; i < count; i++) {
      const [, , unlockTime, withdrawn] = (await pub.readContract({ address: locker, abi: lockerAbi, functionName: 'lockAt', args: [lp.pairAddress, i] })) as [Address, bigint, bigint, boolean]
      if (!withdrawn && Number(unlockTime) === first.unlockTime) index = i
    }
    expect(index).toBeGreaterThanOrEqual(0n)
    await expect(send(manifest.deployer, locker, lockerAbi, 'withdraw', [lp.pairAddress, index])).rejects.toThrow(/still locked/)
    await testClient.setNextBlockTimestamp({ timestamp: BigInt(first.unlockTime) })
    await testClient.mine({ blocks: 1 })
    await expect(send(freshTrader(t), locker, lockerAbi, 'withdraw', [lp.pairAddress, index])).rejects.toThrow(/not the owner/)
    const before = await balanceOf(lp.pairAddress, manifest.deployer)
    await send(manifest.deployer, locker, lockerAbi, 'withdraw', [lp.pairAddress, index])
    expect((await balanceOf(lp.pairAddress, manifest.deployer)) - before).toBe(BigInt(first.amount))
    await expect(send(manifest.deployer, locker, lockerAbi, 'withdraw', [lp.pairAddress, index])).rejects.toThrow(/already withdrawn/)
  })
})
