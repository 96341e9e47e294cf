import { readFileSync } from 'node:fs'
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, getAddress, keccak256, toFunctionSelector, toHex } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { SimulationError } from '../../../errors.ts'
import { decodeRevert, isProbeReason } from './revert.ts'
import { ethCall, type BlockRef } from './multicall.ts'
import { RpcError, type RpcSession } from './rpc.ts'
import { OverridesRefusedError, runnerCode } from './plain-call.ts'
import type { EvmVersion } from './capabilities.ts'

/**
 * Bindings of our probe contract (`contracts/probe/TokenProbe.sol`). The probe is never deployed:
 * its runtime code is placed, through `eth_call` state overrides, at scratch addresses (the main
 * probe and the wallets it trades with) and at the addresses of privileged-account candidates.
 *
 * Why it is long: every experiment of the probe has its ABI binding here — the structs it takes
 * and answers (trades, owner powers, reach searches, holder sells, creation balances) written out
 * once, beside the encoders and decoders that must match them field for field.
 */

/** A scratch address nobody holds a key for, derived from a role name. */
function scratch(role: string): Address {
  return getAddress(`0x${keccak256(toHex(`tokenrisk.probe.${role}`)).slice(-40)}`)
}

export const PROBE_ADDRESSES = {
  /** The main probe: holds ETH, drives the experiments. */
  main: scratch('main'),
  /** Receives a transfer, then sells. */
  w1: scratch('wallet-1'),
  /** The large buyer. */
  w2: scratch('wallet-2'),
  /** Receives transfers when the probe could not buy. */
  w3: scratch('wallet-3'),
  /** Holder targeted by owner functions. */
  a: scratch('holder-a'),
  /** Bystander holder, never passed to owner functions. */
  b: scratch('holder-b'),
  /** Fresh recipient of the owner-power measurements. */
  f: scratch('fresh'),
  /** An account privileged calls may appoint (vault, minter, role holder): the second step of a power. */
  delegate: scratch('delegate'),
  /** An account whose code reverts on every call: it refuses the native coin (a fee wallet that stops sales). */
  rejecter: scratch('rejects-native'),
  /** An account whose code answers every call with the largest word: a dependency answering extreme values. */
  extreme: scratch('answers-extreme'),
} as const

/** Code that reverts on every call, native coin included (PUSH1 0 PUSH1 0 REVERT). */
export const REJECTING_CODE: Hex = '0x60006000fd'

/** The state override that puts the rejecting code at the rejecting account. */
export const REJECTER_STATE: StateOverride = { [PROBE_ADDRESSES.rejecter]: { code: REJECTING_CODE } }

/** ETH given to the main probe (wei): enough to buy half of any pool. */
export const PROBE_ETH_BALANCE = 10n ** 30n
/** Replaced by the probe, at run time, with half of holder A's balance (owner-function amounts). */
export const AMOUNT_PLACEHOLDER: Hex = '0x746f6b656e7269736b2d616d6f756e742d706c616365686f6c64657200000001'
/** Share of a pool's token balance bought by the probe's small buys (basis points). */
export const SMALL_BUY_BPS = 10n
/** Share bought by the large buy that reveals a maximum transaction or wallet. */
export const LARGE_BUY_BPS = 5_000n
/** Share bought for each of holders A and B before the owner-power measurements. */
export const FUND_BPS = 20n
/** Share of the pool the large buy of every owner-power measurement asks for (a limit lifted or lowered). */
export const POWER_BIG_BUY_BPS = 500n

/**
 * The probe compiled: its ABI and runtime code, generated from `contracts/probe/TokenProbe.sol` by
 * `npm run build:contracts` and committed, so that the service never needs a compiler.
 */
const PROBE_ARTIFACT = new URL('./token-probe.artifact.json', import.meta.url)

let artifact: { abi: Abi; deployedBytecode: Hex; readerBytecode: Hex } | undefined
const probeArtifact = () => (artifact ??= JSON.parse(readFileSync(PROBE_ARTIFACT, 'utf8')) as { abi: Abi; deployedBytecode: Hex; readerBytecode: Hex })

/**
 * The probe's builds for EVM versions before Cancun (`token-probe.<version>.artifact.json`, same
 * ABI): without transient storage (Shanghai), and without PUSH0 either (Paris, London).
 */
const variants = new Map<string, { deployedBytecode: Hex; readerBytecode: Hex }>()
function buildFor(evm: EvmVersion | undefined): { deployedBytecode: Hex; readerBytecode: Hex } {
  if (!evm || evm === 'cancun') return probeArtifact()
  let v = variants.get(evm)
  if (!v) variants.set(evm, (v = JSON.parse(readFileSync(new URL(`./token-probe.${evm}.artifact.json`, import.meta.url), 'utf8')) as { deployedBytecode: Hex; readerBytecode: Hex }))
  return v
}

export function probeAbi(): Abi {
  return probeArtifact().abi
}

/** The probe's runtime code, built for the chain's EVM version (Cancun when unknown). */
export function probeCode(evm?: EvmVersion): Hex {
  return buildFor(evm).deployedBytecode
}

let readerSelectors: Set<string> | undefined

/**
 * Whether `data` calls one of the probe's view functions (reads, accounts, pools, locks): those
 * run on the readers alone (TokenReader, a quarter of the probe's code), which is what their state
 * override then carries: a report sends its reads many times, and the bytes are the node's work.
 */
export function isReaderCall(data: Hex): boolean {
  readerSelectors ??= new Set(
    probeAbi()
      .filter((item): item is Extract<Abi[number], { type: 'function' }> => item.type === 'function' && item.stateMutability === 'view')
      .map((item) => toFunctionSelector(item)),
  )
  return readerSelectors.has(data.slice(0, 10).toLowerCase())
}

/** The override of a view call: the readers' code (for the chain's EVM version) at the main probe's address. */
export function readerOverride(evm?: EvmVersion): StateOverride {
  return { [PROBE_ADDRESSES.main]: { code: buildFor(evm).readerBytecode } }
}

export type StateOverride = Record<string, { code?: Hex; balance?: Hex; state?: Record<Hex, Hex>; stateDiff?: Record<Hex, Hex> }>

/**
 * Runtime code of an EIP-1167 minimal proxy delegating to the main probe: what actors carry, so
 * that an actor runs the probe's code in its own name (its calls come from it) while each
 * simulation sends the probe's code once rather than once per actor.
 */
export const ACTOR_CODE: Hex = `0x363d3d373d3d3d363d73${PROBE_ADDRESSES.main.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`

/** The probe's code (for the chain's EVM version) at the main probe (with ETH), and at `actors` a stub that delegates to it. */
export function probeOverride(actors: Address[], evm?: EvmVersion): StateOverride {
  const out: StateOverride = { [PROBE_ADDRESSES.main]: { code: probeCode(evm), balance: `0x${PROBE_ETH_BALANCE.toString(16)}` } }
  for (const a of actors) out[a] ??= { code: ACTOR_CODE }
  return out
}

/** A Uniswap V4 pool's key, as the PoolManager's ABI has it. */
export interface V4PoolKey {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

export interface ProbePool {
  pool: Address
  /**
   * 2 = Uniswap V2 type pair, 3 = Uniswap V3 type pool, 4 = Uniswap V4 pool (`pool` then carries its
   * key), 5 / 6 = Solidly-style volatile / stable pool, 7 = a launchpad's bonding curve (`pool` is the launchpad),
   * 8 = a four.meme-interface curve (`pool` is the helper that names its manager).
   */
  kind: 2 | 3 | 4 | 5 | 6 | 7 | 8
  quote: Address
  feeBps: number
  /** A V4 pool's manager and key: placed as the code of the account `pool` names (see `poolState`). */
  v4?: { manager: Address; key: V4PoolKey }
}

/**
 * The state a probe call trading through `pool` needs beside the probe's: a Uniswap V4 pool's
 * manager and key as the code of the account the pool names (`abi.encode(manager, key)`, read by
 * the probe with EXTCODECOPY; never run).
 */
export function poolState(pool: ProbePool | undefined): StateOverride {
  if (!pool?.v4) return {}
  const { manager, key } = pool.v4
  const code = encodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
    [manager, key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
  )
  return { [pool.pool]: { code } }
}

export interface ProbeRoute {
  pool: Address
  kind: 0 | 2 | 3
  feeBps: number
}

export const NO_ROUTE: ProbeRoute = { pool: '0x0000000000000000000000000000000000000000', kind: 0, feeBps: 0 }

export interface Outcome {
  ok: boolean
  err: Hex
  sent: bigint
  received: bigint
}

export interface TradeResult {
  /** Gas left when the probe began (a node that caps `eth_call` gas shows here). */
  startGas: bigint
  buy: Outcome
  transfer: Outcome
  sellPart: Outcome
  sellAll: Outcome
  sell99: Outcome
  buyAgain: Outcome
  bigBuy: Outcome
  seller: Address
  sellQuoteOut: bigint
  /** A buy through the pool's router (fee-on-transfer variant), as wallets send it. */
  routerBuy: Outcome
  /** approve, then the router pulls half of the seller's balance with transferFrom. */
  routerSell: Outcome
  /** Whether the seller's approve of the router went through. */
  routerApproved: boolean
}

export interface Measure {
  /** The total supply; meaningful only when `supplyRead` (every value, 2^256 - 1 included, is one the token answered). */
  supply: bigint
  /** Whether totalSupply() answered a word: false, the supply is unknown (never 0). */
  supplyRead: boolean
  /** Balances of the watched accounts (`encodePowers`' `watch`), read right after the call. */
  balances: readonly bigint[]
  /** Bit i: whether `balances[i]` was read; clear, that balance is unknown (never 0). Accounts past the 256th are never read. */
  balancesRead: bigint
  aTransfer: Outcome
  bTransfer: Outcome
  aSell: Outcome
  bSell: Outcome
  bBuy: Outcome
  /** A large buy by a fresh account: a maximum transaction or wallet being lifted or lowered shows here. */
  bBigBuy: Outcome
  /**
   * Watched accounts (bit i: `watch[i]`) whose balance shown fell in the call and was not held:
   * before the call they could not send one unit more than they are shown after it, and after it
   * they send the whole of what they are shown. Or whose balance shown rose in the call and is not
   * held: right after it they send the whole of what they were shown before, and not one unit more.
   * Set after a call only (0 in baselines); an account the probe cannot act for never has its bit.
   */
  notHeld: bigint
  /** An allowance over A's or B's tokens that neither gave, found after the call (zero spender: none)... */
  pullSpender: Address
  pullHolder: Address
  pullAllowance: bigint
  /** ...and the spender's transferFrom through it, of up to half the holder's balance, to itself. */
  pull: Outcome
}

export interface Attempt {
  candidate: Address
  variant: bigint
  called: boolean
  err: Hex
  m: Measure
  /** The same call made a second time raised the supply again (false: a one-shot emission, or no mint). */
  raisesAgain: boolean
}

export interface PowerResult {
  startGas: bigint
  funded: boolean
  /** Whether the baseline was measured; without it no attempt means anything. */
  measured: boolean
  baseline: Measure
  attempts: readonly Attempt[]
  /** Whether the two-step experiment ran (no candidate could call the function itself). */
  twoStep: boolean
  /** Grants (indexes into `grants`) a candidate made in the delegate's favour, and who made each. */
  grantsMade: readonly bigint[]
  grantors: readonly Address[]
  grantMeasured: boolean
  /** The state after the grants, before the delegate acts: what the delegate's attempts compare with. */
  grantBaseline: Measure
  delegateAttempts: readonly Attempt[]
  /** Whether a precondition naming A (`flags[chainFlag]`, made by `chainBy`) let a candidate call the function. */
  chained: boolean
  chainFlag: bigint
  chainBy: Address
  chainMeasured: boolean
  /** The state after the precondition and a trade by B, before the call. */
  chainBaseline: Measure
  chainAttempts: readonly Attempt[]
}

export interface Lock {
  owner: Address
  amount: bigint
  unlockTime: bigint
  withdrawn: boolean
}

export function encodeTrade(p: {
  token: Address
  weth: Address
  pool: ProbePool
  route: ProbeRoute
  donors: Address[]
  /** Buy, transfer and sell part of the balance only (a precondition's second look at sells). */
  sellsOnly?: boolean
  /** The pool's V2 router: buys and sells through it too, as wallets make them. */
  router?: Address
}): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'trade', args: [tradeParams(p)] })
}

/** The probe's TradeParams for a trade through `pool`: its test wallets and buy sizes with the caller's choices. */
function tradeParams(p: { token: Address; weth: Address; pool: ProbePool; route: ProbeRoute; donors: Address[]; sellsOnly?: boolean; router?: Address }) {
  return {
    token: p.token,
    weth: p.weth,
    pool: p.pool,
    route: p.route,
    w1: PROBE_ADDRESSES.w1,
    w2: PROBE_ADDRESSES.w2,
    w3: PROBE_ADDRESSES.w3,
    donors: p.donors,
    smallBps: SMALL_BUY_BPS,
    largeBps: LARGE_BUY_BPS,
    sellsOnly: p.sellsOnly ?? false,
    router: p.router ?? NO_ROUTE.pool,
  }
}

export function decodeTrade(data: Hex): TradeResult {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'trade', data }) as unknown as TradeResult
}

export interface PowerParams {
  token: Address
  weth: Address
  pool: ProbePool | undefined
  route: ProbeRoute
  candidates: Address[]
  donors: Address[]
  /** Accounts whose balances every measure reads. */
  watch: Address[]
  variants: Hex[]
  /** Calldata that appoints the delegate (two-step powers). */
  grants: Hex[]
  /** Calldata that flags holder A (chained powers: flag, then act); none by default. */
  flags?: Hex[]
  /** The contract the variants, grants and flags call: the token by default, or a contract its trades pass through (a pool's hook). */
  target?: Address
}

/** The owner-power experiment: every call isolated and measured (`powers`). */
export function encodePowers(p: PowerParams): Hex {
  return encodePowerCall('powers', p)
}

/**
 * The same calls replayed one after the other, not isolated (`powersReplay`), for a trace: its
 * events and storage diff name and measure every account the calls touched. Answers the total
 * supply before and after.
 */
export function encodePowersReplay(p: PowerParams): Hex {
  return encodePowerCall('powersReplay', p)
}

/** The total supply before and after the replay; undefined where the read failed (unknown, never 0). */
export function decodePowersReplay(data: Hex): { supplyBefore: bigint | undefined; supplyAfter: bigint | undefined } {
  const [supplyBefore, supplyAfter, beforeRead, afterRead] = decodeFunctionResult({ abi: probeAbi(), functionName: 'powersReplay', data }) as readonly [
    bigint,
    bigint,
    boolean,
    boolean,
  ]
  return { supplyBefore: beforeRead ? supplyBefore : undefined, supplyAfter: afterRead ? supplyAfter : undefined }
}

/** The supply's change over a replay: unknown when either side was not read. */
export function replaySupplyDelta(s: { supplyBefore: bigint | undefined; supplyAfter: bigint | undefined }): bigint | undefined {
  return s.supplyBefore === undefined || s.supplyAfter === undefined ? undefined : s.supplyAfter - s.supplyBefore
}

function encodePowerCall(functionName: 'powers' | 'powersReplay', p: PowerParams): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName, args: [powerArgs(p)] })
}

/** The probe's `PowerParams` tuple. */
function powerArgs(p: PowerParams) {
  return {
    token: p.token,
    weth: p.weth,
    pool: p.pool ?? { pool: NO_ROUTE.pool, kind: 2, quote: NO_ROUTE.pool, feeBps: 0 },
    route: p.route,
    candidates: p.candidates,
    donors: p.donors,
    a: PROBE_ADDRESSES.a,
    b: PROBE_ADDRESSES.b,
    f: PROBE_ADDRESSES.f,
    delegate: PROBE_ADDRESSES.delegate,
    watch: p.watch,
    variants: p.variants,
    grants: p.grants,
    fundBps: FUND_BPS,
    bigBuyBps: POWER_BIG_BUY_BPS,
    flags: p.flags ?? [],
    target: p.target ?? p.token,
  }
}

/** A numeric setter for the probe's search: its calldata, the byte offsets of its numeric words, each one's largest value. */
export interface ProbeSetter {
  data: Hex
  words: readonly bigint[]
  maxes: readonly bigint[]
}

export interface ReachPoint {
  value: bigint
  accepted: boolean
  sell: Outcome
}

export interface ReachSearch {
  lastAccepted: bigint
  refused: boolean
  firstRefused: bigint
  stops: boolean
  stopAt: bigint
  stopsAtTop: boolean
  sells: boolean
  best: ReachPoint
  points: bigint
}

/** What the probe's search of one numeric setter found (`reach`). */
export interface ReachResult {
  startGas: bigint
  funded: boolean
  /** The first candidate the setter accepted a call from (zero: none). */
  caller: Address
  baseSell: Outcome
  alone: ReachSearch
  bestBuy: Outcome
  /** What each watched account gained over a sale at `alone.best` (who is paid). */
  gains: readonly bigint[]
  /** Bit i: `gains[i]` was read (both balances read); a gain not read is unknown, never 0. */
  gainsRead: bigint
  /** What the delegate gained there once every address setter named it (an address the owner sets). */
  delegateGain: bigint
  /** The delegate's balance was read before and after (else its gain is unknown). */
  delegateGainRead: boolean
  withSiblings: boolean
  siblingValues: readonly bigint[]
  combined: ReachSearch
}

/** The search of one numeric setter (`reach`): alone, then with its siblings at their largest accepted values. */
export function encodeReach(p: PowerParams, target: ProbeSetter, siblings: readonly ProbeSetter[], grid: readonly bigint[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'reach', args: [powerArgs(p), target, siblings, grid] as never })
}

export function decodeReach(data: Hex): ReachResult {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'reach', data }) as unknown as ReachResult
}

/** What each watched account gained over one sale into the pool (`saleGains`): in the token, and in the quote. */
export interface SaleGains {
  funded: boolean
  sell: Outcome
  tokenGains: readonly bigint[]
  /** Bit i: `tokenGains[i]` was read before and after the sale; clear, it is unknown (never 0). */
  tokenRead: bigint
  quoteGains: readonly bigint[]
  quoteRead: bigint
}

/** A sale into the pool by a funded holder, with nothing changed before it, and who gained over it among `watch`. */
export function encodeSaleGains(p: PowerParams): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'saleGains', args: [powerArgs(p)] })
}

export function decodeSaleGains(data: Hex): SaleGains {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'saleGains', data }) as unknown as SaleGains
}

export function decodePowers(data: Hex): PowerResult {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'powers', data }) as unknown as PowerResult
}

export function encodeAccounts(token: Address | undefined, list: Address[]): Hex {
  return encodeFunctionData({
    abi: probeAbi(),
    functionName: 'accounts',
    args: [token ?? '0x0000000000000000000000000000000000000000', list],
  })
}

/**
 * Code sizes and balances of accounts; `read[i]` false: that balance could not be read (its
 * `balances[i]` is 0 then, and means nothing).
 */
export function decodeAccounts(data: Hex): { codeSizes: readonly bigint[]; balances: readonly bigint[]; read: readonly boolean[] } {
  const [codeSizes, balances, read] = decodeFunctionResult({ abi: probeAbi(), functionName: 'accounts', data }) as readonly [
    readonly bigint[],
    readonly bigint[],
    readonly boolean[],
  ]
  return { codeSizes, balances, read }
}

export function encodePresence(token: Address, list: Address[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'presence', args: [token, list] })
}

/** Code sizes, token balances (undefined: the read failed, unknown, never 0) and native balances of accounts. */
export function decodePresence(data: Hex): {
  codeSizes: readonly bigint[]
  balances: readonly (bigint | undefined)[]
  nativeBalances: readonly bigint[]
} {
  const [codeSizes, balances, nativeBalances, read] = decodeFunctionResult({ abi: probeAbi(), functionName: 'presence', data }) as readonly [
    readonly bigint[],
    readonly bigint[],
    readonly bigint[],
    readonly boolean[],
  ]
  return { codeSizes, balances: balances.map((b, i) => (read[i] ? b : undefined)), nativeBalances }
}

/** Lock reader kinds of the probe's `locks`. */
export const LOCKER_KINDS = { 'tokenrisk-locker': 1, 'uncx-v2': 2, 'pinklock-v2': 3 } as const

export function encodeLocks(locker: Address, kind: number, lpToken: Address, max: number): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'locks', args: [locker, kind, lpToken, BigInt(max)] })
}

export function decodeLocks(data: Hex): readonly Lock[] {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'locks', data }) as readonly Lock[]
}

export interface DexQuery {
  factory: Address
  /** 2 = V2 factory (getPair), 3 = V3 factory (getPool per fee tier), 5 = Solidly factory (getPool volatile and stable). */
  kind: 2 | 3 | 5
  fees: number[]
}

/**
 * A pool and its state. Each value the pool (or its factory) is read for is undefined when that
 * read failed (the probe's read flags): unknown, never 0. The reserves are known only with token0
 * (which orders them).
 */
export interface PoolInfo {
  dex: bigint
  pool: Address
  kind: number
  /** V3 fee tier, or a Solidly pool's fee (basis points) from its factory; 0 for V2 (the DEX's fee). */
  fee: number | undefined
  quote: Address
  token0: Address | undefined
  reserveToken: bigint | undefined
  reserveQuote: bigint | undefined
  lpSupply: bigint | undefined
  sqrtPriceX96: bigint | undefined
  liquidity: bigint | undefined
}

/** Bits of the probe's PoolInfo.read: which of its values were answered. */
export const POOL_READ = { token0: 1n, reserves: 2n, lpSupply: 4n, price: 8n, liquidity: 16n, fee: 32n } as const

export function encodePools(token: Address, dexes: DexQuery[], quotes: Address[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'pools', args: [token, dexes, quotes] })
}

/** The pools the probe found, each value it could not read left undefined (`POOL_READ`). */
export function decodePools(data: Hex): readonly PoolInfo[] {
  type Raw = Omit<PoolInfo, 'fee' | 'token0' | 'reserveToken' | 'reserveQuote' | 'lpSupply' | 'sqrtPriceX96' | 'liquidity'> & {
    fee: number
    token0: Address
    reserveToken: bigint
    reserveQuote: bigint
    lpSupply: bigint
    sqrtPriceX96: bigint
    liquidity: bigint
    read: bigint
  }
  const raw = decodeFunctionResult({ abi: probeAbi(), functionName: 'pools', data }) as readonly Raw[]
  return raw.map(({ read, ...p }) => {
    const has = (bit: bigint) => (read & bit) === bit
    return {
      ...p,
      fee: has(POOL_READ.fee) ? p.fee : undefined,
      token0: has(POOL_READ.token0) ? p.token0 : undefined,
      reserveToken: has(POOL_READ.reserves) ? p.reserveToken : undefined,
      reserveQuote: has(POOL_READ.reserves) ? p.reserveQuote : undefined,
      lpSupply: has(POOL_READ.lpSupply) ? p.lpSupply : undefined,
      sqrtPriceX96: has(POOL_READ.price) ? p.sqrtPriceX96 : undefined,
      liquidity: has(POOL_READ.liquidity) ? p.liquidity : undefined,
    }
  })
}

/** What a pair the token names (or a factory answers) is. */
export interface PairCheck {
  pair: Address
  codeSize: bigint
  /** getReserves() answered. */
  isPair: boolean
  factory: Address
  token0: Address
  token1: Address
  reserve0: bigint
  reserve1: bigint
}

export interface OwnPairsRead {
  /** What each pair getter answered (pair zero: nothing usable). */
  named: readonly PairCheck[]
  /** The V2 pools of each factory against each quote (empty ones too). */
  pools: readonly PairCheck[]
  /** Per pool, a bit per flag getter that answered non-zero for it. */
  flagged: readonly bigint[]
}

export function encodeOwnPairs(token: Address, getters: Hex[], factories: Address[], quotes: Address[], flags: Hex[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'ownPairs', args: [token, getters, factories, quotes, flags] })
}

export function decodeOwnPairs(data: Hex): OwnPairsRead {
  const [named, pools, flagged] = decodeFunctionResult({ abi: probeAbi(), functionName: 'ownPairs', data }) as unknown as [PairCheck[], PairCheck[], bigint[]]
  return { named, pools, flagged }
}

/** One holder of record selling its whole balance from the real state (`holderSells`). */
export interface HolderSellResult {
  holder: Address
  /** Its balance before the sell. */
  balance: bigint
  all: Outcome
  /** Its balance after a whole sell that went through. */
  left: bigint
  /** A thousandth of the balance, sold when the whole sell failed. */
  part: Outcome
  /** The whole balance sent to the pair when the router's sell failed (the token's own reason). */
  direct: Outcome
  /** `balance` was read (else unknown, never 0; nothing was sold). */
  balanceRead: boolean
  /** `left` was read (else unknown, never 0). */
  leftRead: boolean
}

export function encodeHolderSells(token: Address, pool: ProbePool, router: Address | undefined, holders: Address[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'holderSells', args: [token, pool, router ?? NO_ROUTE.pool, holders] })
}

export function decodeHolderSells(data: Hex): { startGas: bigint; sells: readonly HolderSellResult[] } {
  const [startGas, sells] = decodeFunctionResult({ abi: probeAbi(), functionName: 'holderSells', data }) as unknown as [bigint, HolderSellResult[]]
  return { startGas, sells }
}

/** What a holder of the token answered, as the probe's `holderPools` reads it (kind 0: no pool of the token). */
export interface HolderPoolResult {
  account: Address
  /** 0: no pool of the token; 1: names the token as token0/token1 but answers no pool read; 2 V2-like; 3 V3-like; 5 / 6 Solidly-style. */
  kind: number
  other: Address
  factory: Address
  reserveToken: bigint
  reserveOther: bigint
  sqrtPriceX96: bigint
  /** The other token's decimals, when it is no quote asset and answered them (`otherDecimalsRead`). */
  otherDecimals: bigint
  otherDecimalsRead: boolean
  /** The other token's symbol() answer (bounded; '0x' when it did not answer), when it is no quote asset. */
  otherSymbol: Hex
  /** A token that is no quote asset: its deepest V2 or V3 pool against WETH, through which it is bought and priced (pool zero: none). */
  otherPool: PoolInfo
  /** The trade experiment's result (`trade`'s return), '0x' when it was not traded. */
  trade: Hex
  /** Why the trade did not run, when it was tried ('0x' otherwise). */
  err: Hex
}

/**
 * The token's holders read as pools (`holderPools`): each that is a pool of the token is traded as
 * `encodeTrade`'s trade is, V2-like pairs assumed to charge `feeBps` — against one of `quotes`
 * (obtained through `routes[i]`), or against another token bought through its deepest V2 or V3
 * pool against WETH on `dexes` (V2 fees `dexFees`, basis points).
 */
export function encodeHolderPools(p: {
  token: Address
  weth: Address
  donors: Address[]
  feeBps: number
  accounts: Address[]
  quotes: Address[]
  routes: ProbeRoute[]
  dexes: DexQuery[]
  dexFees: number[]
}): Hex {
  // Each holder that is a pool is traded with this template, its pool and route set by the probe.
  const template = tradeParams({ token: p.token, weth: p.weth, pool: { pool: NO_ROUTE.pool, kind: 2, quote: NO_ROUTE.pool, feeBps: p.feeBps }, route: NO_ROUTE, donors: p.donors })
  const scene = { quotes: p.quotes, routes: p.routes, dexes: p.dexes, dexFees: p.dexFees }
  return encodeFunctionData({ abi: probeAbi(), functionName: 'holderPools', args: [template, p.accounts, scene] })
}

export function decodeHolderPools(data: Hex): { startGas: bigint; pools: readonly HolderPoolResult[] } {
  const [startGas, pools] = decodeFunctionResult({ abi: probeAbi(), functionName: 'holderPools', data }) as unknown as [bigint, HolderPoolResult[]]
  return { startGas, pools }
}

/** The creation code run again from the probe's address (`creationBalances`): the accounts' balances it leaves. */
export function encodeCreationBalances(initCode: Hex, accounts: Address[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'creationBalances', args: [initCode, accounts] })
}

/** The creation's supply and balances; undefined where the read failed (unknown, never 0). */
export function decodeCreationBalances(data: Hex): { created: Address; supply: bigint | undefined; balances: readonly (bigint | undefined)[] } {
  const [created, supply, balances, supplyRead, read] = decodeFunctionResult({ abi: probeAbi(), functionName: 'creationBalances', data }) as unknown as [
    Address,
    bigint,
    bigint[],
    boolean,
    boolean[],
  ]
  return { created, supply: supplyRead ? supply : undefined, balances: balances.map((b, i) => (read[i] ? b : undefined)) }
}

export interface ReadCall {
  target: Address
  data: Hex
}

export interface ReadResult {
  success: boolean
  returnData: Hex
}

/** View reads of any contracts in one probe call (bounded gas and return data per read). */
export function encodeReads(calls: ReadCall[]): Hex {
  return encodeFunctionData({ abi: probeAbi(), functionName: 'reads', args: [calls] })
}

export function decodeReads(data: Hex): readonly ReadResult[] {
  return decodeFunctionResult({ abi: probeAbi(), functionName: 'reads', data }) as readonly ReadResult[]
}

/** What the simulation runs: a name for messages, the calldata, and the accounts given probe code. */
export interface ProbeCall {
  /** Short name of what is simulated, for messages ("trade", "owner powers", "pool discovery"...). */
  what: string
  data: Hex
  gas: bigint
  block: BlockRef
  /** Addresses that act through probe code (wallets, holders, candidates); the main probe always does. */
  actors?: Address[]
  /** Further state overrides (a token's storage set for a precondition). */
  state?: StateOverride
  /** The pool the call trades through, when it needs state of its own (a V4 pool's key). */
  pool?: ProbePool
}

/**
 * Runs one `eth_call` of the probe with its state overrides and returns its raw answer. The probe
 * never reverts at its top level (every experiment is isolated and every token call bounded), so
 * any error the node answers (whatever its code or wording, "execution reverted" included), an
 * empty answer (the node ignored the state overrides) or an answer that cannot be decoded is a
 * failure of the node, never the token's behaviour: it throws `SimulationError`.
 *
 * @example
 * const raw = await callProbe(rpc, { what: 'trade', data: encodeTrade(p), gas: 30_000_000n, block, actors })
 * const result = decodeProbe('trade', raw, decodeTrade)
 */
export async function callProbe(rpc: RpcSession, call: ProbeCall): Promise<Hex> {
  if (rpc.capabilities?.stateOverride === 'no') return callWithoutOverrides(rpc, call)
  let raw: Hex
  try {
    const evm = rpc.capabilities?.evm.version
    const override = isReaderCall(call.data) && !call.actors?.length ? readerOverride(evm) : probeOverride(call.actors ?? [], evm)
    raw = await ethCall(rpc, { to: PROBE_ADDRESSES.main, data: call.data, gas: call.gas }, call.block, { ...poolState(call.pool), ...override, ...call.state })
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    // The node refuses state overrides (learned by this very call): the no-override path, as if detected.
    if (error.overridesRefused) return callWithoutOverrides(rpc, call)
    throw new SimulationError(`the node failed the ${call.what} simulation (eth_call with state overrides): ${error.message.slice(0, 200)}`, {
      cause: error,
    })
  }
  if (raw === '0x') {
    throw new SimulationError(`the node answered nothing to the ${call.what} simulation: it ignored the state overrides (tokenrisk needs eth_call state overrides)`)
  }
  return raw
}

/**
 * A probe call on a node that refuses state overrides: the readers run as a creation call
 * (`runnerCode`); anything else needs the probe's code at chosen addresses and cannot run
 * (`OverridesRefusedError`, never retried).
 */
async function callWithoutOverrides(rpc: RpcSession, call: ProbeCall): Promise<Hex> {
  if (!isReaderCall(call.data) || call.actors?.length || call.state) throw new OverridesRefusedError(call.what)
  let raw: Hex
  try {
    raw = await rpc.request<Hex>('eth_call', [{ data: runnerCode(buildFor(rpc.capabilities?.evm.version).readerBytecode, call.data), gas: `0x${call.gas.toString(16)}` }, call.block])
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    throw new SimulationError(`the node failed the ${call.what} (a creation call running tokenrisk's readers): ${error.message.slice(0, 200)}`, { cause: error })
  }
  if (raw === '0x') throw new SimulationError(`the node answered nothing to the ${call.what} (a creation call running tokenrisk's readers)`)
  return raw
}

/** Decodes a probe answer; an answer that is not one is a failure of the node (`SimulationError`). */
export function decodeProbe<T>(what: string, raw: Hex, decode: (raw: Hex) => T): T {
  try {
    return decode(raw)
  } catch (error) {
    throw new SimulationError(`the node's answer to the ${what} simulation is not one (${(error as Error).message.split('\n')[0].slice(0, 120)})`, { cause: error })
  }
}

/** Share of the asked gas below which a probe's start shows that the node capped it. */
const GAS_CAP_TOLERANCE = 1_000_000n

/** Probe reasons of an experiment that did not run, or did not finish, for lack of gas. */
export function isStarved(err: Hex): boolean {
  const reason = decodeRevert(err)
  return isProbeReason(reason) && /gas budget exhausted|ran out of gas/.test(reason)
}

/**
 * Whether the node capped the gas of a probe call below what was asked, and an experiment went
 * short of gas because of it: the simulation then says nothing about the token (SimulationError).
 */
export function assertGasNotCapped(what: string, asked: bigint, startGas: bigint, starved: boolean): void {
  if (starved && startGas + GAS_CAP_TOLERANCE < asked) {
    throw new SimulationError(`the node caps eth_call gas at about ${startGas} (asked ${asked}): too little to run the ${what} simulation`)
  }
}
