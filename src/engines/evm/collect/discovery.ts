import { encodeAbiParameters, encodeFunctionData, getAddress, keccak256, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { erc20Abi } from '../chain/abis.ts'
import { ChainMismatchError, NotFoundError, UpstreamError } from '../../../errors.ts'
import { PROXY_SLOTS } from '../chain/proxy.ts'
import { decodeRevert } from '../chain/revert.ts'
import { RpcError } from '../chain/rpc.ts'
import { callProbe, decodePools, decodeProbe, encodePools, type DexQuery, type PoolInfo, type ReadResult } from '../chain/probe.ts'
import type { TokenBasics } from '../facts.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { decodeAddress, decodeText, decodeUint, probeReads } from './probe-reads.ts'
import { venueOf } from '../venues/registry.ts'
import { MAX_OTHER_QUOTE_POOLS, type FoundPool, type VenueFind } from '../venues/venue.ts'
import { announcedPools, otherTokenReads, type OtherQuotePool } from '../venues/any-quote.ts'

/** The native coin's decimals on every EVM chain. */
const NATIVE_DECIMALS = 18

/** Storage slots 0..N-1 are read to find privileged accounts no getter reveals (hidden owners). */
export const HIDDEN_OWNER_SLOTS = 16

const OWNER_ABI = parseAbi(['function owner() view returns (address)', 'function getOwner() view returns (address)'])

export interface QuoteAsset {
  address: Address
  symbol: string
  decimals: number | undefined
  /**
   * `native`: the native coin itself, the other side of Uniswap V4 pools (address zero); `other`:
   * a token the token's only pools stand against, priced through its own pools.
   */
  kind: 'wrapped-native' | 'stablecoin' | 'major' | 'native' | 'other'
}

/** What the first round trip of a report learns. */
export interface Discovery {
  block: { number: bigint; timestamp: number; readAt: number }
  code: Hex
  /** Storage words by lowercased slot (proxy slots and slots 0..HIDDEN_OWNER_SLOTS-1). */
  slots: Record<string, Hex>
  /**
   * The token's balance in each contract that keeps the tokens of all its venue's pools (a Uniswap
   * V4 PoolManager), read with its basics; undefined when balanceOf() did not answer a number.
   */
  custody: { holder: Address; balance: bigint | undefined }[]
  basics: TokenBasics
  owner: { owner?: Address; getOwner?: Address }
  quotes: QuoteAsset[]
  /** The token's pools on every configured DEX against every quote asset. */
  pools: FoundPool[]
  /**
   * Pools the venues that find pools themselves found against tokens that are no quote assets, not
   * markets of the report because the token has pools against the quote assets (`pending` until
   * settled). They are of the token all the same: a PoolManager's holding of the token is theirs.
   */
  passedOver: FoundPool[]
  /** What the venues that find pools themselves could not search ('' when they searched everything). */
  venueNote: string
  /**
   * What the first round trip found that needs one more read: the `pending` pools (known by their
   * key or their factory's announcement) with their state, the other tokens they stand against as
   * quote assets, and those tokens' own pools that price them. Awaited only by what needs their
   * figures (markets, their trades).
   */
  later: Promise<LaterFinds>
  /** Pools pricing quote assets: wrapped native against stablecoins, majors against both. */
  pricePools: { asset: Address; pools: PoolInfo[] }[]
  /** `ots_getContractCreator` answer (undefined when the node lacks it). */
  otsCreator: { hash: Hex; creator: Address } | undefined | null
  /** ERC-20 getters that the token's code reverted (or answered nonsense to), with why. */
  getterFailures: string[]
  /**
   * The storage slot that holds the token's balance of itself, found from the storage `balanceOf`
   * reads (an access list), so that a simulation can give the contract a large balance of its own
   * tokens; or why it is unknown.
   */
  selfBalanceSlot: BalanceSlot | { why: string }
}

/** The lens's queries: one per DEX whose venue the lens can ask, with its index in the chain's list. */
export function dexQueries(ctx: CollectContext): { index: number; query: DexQuery }[] {
  return ctx.chain.dexes.flatMap((d, index) => {
    const query = venueOf(d.type).lensQuery?.(d)
    return query ? [{ index, query }] : []
  })
}

/** See `Discovery.later`. */
export interface LaterFinds {
  pools: FoundPool[]
  quotes: QuoteAsset[]
  pricePools: { asset: Address; pools: PoolInfo[] }[]
}

/**
 * The token's pools against tokens that are not quote assets, when it has none against them: the
 * factories' announcements (first round trip) name them, pending, and so do the venues that find
 * pools themselves (a V4 pool against another token, whose state their own read brings). The
 * announced pools' state, the other tokens' symbol and decimals, and the other tokens' own pools
 * against the quote assets are read next.
 */
function otherQuotePools(
  ctx: CollectContext,
  token: Address,
  announced: OtherQuotePool[],
  venueFound: FoundPool[],
  quotes: Address[],
): { pending: FoundPool[]; later: Promise<LaterFinds> } {
  const chosen = announced.slice(0, MAX_OTHER_QUOTE_POOLS)
  if (chosen.length + venueFound.length === 0) return { pending: [], later: Promise.resolve({ pools: [], quotes: [], pricePools: [] }) }
  const pending: FoundPool[] = [
    ...chosen.map(
      (p): FoundPool => ({
        dex: BigInt(p.dexIndex),
        pool: p.pool,
        kind: 0,
        fee: 0,
        quote: p.other,
        token0: BigInt(token) < BigInt(p.other) ? token : p.other,
        // Its state is read later: unknown until then, never 0.
        reserveToken: undefined,
        reserveQuote: undefined,
        lpSupply: undefined,
        sqrtPriceX96: undefined,
        liquidity: undefined,
        pending: true,
      }),
    ),
    ...venueFound,
  ]
  const others = [...new Set(pending.map((p) => p.quote.toLowerCase()))].map((o) => getAddress(o))
  const later = (async () => {
    const [own, priced, reads] = await Promise.all([
      chosen.length > 0 ? probePools(ctx, token, others, 'latest') : Promise.resolve([]),
      Promise.all(others.map((o) => probePools(ctx, o, quotes, 'latest'))),
      probeReads(ctx, otherTokenReads(others), 'latest'),
    ])
    const pools = own.filter((p) => chosen.some((c) => sameAddress(c.pool, p.pool)))
    const quoteInfo = others.map((address, i): QuoteAsset => {
      const d = decodeUint(reads[2 * i + 1])
      return { address, kind: 'other', symbol: decodeText(reads[2 * i]) ?? '', decimals: d !== undefined && d <= 255n ? Number(d) : undefined }
    })
    return { pools, quotes: quoteInfo, pricePools: others.map((asset, i) => ({ asset, pools: priced[i] })) }
  })()
  later.catch(() => {})
  return { pending, later }
}

/** Whether the chain lists a venue whose pools may stand against the native coin itself. */
function tradesNative(ctx: CollectContext): boolean {
  return ctx.chain.dexes.some((d) => venueOf(d.type).nativeQuote === true)
}

/**
 * The token's pools on the venues that find them themselves (Uniswap V4, launchpad curves), against
 * `quotes`; `storage` is the token's first storage words, read beside them (where a token may name its pool).
 */
async function venuePools(
  ctx: CollectContext,
  token: Address,
  quotes: Address[],
  storage: Promise<readonly Hex[]>,
): Promise<{ pools: FoundPool[]; others: FoundPool[]; note: string; state: Promise<FoundPool[]> }> {
  const found = await Promise.all(
    ctx.chain.dexes.map(async (dex, index): Promise<VenueFind> => {
      const find = venueOf(dex.type).find
      return find ? find(ctx, dex, index, token, quotes, storage) : { pools: [], note: '' }
    }),
  )
  const state: Promise<FoundPool[]> = Promise.all(found.map((f) => f.state ?? Promise.resolve([]))).then((all) => all.flat())
  state.catch(() => {})
  return { pools: found.flatMap((f) => f.pools), others: found.flatMap((f) => f.others ?? []), note: found.map((f) => f.note).filter(Boolean).join('; '), state }
}

/** A discovered pool with its state, when it was `pending` (read after the discovery). */
export function resolvedPool(pool: FoundPool, resolved: readonly FoundPool[]): FoundPool {
  if (!pool.pending) return pool
  return resolved.find((r) => (pool.v4 ? r.v4?.id === pool.v4.id : !r.v4 && sameAddress(r.pool, pool.pool))) ?? pool
}

/** Whether `pool` (a fact) is one discovery knew only as pending. */
export function wasPending(d: Discovery, pool: { address: Address; v4?: { id: Hex } }): boolean {
  return d.pools.some((p) => p.pending && sameAddress(p.pool, pool.address) && (!pool.v4 || p.v4?.id === pool.v4.id))
}

/**
 * The discovery once what it left pending is read: pending pools with their state (those that
 * turned out to be no pool are dropped), the other tokens among the quote assets, their prices' pools.
 */
export async function settled(d: Discovery): Promise<Discovery> {
  const later = await d.later
  return {
    ...d,
    pools: d.pools.map((p) => resolvedPool(p, later.pools)).filter((p) => !p.pending),
    passedOver: d.passedOver.map((p) => resolvedPool(p, later.pools)).filter((p) => !p.pending),
    quotes: [...d.quotes, ...later.quotes],
    pricePools: [...d.pricePools, ...later.pricePools],
  }
}

export function quoteAssets(ctx: CollectContext): { address: Address; kind: QuoteAsset['kind'] }[] {
  const seen = new Set<string>()
  const out: { address: Address; kind: QuoteAsset['kind'] }[] = []
  const add = (address: Address, kind: QuoteAsset['kind']) => {
    if (address === '0x0000000000000000000000000000000000000000' || seen.has(address.toLowerCase())) return
    seen.add(address.toLowerCase())
    out.push({ address, kind })
  }
  add(ctx.chain.wrappedNative, 'wrapped-native')
  for (const s of ctx.chain.stablecoins) add(s, 'stablecoin')
  for (const m of ctx.chain.majors) add(m, 'major')
  return out
}

/** The pools of `asset` against `quotes` on every DEX of the chain (the probe's pool lens). */
export async function probePools(ctx: CollectContext, asset: Address, quotes: Address[], block: Hex | 'latest'): Promise<PoolInfo[]> {
  const dexes = dexQueries(ctx)
  if (dexes.length === 0 || quotes.length === 0) return []
  const raw = await callProbe(ctx.rpc, { what: 'pool discovery', data: encodePools(asset, dexes.map((d) => d.query), quotes), gas: ctx.gasCap, block })
  // The lens numbers the DEXes it was given; pools name the DEX by its index in the chain's list.
  return decodeProbe('pool discovery', raw, decodePools).map((p) => ({ ...p, dex: BigInt(dexes[Number(p.dex)]?.index ?? -1) }))
}

/**
 * The first round trip: chain id, block, code, storage, ERC-20 basics, owner, pools and price
 * routes, creator — all in one JSON-RPC batch. Throws `NotFoundError` when no token lives at the
 * address, `ChainMismatchError` when the node answers for another chain.
 */
export async function discover(ctx: CollectContext): Promise<Discovery> {
  const { rpc, token } = ctx
  const proxySlots: Hex[] = Object.values(PROXY_SLOTS)
  const slotKeys: Hex[] = [...proxySlots]
  for (let i = 0; i < HIDDEN_OWNER_SLOTS; i++) slotKeys.push(`0x${i.toString(16)}`)
  const quotes = quoteAssets(ctx)
  const slotReads = Promise.all(slotKeys.map((k) => rpc.request<Hex>('eth_getStorageAt', [token, k, 'latest'])))
  // Slots 0.. in order, for the venues that find a pool the token names in its storage (no read of their own).
  const storage = slotReads.then((words) => words.slice(proxySlots.length))
  // Awaited by the venues that read it, and its failure by the batch below either way.
  storage.catch(() => {})
  // The contracts holding every pool of their venue (a V4 PoolManager): the token's balance in each, read with its basics.
  const custodians = ctx.chain.dexes
    .filter((dex) => venueOf(dex.type).custodian)
    .map((dex) => getAddress(dex.factory))
    .filter((a, i, all) => all.indexOf(a) === i)

  const tokenCalls = [
    { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'name' }) },
    { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }) },
    { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
    { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' }) },
    { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [token] }) },
    { target: token, data: encodeFunctionData({ abi: OWNER_ABI, functionName: 'owner' }) },
    { target: token, data: encodeFunctionData({ abi: OWNER_ABI, functionName: 'getOwner' }) },
  ]
  const quoteCalls = quotes.flatMap((q) => [
    { target: q.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }) },
    { target: q.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
  ])
  const custodyCalls = custodians.map((holder) => ({ target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] }) }))

  const stables = ctx.chain.stablecoins
  const caps = rpc.capabilities
  const weth = ctx.chain.wrappedNative
  const native = tradesNative(ctx) ? [ZERO_ADDRESS] : []
  const [chainId, header, code, slotValues, reads, pools, nativePools, majorPools, otsCreator, accessList, found, announced] = await Promise.all([
    rpc.request<Hex>('eth_chainId'),
    rpc.request<{ number: Hex; timestamp: Hex } | null>('eth_getBlockByNumber', ['latest', false]),
    rpc.request<Hex>('eth_getCode', [token, 'latest']),
    slotReads,
    probeReads(ctx, [...tokenCalls, ...quoteCalls, ...custodyCalls], 'latest'),
    probePools(ctx, token, quotes.map((q) => q.address), 'latest'),
    probePools(ctx, weth, stables, 'latest'),
    Promise.all(ctx.chain.majors.map((m) => probePools(ctx, m, [weth, ...stables], 'latest'))),
    // A node found without Otterscan's methods is not asked: the creation is found another way.
    caps?.otterscan === 'no'
      ? undefined
      : rpc.request<{ hash: Hex; creator: Address } | null>('ots_getContractCreator', [token]).catch((error: unknown) => {
          if (error instanceof RpcError && error.kind === 'unsupported') return undefined
          throw error
        }),
    caps?.accessList === 'no'
      ? 'the node has no eth_createAccessList'
      : rpc
          .request<{ accessList?: { address: string; storageKeys?: Hex[] }[] }>('eth_createAccessList', [
            { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [token] }) },
            'latest',
          ])
          .catch((error: unknown) => {
            // A node without access lists, or a balanceOf() that reverts: the slot stays unknown.
            if (error instanceof RpcError && error.kind !== 'fault') return error.message
            throw error
          }),
    venuePools(ctx, token, [...quotes.map((q) => q.address), ...native], storage),
    announcedPools(ctx, token, [...quotes.map((q) => q.address), ...native]),
  ])
  if (BigInt(chainId) !== BigInt(ctx.chain.chainId)) {
    throw new ChainMismatchError(`the RPC configured for chain ${ctx.chain.chainId} answers for chain ${BigInt(chainId)}: no report is given from it`)
  }
  // A node without a latest block is a node fault, never an answer about the token.
  if (!header) throw new UpstreamError(`the node for chain ${ctx.chain.chainId} has no latest block`)
  if (!code || code === '0x') throw new NotFoundError(`no contract at ${token} on chain ${ctx.chain.chainId}`)

  const [name, symbol, decimals, totalSupply, selfBalance, owner, getOwner] = tokenCalls.map((_, i) => reads[i])
  // Pools against other tokens count when the token has none against the quote assets.
  const noQuotePool = pools.length + found.pools.length === 0
  const other = otherQuotePools(ctx, token, noQuotePool ? announced.pools : [], noQuotePool ? found.others : [], [weth, ...stables])
  const later = Promise.all([found.state, other.later]).then(([state, o]): LaterFinds => ({ pools: [...state, ...o.pools], quotes: o.quotes, pricePools: o.pricePools }))
  // Awaited by the markets of every report; never left rejected unawaited when the report fails first.
  later.catch(() => {})
  const supply = decodeUint(totalSupply)
  // Whether this is a token whose getters fail, or no token at all, is decided once its logic is read.
  const getterFailures = [
    ...(supply === undefined ? [`totalSupply() ${getterFailure(totalSupply)}`] : []),
    ...(decodeUint(selfBalance) === undefined ? [`balanceOf() ${getterFailure(selfBalance)}`] : []),
  ]
  const dec = decodeUint(decimals)
  const slots: Record<string, Hex> = {}
  slotKeys.forEach((k, i) => {
    slots[k.toLowerCase()] = slotValues[i]
  })
  const quoteInfo: QuoteAsset[] = quotes.map((q, i) => {
    const d = decodeUint(reads[tokenCalls.length + i * 2 + 1])
    return {
      address: q.address,
      kind: q.kind,
      symbol: decodeText(reads[tokenCalls.length + i * 2]) ?? '',
      decimals: d !== undefined && d <= 255n ? Number(d) : undefined,
    }
  })
  return {
    block: { number: BigInt(header.number), timestamp: Number(BigInt(header.timestamp)), readAt: Date.now() },
    code,
    slots,
    custody: custodians.map((holder, i) => ({ holder, balance: decodeUint(reads[tokenCalls.length + quoteCalls.length + i]) })),
    basics: {
      name: decodeText(name),
      symbol: decodeText(symbol),
      decimals: dec !== undefined && dec <= 255n ? Number(dec) : undefined,
      totalSupply: supply,
    },
    owner: { owner: decodeAddress(owner), getOwner: decodeAddress(getOwner) },
    quotes: [...quoteInfo, ...native.map((address): QuoteAsset => ({ address, kind: 'native', symbol: ctx.chain.nativeSymbol, decimals: NATIVE_DECIMALS }))],
    pools: [...pools, ...found.pools, ...other.pending],
    passedOver: noQuotePool ? [] : found.others,
    venueNote: [found.note, announced.note].filter(Boolean).join('; '),
    later,
    pricePools: [{ asset: weth, pools: nativePools }, ...ctx.chain.majors.map((m, i) => ({ asset: m, pools: majorPools[i] }))],
    otsCreator: otsCreator === null ? null : otsCreator ? { hash: otsCreator.hash, creator: getAddress(otsCreator.creator) } : undefined,
    getterFailures,
    selfBalanceSlot: typeof accessList === 'string' ? { why: `the node gave no access list (${accessList.slice(0, 80)})` } : balanceSlotOf(token, accessList.accessList ?? []),
  }
}

/** Where the token keeps balances: a `mapping(address => uint256)` at a storage index, in Solidity's or Vyper's layout. */
export interface BalanceMapping {
  index: number
  layout: 'solidity' | 'vyper'
}

/** The token's own balance slot, and the balance mapping it belongs to when it is a plain one. */
export interface BalanceSlot {
  slot: Hex
  mapping?: BalanceMapping
}

/** The storage slot of `account`'s entry in a balance mapping. */
export function mappingSlot(mapping: BalanceMapping, account: Address): Hex {
  return mapping.layout === 'solidity'
    ? keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [account, BigInt(mapping.index)]))
    : keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [BigInt(mapping.index), account]))
}

/** Mapping slots tried for the balance mapping (Solidity and Vyper layouts of `mapping(address => uint256)`). */
const MAX_MAPPING_SLOT = 64

/**
 * The slot of `token`'s own balance among the storage keys that `balanceOf(token)` read: the one
 * that is a balance-mapping entry for `token` (Solidity `keccak(key . slot)` or Vyper
 * `keccak(slot . key)`), or else the only key read that is not a proxy's.
 */
export function balanceSlotOf(token: Address, accessList: { address: string; storageKeys?: Hex[] }[]): BalanceSlot | { why: string } {
  const keys = accessList.filter((e) => e.address.toLowerCase() === token.toLowerCase()).flatMap((e) => e.storageKeys ?? []).map((k) => k.toLowerCase() as Hex)
  const known = new Set(keys)
  for (let s = 0; s <= MAX_MAPPING_SLOT; s++) {
    for (const layout of ['solidity', 'vyper'] as const) {
      const mapping = { index: s, layout }
      const slot = mappingSlot(mapping, token)
      if (known.has(slot)) return { slot, mapping }
    }
  }
  const proxySlots = new Set<string>(Object.values(PROXY_SLOTS).map((x) => x.toLowerCase()))
  const others = keys.filter((k) => !proxySlots.has(k))
  if (others.length === 1) return { slot: others[0] }
  return { why: others.length === 0 ? 'balanceOf() read no storage of the token' : `balanceOf() read ${others.length} storage slots; none is plainly the balance` }
}

/** Why a getter's answer is not a number: its revert, or what it answered. */
function getterFailure(r: ReadResult): string {
  if (!r.success) return `reverted (${decodeRevert(r.returnData)})`
  return r.returnData === '0x' ? 'answered nothing' : 'answered something that is not a number'
}
