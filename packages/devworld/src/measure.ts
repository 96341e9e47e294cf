import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, getAddress, hexToString, keccak256, parseAbi, stringToBytes, toHex } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { erc20Abi } from './erc20-abi.ts'
import { loadArtifact } from './compile.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS, type EvmCheckName } from 'tokenrisk/contract/checks'
import { FOUR_MEME, LAUNCHPAD, MULTICALL3_ADDRESS, PANCAKE_V3_FEE, SLIPSTREAM_FEE, SLIPSTREAM_TICK_SPACING, V3_FEE } from './dex.ts'
import { fullRangeAmounts, quoteAddress, v4PoolId, v4PoolKey, v4StateSlot, ZERO_ADDRESS as NO_HOOK } from './venues.ts'
import { loadDexArtifact } from './dex-artifacts.ts'
import type {
  DevnetManifest,
  ManifestHolder,
  ManifestLiquidity,
  ManifestPool,
  ManifestToken,
} from './manifest.ts'
import { DevnetError, RpcRequestError, type DevnetRpc } from './rpc.ts'
import { DEAD_ADDRESS } from './accounts.ts'
import type { BuiltToken, BuiltWorld } from './world-build.ts'
import { ZOO, type ZooPoolSpec } from './zoo.ts'

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'
/** Places of the percentages in the manifest. */
export const PERCENT_PLACES = 6
/** Places of USD amounts (liquidity) and of prices. */
export const USD_PLACES = 2
export const PRICE_PLACES = 18

const TRANSFER_TOPIC = keccak256(stringToBytes('Transfer(address,address,uint256)'))
const V2_SWAP_TOPIC = keccak256(stringToBytes('Swap(address,uint256,uint256,uint256,uint256,address)'))
const V3_SWAP_TOPIC = keccak256(stringToBytes('Swap(address,address,int256,int256,uint160,uint128,int24)'))
const PANCAKE_V3_SWAP_TOPIC = keccak256(stringToBytes('Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)'))
const SOLIDLY_SWAP_TOPIC = keccak256(stringToBytes('Swap(address,address,uint256,uint256,uint256,uint256)'))
const V4_SWAP_TOPIC = keccak256(stringToBytes('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)'))
const LAUNCHPAD_TRADE_TOPIC = keccak256(stringToBytes('Trade(address,address,address,bool,uint256,uint256,uint256,uint256,uint256)'))
const FOUR_MEME_PURCHASE_TOPIC = keccak256(stringToBytes('TokenPurchase(address,address,uint256,uint256,uint256,uint256,uint256,uint256)'))
/** The event each pool type emits on a swap. */
const SWAP_TOPICS: Record<ZooPoolSpec['type'], Hex> = {
  'uniswap-v2': V2_SWAP_TOPIC,
  'uniswap-v3': V3_SWAP_TOPIC,
  'pancake-v3': PANCAKE_V3_SWAP_TOPIC,
  'uniswap-v4': V4_SWAP_TOPIC,
  'solidly-volatile': SOLIDLY_SWAP_TOPIC,
  'solidly-stable': SOLIDLY_SWAP_TOPIC,
  slipstream: V3_SWAP_TOPIC,
  launchpad: LAUNCHPAD_TRADE_TOPIC,
  'unlisted-v2': V2_SWAP_TOPIC,
  'four-meme': FOUR_MEME_PURCHASE_TOPIC,
}
/** The name of each pool type's exchange in the world (and in the local chain entry). */
export const DEX_NAMES: Record<ZooPoolSpec['type'], string> = {
  'uniswap-v2': 'Uniswap V2',
  'uniswap-v3': 'Uniswap V3',
  'pancake-v3': 'PancakeSwap V3',
  'uniswap-v4': 'Uniswap V4',
  'solidly-volatile': 'Aerodrome',
  'solidly-stable': 'Aerodrome',
  slipstream: 'Aerodrome Slipstream',
  launchpad: 'tokenrisk Launchpad',
  // With its factory's address after it, as reports name an exchange the chain entry does not list.
  'unlisted-v2': 'unlisted V2 exchange',
  'four-meme': 'four.meme-interface Launchpad',
}
/** EIP-1967 slots: implementation and admin. */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const ADMIN_SLOT = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103'
/** EIP-1167 runtime code around the 20-byte target. */
const CLONE_PREFIX = '0x363d3d373d3d3d363d73'
const CLONE_SUFFIX = '5af43d82803e903d91602b57fd5bf3'
const DAY = 86_400

const metaAbi = parseAbi([
  'function owner() view returns (address)',
  'function getOwner() view returns (address)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
])
const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
])
const v3PoolAbi = parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)'])

/** A rational number, to keep prices exact until they are written. */
interface Ratio {
  num: bigint
  den: bigint
}

/** `num / den` as a decimal string rounded half up to `places`, trailing zeros trimmed. */
export function formatRatio(num: bigint, den: bigint, places: number): string {
  if (den === 0n) throw new DevnetError('division by zero while measuring the world')
  const negative = num < 0n !== den < 0n && num !== 0n
  const n = num < 0n ? -num : num
  const d = den < 0n ? -den : den
  const scale = 10n ** BigInt(places)
  const scaled = (n * scale * 2n + d) / (2n * d)
  const whole = scaled / scale
  let fraction = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '')
  if (places === 0) fraction = ''
  const text = fraction ? `${whole}.${fraction}` : `${whole}`
  return negative && text !== '0' ? `-${text}` : text
}

function percent(part: bigint, whole: bigint): string {
  return whole === 0n ? '0' : formatRatio(part * 100n, whole, PERCENT_PLACES)
}

interface LogEntry {
  topics: Hex[]
  blockNumber: Hex
  data: Hex
}

const multicallAbi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])

/** Reads from the chain at one block: many calls go through Multicall3 in one eth_call. */
function createReader(rpc: DevnetRpc, block: Hex) {
  /** Calls through Multicall3's aggregate3; a call that reverts gives null. */
  async function tryCalls(calls: readonly { to: Address; data: Hex }[]): Promise<(Hex | null)[]> {
    if (calls.length === 0) return []
    const data = encodeFunctionData({
      abi: multicallAbi,
      functionName: 'aggregate3',
      args: [calls.map((c) => ({ target: c.to, allowFailure: true, callData: c.data }))],
    })
    const raw = await rpc.request<Hex>('eth_call', [{ to: MULTICALL3_ADDRESS, data }, block])
    const results = decodeFunctionResult({ abi: multicallAbi, functionName: 'aggregate3', data: raw })
    return results.map((r) => (r.success ? r.returnData : null))
  }

  async function calls(list: readonly { to: Address; data: Hex }[]): Promise<Hex[]> {
    const results = await tryCalls(list)
    return results.map((r, i) => {
      if (r === null) throw new DevnetError(`a read of ${list[i].to} reverted while measuring the world`)
      return r
    })
  }

  async function balances(token: Address, holders: readonly Address[]): Promise<bigint[]> {
    const results = await calls(holders.map((h) => ({ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [h] }) })))
    return results.map((r) => BigInt(r))
  }

  async function codes(addresses: readonly Address[]): Promise<Hex[]> {
    return rpc.batch<Hex>(addresses.map((a) => ({ method: 'eth_getCode', params: [a, block] })))
  }

  // Every Transfer and Swap event of the chain, fetched once and indexed by emitter.
  let indexed: Promise<Map<string, LogEntry[]>> | undefined
  async function logs(address: Address, topic: Hex): Promise<LogEntry[]> {
    indexed ??= (async () => {
      const all = await rpc.request<(LogEntry & { address: Address })[]>('eth_getLogs', [
        { topics: [[TRANSFER_TOPIC, V2_SWAP_TOPIC, V3_SWAP_TOPIC]], fromBlock: '0x0', toBlock: block },
      ])
      const byKey = new Map<string, LogEntry[]>()
      for (const log of all) {
        const key = `${log.address.toLowerCase()}:${log.topics[0]}`
        const list = byKey.get(key)
        if (list) list.push(log)
        else byKey.set(key, [log])
      }
      return byKey
    })()
    return (await indexed).get(`${address.toLowerCase()}:${topic}`) ?? []
  }

  async function read<T>(to: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): Promise<T> {
    const data = encodeFunctionData({ abi, functionName, args: args as unknown[] })
    const result = await rpc.request<Hex>('eth_call', [{ to, data }, block])
    return decodeFunctionResult({ abi, functionName, data: result }) as T
  }

  async function storage(address: Address, slot: Hex): Promise<Hex> {
    return rpc.request<Hex>('eth_getStorageAt', [address, slot, block])
  }

  return { tryCalls, balances, codes, logs, read, storage }
}

type Reader = ReturnType<typeof createReader>

function topicAddress(topic: Hex): Address {
  return getAddress(`0x${topic.slice(-40)}`)
}

/** A string from `name()`/`symbol()`, whether the token returns string or bytes32. */
function decodeText(data: Hex | null): string {
  if (!data || data === '0x') return ''
  try {
    return decodeAbiParameters([{ type: 'string' }], data)[0]
  } catch {
    if (data.length === 66) return hexToString(data as Hex, { size: 32 }).replace(/\0+$/, '')
    return ''
  }
}

function decodeAddress(data: Hex | null): Address | null {
  if (!data || data.length !== 66) return null
  return getAddress(`0x${data.slice(-40)}`)
}

/**
 * Every address with a non-zero balance of `token` at the reader's block, largest first (ties
 * by address). Candidates are every address of its Transfer events plus `extra`.
 */
async function holdersOf(
  reader: Reader,
  token: Address,
  extra: readonly Address[],
  lockedAddresses: ReadonlySet<string>,
): Promise<{ holders: ManifestHolder[]; zeroBalance: bigint }> {
  const logs = await reader.logs(token, TRANSFER_TOPIC)
  const candidates = new Set<Address>(extra)
  for (const log of logs) {
    if (log.topics.length < 3) continue
    candidates.add(topicAddress(log.topics[1]))
    candidates.add(topicAddress(log.topics[2]))
  }
  const list = [...candidates]
  const balances = await reader.balances(token, list)
  const zeroIndex = list.indexOf(ZERO_ADDRESS)
  const zeroBalance = zeroIndex >= 0 ? balances[zeroIndex] : 0n
  const positive = list
    .map((address, i) => ({ address, balance: balances[i] }))
    .filter((h) => h.balance > 0n && h.address !== ZERO_ADDRESS)
    .sort((a, b) => (a.balance === b.balance ? (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1) : a.balance > b.balance ? -1 : 1))
  const codes = await reader.codes(positive.map((h) => h.address))
  return {
    holders: positive.map((h, i) => ({
      address: h.address,
      balance: h.balance.toString(),
      isContract: codes[i] !== '0x',
      isLocked: lockedAddresses.has(h.address.toLowerCase()),
    })),
    zeroBalance,
  }
}

/**
 * The manifest with every token's expected checks taken from the zoo's table as it is now: they
 * are decided by design, not measured, so a saved world needs no rebuild when the checks change.
 */
export function withExpectedChecks(manifest: DevnetManifest): DevnetManifest {
  return {
    ...manifest,
    tokens: manifest.tokens.map((t) => {
      const spec = ZOO.find((z) => z.key === t.key)
      return spec ? { ...t, codeChecks: expectedChecks(spec.risky, spec.undetermined), criticalChecks: [...(spec.critical ?? [])] } : t
    }),
  }
}

function expectedChecks(risky: readonly EvmCheckName[], undetermined: readonly EvmCheckName[] = []): Record<EvmCheckName, '0' | '1' | ''> {
  const all = [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]
  return Object.fromEntries(all.map((name) => [name, risky.includes(name) ? '1' : undetermined.includes(name) ? '' : '0'])) as Record<EvmCheckName, '0' | '1' | ''>
}

/**
 * The manifest of a built world, measured on the chain at its latest block: names, supplies,
 * owners, creators, holders, pools, reserves, prices, LP locks. What the table of the zoo
 * decides by design (behaviours, expected checks, taxes, honeypot reasons) comes from it.
 */
export async function measureWorld(rpc: DevnetRpc, world: BuiltWorld): Promise<DevnetManifest> {
  const latest = await rpc.request<{ number: Hex; timestamp: Hex }>('eth_getBlockByNumber', ['latest', false])
  const block = latest.number
  const readyBlock = Number(BigInt(block))
  const readyTimestamp = Number(BigInt(latest.timestamp))
  const reader = createReader(rpc, block)
  const { dex, accounts } = world
  const burnAddresses: Address[] = [ZERO_ADDRESS, getAddress(DEAD_ADDRESS)]
  const lockedAddresses = new Set([world.locker, ...burnAddresses].map((a) => a.toLowerCase()))

  // Ether's price, from the WETH/USD pool.
  const ethUsd = await wethUsdPrice(reader, dex.wethUsdPair, dex.weth)
  const quoteUsd = (quote: Address): Ratio => (quote === dex.usd ? { num: 1n, den: 1n } : ethUsd)
  const quoteDecimals = (quote: Address): number => (quote === dex.usd ? 6 : 18)

  // The zoo's tokens by key (pools against another zoo token), and such a token's USD price from its WETH pair.
  const zooCtx = { dex, accounts, feeSink: world.feeSink, tokens: new Map(world.tokens.map((t) => [t.spec.key, t.address])) }
  const zooTokenUsd = async (token: Address): Promise<Ratio> => {
    const pair = getAddress(await reader.read<Address>(dex.v2Factory, loadDexArtifact('UniswapV2Factory').abi, 'getPair', [token, dex.weth]))
    const [r0, r1] = await reader.read<readonly [bigint, bigint, number]>(pair, pairAbi, 'getReserves')
    const [rToken, rWeth] = BigInt(token) < BigInt(dex.weth) ? [r0, r1] : [r1, r0]
    // USD per whole token (both have 18 decimals): WETH per token × USD per WETH.
    return { num: rWeth * ethUsd.num, den: rToken * ethUsd.den }
  }

  const swapBlockTimes = new Map<string, number>()
  const knownAccounts: Address[] = [
    accounts.deployer,
    accounts.hiddenAdmin,
    accounts.feeWallet,
    accounts.lpProvider,
    ...accounts.traders,
    ...accounts.receivers,
    world.locker,
    world.feeSink,
    ...burnAddresses,
  ]

  // Tokens are measured side by side (each one's reads are independent of the others').
  const tokens = await Promise.all(world.tokens.map((built) => measureToken(built)))

  return {
    version: 1,
    chainId: Number(BigInt(await rpc.request<Hex>('eth_chainId'))),
    rpcUrl: rpc.url,
    readyBlock,
    readyTimestamp,
    deployer: accounts.deployer,
    contracts: {
      weth: dex.weth,
      usd: dex.usd,
      multicall3: dex.multicall3,
      v2Factory: dex.v2Factory,
      v2Router: dex.v2Router,
      v3Factory: dex.v3Factory,
      v3Quoter: dex.v3Quoter,
      v3SwapRouter: dex.v3SwapRouter,
      v3PositionManager: dex.v3PositionManager,
      pancakeV3Factory: dex.pancakeV3Factory,
      pancakeV3PoolDeployer: dex.pancakeV3PoolDeployer,
      v4PoolManager: dex.v4PoolManager,
      solidlyFactory: dex.solidlyFactory,
      slipstreamFactory: dex.slipstreamFactory,
      launchpad: dex.launchpad,
      unlistedV2Factory: dex.unlistedV2Factory,
      fourMemeManager: dex.fourMemeManager,
      fourMemeHelper: dex.fourMemeHelper,
      locker: world.locker,
      wethUsdPair: dex.wethUsdPair,
      feeCollector: world.feeSink,
    },
    burnAddresses,
    ethUsd: formatRatio(ethUsd.num, ethUsd.den, USD_PLACES),
    accounts: {
      deployer: accounts.deployer,
      hiddenAdmin: accounts.hiddenAdmin,
      feeWallet: accounts.feeWallet,
      lpProvider: accounts.lpProvider,
      traders: accounts.traders,
      receivers: accounts.receivers,
    },
    tokens,
  }

  async function measureToken(built: BuiltToken): Promise<ManifestToken> {
    const { spec, address } = built
    const [nameData, symbolData, decimalsData, supplyData, ownerData, getOwnerData] = await reader.tryCalls([
      { to: address, data: encodeFunctionData({ abi: metaAbi, functionName: 'name' }) },
      { to: address, data: encodeFunctionData({ abi: metaAbi, functionName: 'symbol' }) },
      { to: address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
      { to: address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' }) },
      { to: address, data: encodeFunctionData({ abi: metaAbi, functionName: 'owner' }) },
      { to: address, data: encodeFunctionData({ abi: metaAbi, functionName: 'getOwner' }) },
    ])
    if (decimalsData === null || supplyData === null) throw new DevnetError(`${spec.key} does not answer decimals()/totalSupply()`)
    const decimals = Number(BigInt(decimalsData))
    const owner = decodeAddress(ownerData) ?? decodeAddress(getOwnerData) ?? ''

    // Creation, from the transaction that made it.
    const [tx, receipt] = await rpc.batch<{ from: Address; blockNumber: Hex; contractAddress?: Address | null }>([
      { method: 'eth_getTransactionByHash', params: [built.creation.hash] },
      { method: 'eth_getTransactionReceipt', params: [built.creation.hash] },
    ])
    if (!receipt.contractAddress || getAddress(receipt.contractAddress) !== address) {
      throw new DevnetError(`creation transaction of ${spec.key} did not create ${address}`)
    }

    const token: ManifestToken = {
      key: spec.key,
      twin: spec.twin,
      name: decodeText(nameData),
      symbol: decodeText(symbolData),
      decimals,
      address,
      behaviours: [...spec.behaviours],
      owner,
      creator: getAddress(tx.from),
      creationBlock: Number(BigInt(receipt.blockNumber)),
      totalSupply: BigInt(supplyData).toString(),
      codeChecks: expectedChecks(spec.risky, spec.undetermined),
      criticalChecks: [...(spec.critical ?? [])],
      pools: [],
      holders: { count: 0, top: [] },
      notes: spec.notes,
    }
    await measureProxy(token)
    if (built.implementation && token.implementation !== built.implementation) {
      throw new DevnetError(`${spec.key} delegates to ${token.implementation ?? 'nothing'}, not to its logic ${built.implementation}`)
    }
    if (spec.behaviours.includes('hidden-owner')) token.hiddenOwner = await hiddenMinter(address)

    const poolAddresses: Address[] = []
    for (const poolSpec of spec.pools) {
      const pool = await measurePool(address, decimals, poolSpec)
      token.pools.push(pool)
      poolAddresses.push(pool.pairAddress)
    }
    const { holders } = await holdersOf(reader, address, [...knownAccounts, ...poolAddresses], lockedAddresses)
    token.holders = { count: holders.length, top: holders }

    const main = token.pools.find((p) => p.type === 'uniswap-v2' || p.type === 'solidly-volatile' || p.type === 'solidly-stable')
    if (main) token.liquidity = await measureLiquidity(main.pairAddress)
    return token
  }

  async function measureProxy(token: ManifestToken): Promise<void> {
    const [code] = await reader.codes([token.address])
    const clone = code.toLowerCase()
    if (clone.startsWith(CLONE_PREFIX) && clone.endsWith(CLONE_SUFFIX) && clone.length === CLONE_PREFIX.length + 40 + CLONE_SUFFIX.length) {
      token.implementation = getAddress(`0x${clone.slice(CLONE_PREFIX.length, CLONE_PREFIX.length + 40)}`)
      token.upgradeable = false
      return
    }
    const implementation = decodeAddress(await reader.storage(token.address, IMPLEMENTATION_SLOT))
    if (!implementation || implementation === ZERO_ADDRESS) return
    token.implementation = implementation
    token.upgradeable = true
    const admin = decodeAddress(await reader.storage(token.address, ADMIN_SLOT))
    if (admin && admin !== ZERO_ADDRESS) {
      token.proxyAdmin = admin
      const adminOwner = decodeAddress((await reader.tryCalls([{ to: admin, data: encodeFunctionData({ abi: metaAbi, functionName: 'owner' }) }]))[0])
      if (adminOwner) token.proxyAdminOwner = adminOwner
    }
  }

  /** Which world account can still mint the hidden-owner token: simulated, one candidate at a time. */
  async function hiddenMinter(token: Address): Promise<Address> {
    const abi = loadArtifact('ZooHiddenOwner').abi as Abi
    const candidates = [accounts.deployer, accounts.hiddenAdmin, ...accounts.traders]
    for (const from of candidates) {
      const data = encodeFunctionData({ abi, functionName: 'mint', args: [from, 1n] })
      try {
        await rpc.request('eth_call', [{ from, to: token, data }, block])
        return from
      } catch (error) {
        if (!(error instanceof RpcRequestError)) throw error
      }
    }
    throw new DevnetError('no world account can mint the hidden-owner token')
  }

  async function swapCounts(pairAddress: Address, topic: Hex): Promise<{ total: number; last24h: number }> {
    const logs = await reader.logs(pairAddress, topic)
    const missing = [...new Set(logs.map((l) => l.blockNumber))].filter((b) => !swapBlockTimes.has(b))
    const blocks = await rpc.batch<{ timestamp: Hex }>(missing.map((b) => ({ method: 'eth_getBlockByNumber', params: [b, false] })))
    missing.forEach((b, i) => swapBlockTimes.set(b, Number(BigInt(blocks[i].timestamp))))
    const since = readyTimestamp - DAY
    return { total: logs.length, last24h: logs.filter((l) => (swapBlockTimes.get(l.blockNumber) ?? 0) > since).length }
  }

  async function measurePool(token: Address, decimals: number, spec: ZooPoolSpec): Promise<ManifestPool> {
    const quote = quoteAddress(zooCtx, spec)
    const qUsd = spec.quote === 'ZOO' ? await zooTokenUsd(quote) : quoteUsd(quote)
    const qDecimals = quoteDecimals(quote)
    const tokenScale = 10n ** BigInt(decimals)
    const quoteScale = 10n ** BigInt(qDecimals)
    let pairAddress: Address
    let tokenAmount: bigint
    let quoteAmount: bigint
    /** Quote units (raw) per token unit (raw). */
    let rawPrice: Ratio
    let fee: number | undefined
    let hook: Address | undefined
    let curve: ManifestPool['curve']
    if (spec.type === 'uniswap-v4') {
      // A V4 pool has no address of its own: the PoolManager holds it, found by its key.
      const key = v4PoolKey(zooCtx, spec, token)
      fee = key.fee
      if (key.hooks !== NO_HOOK) hook = key.hooks
      const slot = v4StateSlot(v4PoolId(key))
      const [slot0, liquidity] = await Promise.all([reader.storage(dex.v4PoolManager, toHex(slot, { size: 32 })), reader.storage(dex.v4PoolManager, toHex(slot + 3n, { size: 32 }))])
      const sqrtPriceX96 = BigInt(slot0) & ((1n << 160n) - 1n)
      if (sqrtPriceX96 === 0n) throw new DevnetError(`no V4 pool for ${token} against ${spec.quote}`)
      const amounts = fullRangeAmounts(sqrtPriceX96, BigInt(liquidity) & ((1n << 128n) - 1n))
      const tokenIsZero = key.currency0 === token
      ;[tokenAmount, quoteAmount] = tokenIsZero ? [amounts.amount0, amounts.amount1] : [amounts.amount1, amounts.amount0]
      const squared = sqrtPriceX96 * sqrtPriceX96
      rawPrice = tokenIsZero ? { num: squared, den: 1n << 192n } : { num: 1n << 192n, den: squared }
      pairAddress = dex.v4PoolManager
    } else if (spec.type === 'solidly-volatile' || spec.type === 'solidly-stable') {
      const stable = spec.type === 'solidly-stable'
      pairAddress = getAddress(await reader.read<Address>(dex.solidlyFactory, loadArtifact('WorldSolidlyFactory').abi as Abi, 'getPool', [token, quote, stable]))
      const [r0, r1] = await reader.read<readonly [bigint, bigint, bigint]>(pairAddress, loadArtifact('WorldSolidlyPool').abi as Abi, 'getReserves')
      const tokenIsZero = BigInt(token) < BigInt(quote)
      ;[tokenAmount, quoteAmount] = tokenIsZero ? [r0, r1] : [r1, r0]
      fee = stable ? 5 : 30
      if (!stable) rawPrice = { num: quoteAmount, den: tokenAmount }
      else {
        // The stable curve's spot price, on amounts scaled to 18 decimals: (3x²y + y³) / (x³ + 3y²x).
        const x = (tokenAmount * 10n ** 18n) / 10n ** BigInt(decimals)
        const y = (quoteAmount * 10n ** 18n) / 10n ** BigInt(qDecimals)
        rawPrice = { num: (3n * x * x * y + y * y * y) * 10n ** BigInt(qDecimals), den: (x * x * x + 3n * y * y * x) * 10n ** BigInt(decimals) }
      }
    } else if (spec.type === 'launchpad') {
      // A curve has no address of its own: the launchpad holds every token's curve.
      pairAddress = dex.launchpad
      const launchpadAbi = loadArtifact('WorldLaunchpad').abi as Abi
      const [tokenReserve, nativeReserve, virtualNative] = await reader.read<readonly [bigint, bigint, bigint, Address, boolean]>(pairAddress, launchpadAbi, 'curves', [token])
      if (tokenReserve === 0n) throw new DevnetError(`no launchpad curve for ${token}`)
      ;[tokenAmount, quoteAmount] = [tokenReserve, nativeReserve]
      // x·y = k on the tokens and the raised ether plus the virtual reserve.
      rawPrice = { num: virtualNative + nativeReserve, den: tokenReserve }
      fee = Number(LAUNCHPAD.feeBps)
      curve = { raisedWei: nativeReserve.toString(), targetWei: (await reader.read<bigint>(pairAddress, launchpadAbi, 'graduationTarget')).toString() }
    } else if (spec.type === 'four-meme') {
      // The manager holds every token's curve; its own view of the curve (not the helper the report reads).
      pairAddress = dex.fourMemeManager
      const managerAbi = loadArtifact('WorldFourMemeManager').abi as Abi
      const c = await reader.read<{ offers: bigint; funds: bigint; creator: Address }>(pairAddress, managerAbi, 'curveOf', [token])
      if (c.offers === 0n) throw new DevnetError(`no four.meme-interface curve for ${token}`)
      ;[tokenAmount, quoteAmount] = [c.offers, c.funds]
      // x·y = k on the tokens on offer and the raised ether plus the virtual reserve.
      rawPrice = { num: FOUR_MEME.virtualFunds + c.funds, den: c.offers }
      fee = Number(FOUR_MEME.tradingFeeRate)
      curve = { raisedWei: c.funds.toString(), targetWei: FOUR_MEME.maxFunds.toString() }
    } else if (spec.type === 'uniswap-v2' || spec.type === 'unlisted-v2') {
      pairAddress = getAddress(await reader.read<Address>(spec.type === 'unlisted-v2' ? dex.unlistedV2Factory : dex.v2Factory, loadDexArtifact('UniswapV2Factory').abi, 'getPair', [token, quote]))
      const [r0, r1] = await reader.read<readonly [bigint, bigint, number]>(pairAddress, pairAbi, 'getReserves')
      const tokenIsZero = BigInt(token) < BigInt(quote)
      ;[tokenAmount, quoteAmount] = tokenIsZero ? [r0, r1] : [r1, r0]
      rawPrice = { num: quoteAmount, den: tokenAmount }
    } else {
      const pancake = spec.type === 'pancake-v3'
      const slipstream = spec.type === 'slipstream'
      fee = pancake ? PANCAKE_V3_FEE : slipstream ? SLIPSTREAM_FEE : V3_FEE
      pairAddress = pancake
        ? getAddress(await reader.read<Address>(dex.pancakeV3Factory, loadDexArtifact('PancakeV3Factory').abi, 'getPool', [token, quote, PANCAKE_V3_FEE]))
        : slipstream
          ? getAddress(await reader.read<Address>(dex.slipstreamFactory, loadArtifact('WorldSlipstreamFactory').abi as Abi, 'getPool', [token, quote, SLIPSTREAM_TICK_SPACING]))
          : getAddress(await reader.read<Address>(dex.v3Factory, loadDexArtifact('UniswapV3Factory').abi, 'getPool', [token, quote, V3_FEE]))
      const [sqrtPriceX96] = await reader.read<readonly [bigint]>(pairAddress, v3PoolAbi, 'slot0')
      ;[tokenAmount] = await reader.balances(token, [pairAddress])
      ;[quoteAmount] = await reader.balances(quote, [pairAddress])
      const tokenIsZero = BigInt(token) < BigInt(quote)
      const squared = sqrtPriceX96 * sqrtPriceX96
      // slot0 price is token1 per token0 (raw) = sqrtPrice² / 2^192.
      rawPrice = tokenIsZero ? { num: squared, den: 1n << 192n } : { num: 1n << 192n, den: squared }
    }
    if (pairAddress === ZERO_ADDRESS) throw new DevnetError(`no ${spec.type} pool for ${token} against ${spec.quote}`)
    const [token0, token1] =
      spec.type === 'uniswap-v4' || spec.type === 'launchpad' || spec.type === 'four-meme'
        ? BigInt(token) < BigInt(quote)
          ? [token, quote]
          : [quote, token]
        : await Promise.all([reader.read<Address>(pairAddress, pairAbi, 'token0'), reader.read<Address>(pairAddress, pairAbi, 'token1')])
    // USD per whole token = rawPrice × 10^tokenDecimals / 10^quoteDecimals × quoteUsd.
    const price: Ratio = { num: rawPrice.num * tokenScale * qUsd.num, den: rawPrice.den * quoteScale * qUsd.den }
    // Quote side in USD, and the token side at this pool's price.
    const quoteSide: Ratio = { num: quoteAmount * qUsd.num, den: quoteScale * qUsd.den }
    const tokenSide: Ratio = { num: tokenAmount * price.num, den: tokenScale * price.den }
    const liquidity: Ratio = { num: quoteSide.num * tokenSide.den + tokenSide.num * quoteSide.den, den: quoteSide.den * tokenSide.den }
    const pool: ManifestPool = {
      dex: spec.type === 'unlisted-v2' ? `${DEX_NAMES[spec.type]} (factory ${getAddress(dex.unlistedV2Factory)})` : DEX_NAMES[spec.type],
      type: spec.type,
      pairAddress,
      pair: [getAddress(token0), getAddress(token1)],
      quoteToken: quote,
      quoteSymbol: spec.quote === 'ZOO' ? (ZOO.find((z) => z.key === spec.quoteToken)?.symbol ?? '') : spec.quote,
      buyTax: spec.buyTax,
      sellTax: spec.sellTax,
      transferTax: spec.transferTax,
      isPairHoneypot: spec.honeypotReason ? '1' : '0',
      honeypotReason: spec.honeypotReason,
      liquidityUsd: formatRatio(liquidity.num, liquidity.den, USD_PLACES),
      priceUsd: formatRatio(price.num, price.den, PRICE_PLACES),
      swaps: await swapCounts(pairAddress, SWAP_TOPICS[spec.type]),
    }
    if (fee !== undefined) pool.fee = fee
    if (hook) pool.hook = hook
    if (curve) pool.curve = curve
    return pool
  }

  async function measureLiquidity(pairAddress: Address): Promise<ManifestLiquidity> {
    const total = await reader.read<bigint>(pairAddress, erc20Abi, 'totalSupply')
    const { holders, zeroBalance } = await holdersOf(reader, pairAddress, [...knownAccounts, ZERO_ADDRESS], lockedAddresses)
    const lockerAbi = loadArtifact('LpLocker').abi as Abi
    const count = await reader.read<bigint>(world.locker, lockerAbi, 'lockCount', [pairAddress])
    const unlocks: { unlockTime: number; amount: bigint }[] = []
    for (let i = 0n; i < count; i++) {
      const [, amount, unlockTime, withdrawn] = await reader.read<readonly [Address, bigint, bigint, boolean]>(world.locker, lockerAbi, 'lockAt', [
        pairAddress,
        i,
      ])
      if (!withdrawn) unlocks.push({ unlockTime: Number(unlockTime), amount })
    }
    unlocks.sort((a, b) => a.unlockTime - b.unlockTime)
    const locked = unlocks.reduce((sum, u) => sum + u.amount, 0n)
    const dead = holders.find((h) => h.address.toLowerCase() === DEAD_ADDRESS.toLowerCase())
    const burned = zeroBalance + (dead ? BigInt(dead.balance) : 0n)
    return {
      pairAddress,
      totalLpSupply: total.toString(),
      lockedPercent: percent(locked, total),
      burnedPercent: percent(burned, total),
      unlocks: unlocks.map((u) => ({ unlockTime: u.unlockTime, amount: u.amount.toString() })),
      holders,
    }
  }
}

async function wethUsdPrice(reader: Reader, pair: Address, weth: Address): Promise<Ratio> {
  const [r0, r1] = await reader.read<readonly [bigint, bigint, number]>(pair, pairAbi, 'getReserves')
  const token0 = getAddress(await reader.read<Address>(pair, pairAbi, 'token0'))
  const [wethReserve, usdReserve] = token0 === weth ? [r0, r1] : [r1, r0]
  // USD per ether = (usd / 10^6) / (weth / 10^18).
  return { num: usdReserve * 10n ** 18n, den: wethReserve * 10n ** 6n }
}
