import { decodeAbiParameters, encodeAbiParameters, encodeFunctionData, getAddress, keccak256, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { DexConfig } from '../../../config/chains.ts'
import { getLogsAdaptive, type RawLog } from '../chain/logs.ts'
import { RpcError } from '../chain/rpc.ts'
import type { PoolInfo, V4PoolKey } from '../chain/probe.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from '../collect/context.ts'
import { sqrtPrice } from './uniswap-v3.ts'
import { MAX_OTHER_QUOTE_POOLS, wordAnswer, type FoundPool, type PoolContract, type Venue, type VenueFind } from './venue.ts'
import type { PoolFact, TradeFact } from '../facts.ts'

/** keccak256("Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)"): a V4 pool's creation. */
export const V4_INITIALIZE_TOPIC: Hex = '0xdd466e674ea557f56295e2d0218a125ea4b4f0f6f3307b95f85e6110838d6438'
/** keccak256("Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)"): the PoolManager's swap event. */
export const V4_SWAP_TOPIC: Hex = '0x40e9cecb9f5f1f1c5b9c97dec2917b7ee92e57ba5563708daca94dd84ad7112f'
/** The PoolManager's storage slot of `mapping(PoolId => Pool.State) pools`; a pool's liquidity is 3 slots past its slot0. */
export const V4_POOLS_SLOT = 6n
/** A V4 pool's fee when it is dynamic (set by its hook): the flag value of the key's fee. */
export const V4_DYNAMIC_FEE = 0x800000
const EXTSLOAD_ABI = parseAbi(['function extsload(bytes32 slot) view returns (bytes32)'])
const Q96 = 1n << 96n
/** A V4 key's fee at most, in hundredths of a basis point (LPFeeLibrary.MAX_LP_FEE: 100 %), unless it is the dynamic flag. */
const V4_MAX_FEE = 1_000_000
/** A V4 key's tick spacing bounds (TickMath.MIN_TICK_SPACING, MAX_TICK_SPACING). */
const V4_MIN_TICK_SPACING = 1
const V4_MAX_TICK_SPACING = 32767
const ADDRESS_MASK = (1n << 160n) - 1n
const UINT24_MASK = 0xffffffn
/** Where a stored key's second word keeps its fee and tick spacing (above currency1's 20 bytes), and where it ends. */
const FEE_SHIFT = 160n
const TICK_SPACING_SHIFT = 184n
const SECOND_WORD_BITS = 208n
/** A √-price's bits in a pool's slot0 (uint160), and a liquidity's in its liquidity slot (uint128). */
const SQRT_PRICE_MASK = (1n << 160n) - 1n
const LIQUIDITY_MASK = (1n << 128n) - 1n

/** Hook permissions, as the low 14 bits of the hook's address carry them (Uniswap V4's Hooks library). */
export const HOOK_PERMISSIONS: readonly [number, string][] = [
  [1 << 13, 'beforeInitialize'],
  [1 << 12, 'afterInitialize'],
  [1 << 11, 'beforeAddLiquidity'],
  [1 << 10, 'afterAddLiquidity'],
  [1 << 9, 'beforeRemoveLiquidity'],
  [1 << 8, 'afterRemoveLiquidity'],
  [1 << 7, 'beforeSwap'],
  [1 << 6, 'afterSwap'],
  [1 << 5, 'beforeDonate'],
  [1 << 4, 'afterDonate'],
  [1 << 3, 'beforeSwapReturnDelta'],
  [1 << 2, 'afterSwapReturnDelta'],
  [1 << 1, 'afterAddLiquidityReturnDelta'],
  [1 << 0, 'afterRemoveLiquidityReturnDelta'],
]

/** The permissions a hook's address grants it (none for a pool without a hook). */
export function hookPermissions(hooks: Address): string[] {
  if (sameAddress(hooks, ZERO_ADDRESS)) return []
  const bits = Number(BigInt(hooks) & 0x3fffn)
  return HOOK_PERMISSIONS.filter(([bit]) => (bits & bit) !== 0).map(([, name]) => name)
}

export function v4PoolId(key: V4PoolKey): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  )
}

function stateSlot(id: Hex, offset: bigint): Hex {
  const base = BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [id, V4_POOLS_SLOT])))
  return `0x${(base + offset).toString(16).padStart(64, '0')}`
}

/** A storage word as a number (undefined for an answer that is not one). */
function storageWord(word: Hex | undefined): bigint | undefined {
  return word && /^0x[0-9a-fA-F]{1,64}$/.test(word) ? BigInt(word) : undefined
}

/**
 * The V4 pool keys a token keeps in its storage words (`words[i]` is slot i), as Solidity lays out a
 * `PoolKey { currency0; currency1; fee; tickSpacing; hooks }` from a slot s: s holds currency0;
 * s+1 currency1 in its low 20 bytes, the fee (uint24) and the tick spacing (int24) above it; s+2
 * the hook; every other byte zero. Only well-formed keys of a pool of `token` (against anything) are
 * kept; whether such a pool exists is not known here: its state, read from the PoolManager, says so.
 */
export function storedPoolKeys(words: readonly Hex[], token: Address): V4PoolKey[] {
  const out: V4PoolKey[] = []
  for (let s = 0; s + 2 < words.length; s++) {
    const [first, second, third] = [words[s], words[s + 1], words[s + 2]].map(storageWord)
    if (first === undefined || second === undefined || third === undefined) continue
    if (first > ADDRESS_MASK || third > ADDRESS_MASK || second >> SECOND_WORD_BITS !== 0n) continue
    const currency1 = second & ADDRESS_MASK
    if (first >= currency1) continue
    const fee = Number((second >> FEE_SHIFT) & UINT24_MASK)
    const spacing = Number((second >> TICK_SPACING_SHIFT) & UINT24_MASK)
    // int24: the top bit is the sign.
    const tickSpacing = spacing >= 0x800000 ? spacing - 0x1000000 : spacing
    if ((fee > V4_MAX_FEE && fee !== V4_DYNAMIC_FEE) || tickSpacing < V4_MIN_TICK_SPACING || tickSpacing > V4_MAX_TICK_SPACING) continue
    const address = (v: bigint) => getAddress(`0x${v.toString(16).padStart(40, '0')}`)
    const key: V4PoolKey = { currency0: address(first), currency1: address(currency1), fee, tickSpacing, hooks: address(third) }
    if (otherSide(key, token) !== undefined) out.push(key)
  }
  return out
}

/** The currency a pool key stands `token` against (undefined when the key is not of a pool of `token`). */
function otherSide(key: V4PoolKey, token: Address): Address | undefined {
  return sameAddress(key.currency0, token) ? key.currency1 : sameAddress(key.currency1, token) ? key.currency0 : undefined
}

/** Whether the key is of a pool of `token` against one of `quotes` (the native coin among them as address zero). */
function againstQuote(key: V4PoolKey, token: Address, quotes: readonly Address[]): boolean {
  const other = otherSide(key, token)
  return other !== undefined && quotes.some((q) => sameAddress(q, other))
}

function decodeInitialize(log: RawLog): { id: Hex; key: V4PoolKey } | undefined {
  try {
    const [fee, tickSpacing, hooks] = decodeAbiParameters([{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }], log.data)
    const topic = (i: number) => getAddress(`0x${log.topics[i]!.slice(26)}`)
    return { id: log.topics[1] as Hex, key: { currency0: topic(2), currency1: topic(3), fee, tickSpacing, hooks: getAddress(hooks) } }
  } catch {
    return undefined
  }
}

/**
 * The PoolManager's Initialize logs of pools holding `token` (as currency0 or currency1): one
 * `eth_getLogs` each from the manager's deployment block to the head, in the first round trip;
 * a node that refuses the range is asked again in the ranges it takes (rounds of their own).
 */
async function initializeLogs(ctx: CollectContext, manager: Address, token: Address, fromBlock: bigint): Promise<{ logs: RawLog[]; note: string }> {
  const sides: (Hex | null)[][] = [
    [V4_INITIALIZE_TOPIC, null, `0x${token.slice(2).toLowerCase().padStart(64, '0')}` as Hex],
    [V4_INITIALIZE_TOPIC, null, null, `0x${token.slice(2).toLowerCase().padStart(64, '0')}` as Hex],
  ]
  try {
    const answers = await Promise.all(
      sides.map((topics) => ctx.rpc.request<RawLog[]>('eth_getLogs', [{ address: manager, topics, fromBlock: `0x${fromBlock.toString(16)}`, toBlock: 'latest' }])),
    )
    return { logs: answers.flatMap((a) => (Array.isArray(a) ? a : [])), note: '' }
  } catch (error) {
    if (!(error instanceof RpcError) || error.kind !== 'refused') throw error
    const head = BigInt(await ctx.rpc.request<Hex>('eth_blockNumber'))
    const results = await Promise.all(sides.map((topics) => getLogsAdaptive(ctx.rpc, { address: [manager], topics }, fromBlock, head, ctx.logLimit)))
    const missing = results.flatMap((r) => r.missing)
    return { logs: results.flatMap((r) => r.logs), note: missing.length > 0 ? `the node refused the Initialize logs of ${missing.length} block range(s): pools created there are not listed` : '' }
  }
}

/** A V4 pool known by its key: from the manager's Initialize log, or kept in the token's storage (unverified until its state is read). */
interface KeyedPool {
  id: Hex
  key: V4PoolKey
  stored: boolean
}

/**
 * Finds the token's Uniswap V4 pools: the manager's Initialize logs name their keys, and so may the
 * token itself, keeping a pool key in its first storage slots (as launchpads' tokens do). Pools
 * against one of the quotes (the native coin included) are its pools; those against any other
 * token (the first `MAX_OTHER_QUOTE_POOLS`) are `others`, markets when the token has no pool against
 * a quote asset. Their state (√-price, liquidity) is read with the manager's `extsload` — one round
 * trip after the logs and the storage. A key from the storage whose pool has no price is no pool
 * (an uninitialized key, a look-alike): it is dropped.
 */
async function findV4Pools(ctx: CollectContext, dex: DexConfig, dexIndex: number, token: Address, quotes: Address[], storage: Promise<readonly Hex[]>): Promise<VenueFind> {
  const [{ logs, note }, words] = await Promise.all([initializeLogs(ctx, dex.factory, token, BigInt(dex.fromBlock ?? 0)), storage])
  const keys: KeyedPool[] = [
    ...logs
      .map(decodeInitialize)
      .filter((k): k is { id: Hex; key: V4PoolKey } => !!k && otherSide(k.key, token) !== undefined)
      .map((k) => ({ ...k, stored: false })),
    ...storedPoolKeys(words, token).map((key) => ({ id: v4PoolId(key), key, stored: true })),
  ]
  // Each pool once, as its log names it when it has one.
  const seen = new Set<string>()
  const unique = keys.filter((k) => {
    const id = k.id.toLowerCase()
    const fresh = !seen.has(id)
    seen.add(id)
    return fresh
  })
  const quoted = unique.filter((k) => againstQuote(k.key, token, quotes))
  const otherKeys = unique.filter((k) => !againstQuote(k.key, token, quotes)).slice(0, MAX_OTHER_QUOTE_POOLS)
  const found = [...quoted, ...otherKeys]
  if (found.length === 0) return { pools: [], note }
  const manager = getAddress(dex.factory)
  const ref = (k: KeyedPool) => ({ id: k.id, key: k.key, manager, permissions: hookPermissions(k.key.hooks) })
  const base = (k: KeyedPool): PoolInfo => ({
    dex: BigInt(dexIndex),
    pool: manager,
    kind: 4,
    fee: k.key.fee,
    quote: sameAddress(k.key.currency0, token) ? k.key.currency1 : k.key.currency0,
    token0: k.key.currency0,
    reserveToken: 0n,
    reserveQuote: 0n,
    lpSupply: 0n,
    sqrtPriceX96: 0n,
    liquidity: 0n,
  })
  // Known by their keys now; their state is read next (one round trip), awaited by what needs it.
  const pending = (k: KeyedPool): FoundPool => ({ ...base(k), v4: ref(k), pending: true })
  const state = (async (): Promise<FoundPool[]> => {
    const calls = found.flatMap((k) => [0n, 3n].map((offset) => encodeFunctionData({ abi: EXTSLOAD_ABI, functionName: 'extsload', args: [stateSlot(k.id, offset)] })))
    const answers = await Promise.all(calls.map((data) => ctx.rpc.request<Hex>('eth_call', [{ to: dex.factory, data }, 'latest'])))
    return found.flatMap((k, i) => {
      const sqrtPriceX96 = BigInt(answers[2 * i]) & SQRT_PRICE_MASK
      const liquidity = BigInt(answers[2 * i + 1]) & LIQUIDITY_MASK
      // A stored key whose pool was never initialized names no pool.
      if (k.stored && sqrtPriceX96 === 0n) return []
      const tokenIs0 = sameAddress(k.key.currency0, token)
      // Virtual reserves at the current price (what a full-range position of this liquidity holds).
      const amount0 = sqrtPriceX96 === 0n ? 0n : (liquidity * Q96) / sqrtPriceX96
      const amount1 = (liquidity * sqrtPriceX96) / Q96
      const info = { ...base(k), sqrtPriceX96, liquidity, reserveToken: tokenIs0 ? amount0 : amount1, reserveQuote: tokenIs0 ? amount1 : amount0 }
      return [{ ...info, v4: ref(k) }]
    })
  })()
  // Never left rejected unawaited: whoever awaits it sees the failure.
  state.catch(() => {})
  return { pools: quoted.map(pending), others: otherKeys.map(pending), note, state }
}

/**
 * Uniswap V4: every pool lives in one PoolManager, named by its key (currencies, fee, tick
 * spacing, hook); found by the manager's Initialize logs and by a key the token keeps in its first
 * storage slots (verified by the pool's state), priced from its state, traded by the probe
 * through the manager (unlock, swap with the hook live, settle, take).
 */
export const uniswapV4: Venue = {
  type: 'uniswap-v4',
  liquidityForm: 'positions in the PoolManager (no fungible LP token)',
  fungibleLp: false,
  nativeQuote: true,
  custodian: { name: 'the Uniswap V4 PoolManager', finding: "by its Initialize logs or a pool key in the token's storage" },
  find: findV4Pools,
  price(info, asset, assetDecimals, quoteDecimals) {
    if (!info.liquidity || info.sqrtPriceX96 === undefined || info.token0 === undefined) return undefined
    return sqrtPrice(info.sqrtPriceX96, sameAddress(info.token0, asset), assetDecimals, quoteDecimals)
  },
  fee: (_dex, info) => info.fee,
  probePool: (pool) => {
    if (!pool.v4) return { pool: pool.address, kind: 4, quote: pool.quote, feeBps: 0 }
    return { pool: v4KeyAccount(pool.v4.id), kind: 4, quote: pool.quote, feeBps: 0, v4: { manager: pool.v4.manager, key: pool.v4.key } }
  },
  // The probe's quote routes are V2 and V3 pools only: a quote is never bought through the manager.
  route: () => undefined,
  describe: describeV4,
  poolContracts: v4Hook,
  // extsload(bytes32 0): every PoolManager reads its own storage out.
  probeCall: () => ({ call: 'extsload(0)', data: `0x1e2eaeaf${'0'.repeat(64)}`, read: (a) => (wordAnswer(a) === undefined ? undefined : 'a PoolManager reading its storage out') }),
  router: () => undefined,
  swapTopics: [V4_SWAP_TOPIC],
  priceFromLog(data, tokenIs0, tokenDecimals, quoteDecimals) {
    const [, , sqrtPriceX96] = decodeAbiParameters([{ type: 'int128' }, { type: 'int128' }, { type: 'uint160' }], data)
    return sqrtPrice(sqrtPriceX96, tokenIs0, tokenDecimals, quoteDecimals)
  },
}

/**
 * A V4 pool in words: its id and manager, its fee, its hook with the permissions its address grants,
 * and what the hook was measured to do in the simulated trades (refuse sells, take a share of them).
 */
export function describeV4(trade: TradeFact): string {
  const v4 = trade.pool.v4
  if (!v4) return ''
  const { key } = v4
  const against = sameAddress(trade.pool.quote, ZERO_ADDRESS) ? 'against the native coin' : `against ${trade.pool.quoteSymbol || trade.pool.quote}`
  const fee = key.fee === V4_DYNAMIC_FEE ? 'a dynamic fee its hook sets' : `a ${key.fee / 10_000}% LP fee`
  const where = `Uniswap V4 pool ${v4.id} in the PoolManager ${v4.manager}, ${against}, ${fee}`
  if (sameAddress(key.hooks, ZERO_ADDRESS)) return `${where}; no hook`
  const perms = v4.permissions.length > 0 ? v4.permissions.join(', ') : 'no permissions'
  const hook = `hook ${key.hooks} (${perms})`
  const sell = trade.sellTax.percent
  let measured: string
  if (!trade.simulated) measured = 'not simulated'
  else if (trade.honeypot) measured = `sells through the pool fail: ${trade.honeypotReason}`
  else if (sell !== undefined && sell > 0) measured = `sells lose ${sell}% ${whereLost(v4.permissions, key.fee === V4_DYNAMIC_FEE)}${paidWords(trade)}`
  else if (trade.honeypot === false) measured = 'the hook refused nothing and took nothing in the simulated trades'
  else measured = `its effect was not measured: ${trade.sellTax.note}`
  return `${where}; ${hook}: ${measured}${hookNotes(trade, key.hooks)}`
}

/** How the hook's code can be replaced, and what privileged calls on it were measured doing to trading; '' when nothing. */
function hookNotes(trade: TradeFact, hooks: Address): string {
  const note = trade.contracts?.find((c) => sameAddress(c.address, hooks))
  if (!note) return ''
  const parts = [
    ...(note.upgrade ? [`the hook is ${note.upgrade}`] : []),
    ...(note.unread ? [`its functions were not tried: ${note.unread}`] : []),
    ...(note.powers.length > 0 ? [`privileged calls on the hook change trading: ${note.powers.join('; ')}`] : []),
  ]
  return parts.map((p) => `; ${p}`).join('')
}

/** Who was seen paid over a sale (the hook's accounts' balances, read around it), in words; '' when not asked. */
function paidWords(trade: TradeFact): string {
  const p = trade.proceeds
  if (!p) return ''
  if (!p.measured) return `; who is paid was not measured: ${p.note}`
  if (p.paidTo.length === 0) return "; none of the hook's accounts gained over a sale (the hook, its owners, the addresses in its code, the token's privileged accounts): what is lost stays in the pool or goes elsewhere"
  const quote = trade.pool.quoteSymbol || 'the quote'
  const each = p.paidTo.map((x) => `${x.label} (${[...(x.token > 0n ? ['in the token'] : []), ...(x.quote > 0n ? [`in ${quote}`] : [])].join(' and ')})`)
  return `; paid to ${each.join(', ')}, by the balances read around a sale`
}

/**
 * Where a measured sell loss can come from, by what the hook's address lets it do: a share of the
 * tokens sold kept before the swap (beforeSwap's returned delta), a dynamic LP fee it sets, a share
 * of what the pool pays out kept after the swap (afterSwap's returned delta). The loss itself is
 * measured (the manager's balance, the pool's move, what reached the seller), not inferred.
 */
function whereLost(permissions: readonly string[], dynamicFee: boolean): string {
  const ways = [
    ...(permissions.includes('beforeSwapReturnDelta') ? ["of the tokens before they reach the pool, taken through the hook's returned delta"] : []),
    ...(dynamicFee ? ['to the LP fee the hook sets (a dynamic fee)'] : []),
    ...(permissions.includes('afterSwapReturnDelta') ? ["of what the pool pays out, kept after the swap through the hook's returned delta (afterSwap)"] : []),
  ]
  if (ways.length === 0) return 'between the tokens sold and what the pool paid'
  return ways.length === 1 ? ways[0] : `(${ways.join('; or ')})`
}

/** A V4 pool's hook, run by every swap of the pool (none for a pool without one). */
export function v4Hook(pool: PoolFact): PoolContract[] {
  const v4 = pool.v4
  if (!v4 || sameAddress(v4.key.hooks, ZERO_ADDRESS)) return []
  return [{ address: getAddress(v4.key.hooks), label: `the hook ${getAddress(v4.key.hooks)} of the Uniswap V4 pool ${v4.id}` }]
}

/** The account whose code carries a V4 pool's key for the probe (a state override): the pool id's low 20 bytes. */
export function v4KeyAccount(id: Hex): Address {
  return getAddress(`0x${id.slice(-40)}`)
}
