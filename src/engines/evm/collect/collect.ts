import { formatUnits, getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { NotFoundError } from '../../../errors.ts'
import { analyzeCode, type CodeAnalysis } from '../chain/bytecode.ts'
import { resolveProxy, type ProxyInfo } from '../chain/proxy.ts'
import { callProbe, decodeAccounts, decodeProbe, encodeAccounts } from '../chain/probe.ts'
import { collectMetadata } from '../../../metadata/providers.ts'
import type { CodeFacts, CreationSupplyFact, EvmFacts, HolderSellsFact, OwnerFacts, PoolFact } from '../facts.ts'
import { ZERO_ADDRESS, blockHex, sameAddress, type CollectContext } from './context.ts'
import { collectCreation, fromFirstTransfer, type Creation } from './creation.ts'
import { RpcError } from '../chain/rpc.ts'
import { discover, settled, type Discovery } from './discovery.ts'
import { probeReads } from './probe-reads.ts'
import { collectExternalCalls } from './external-calls.ts'
import { indexHolders, verifyHolders } from './holders.ts'
import { liquidityFact, readLocks } from './liquidity.ts'
import { collectMarkets, poolFacts, priceQuotes } from './markets.ts'
import { collectPowers, mergePowers, powerCandidates } from './powers.ts'
import { poolContractCandidates, poolsRunning, readPoolContracts } from './pool-contracts.ts'
import { collectPoolProceeds, withPoolContracts } from './pool-proceeds.ts'
import { collectSlotAccounts, isPlausible } from './slot-accounts.ts'
import { collectTrades, quoteRoute } from './trades.ts'
import { collectHolderPools, custodyTrades, withCustody, withHolderPools, type HolderPoolsFound } from './holder-pools.ts'
import { ownPairFacts, readOwnPairs } from './own-pairs.ts'
import { collectHolderSells, mainPool } from './holder-sells.ts'
import { collectDependencies } from './dependencies.ts'
import { lookupSource } from './source.ts'
import { venueOf } from '../venues/registry.ts'
import { collectUnexplainedBalances, namedAccounts } from './unexplained.ts'
import { collectCreationSupply } from './creation-supply.ts'
import { ROLE_GRANTED_TOPIC, collectRoleHolders, enumeratesRoles, mergeRoleHolders, readRoleMembers } from './role-holders.ts'

/** owner() */
const OWNER_SELECTOR: Hex = '0x8da5cb5b'
/** totalSupply(), balanceOf(address), transfer(address,uint256): a contract with none is no token. */
const ERC20_SELECTORS: Hex[] = ['0x18160ddd', '0x70a08231', '0xa9059cbb']
/** Selectors that make an EIP-1967 implementation upgradeable by itself (UUPS). */
const UUPS_SELECTORS: Hex[] = ['0x4f1ef286', '0x3659cfe6']

function upgradeability(
  proxy: ProxyInfo | undefined,
  impl: CodeAnalysis | undefined,
  adminOwner: Address | undefined,
): { upgradeable: boolean | undefined; note: string } {
  if (!proxy) return { upgradeable: undefined, note: '' }
  const uups = !!impl && UUPS_SELECTORS.some((s) => impl.selectors.has(s))
  switch (proxy.kind) {
    case 'eip1167':
      return { upgradeable: false, note: 'EIP-1167 clone: its implementation is fixed in its code (not upgradeable)' }
    case 'eip1967':
    case 'zeppelinos':
      if (proxy.admin) {
        const owned = adminOwner && adminOwner !== ZERO_ADDRESS ? `, a contract owned by ${adminOwner}` : ''
        return { upgradeable: true, note: `upgradeable by the proxy admin ${proxy.admin}${owned}` }
      }
      if (uups) return { upgradeable: true, note: 'upgradeable through the implementation (UUPS upgradeToAndCall)' }
      return { upgradeable: undefined, note: 'no admin slot and no upgrade function found in the implementation' }
    case 'eip1967-beacon':
      return { upgradeable: true, note: `upgradeable by the owner of its beacon ${proxy.beacon ?? ''}`.trim() }
    case 'eip1822':
      return { upgradeable: true, note: 'upgradeable through the implementation (EIP-1822)' }
    case 'eip7702':
      return { upgradeable: true, note: 'an account delegating to code (EIP-7702): its key can re-delegate' }
    default:
      return { upgradeable: undefined, note: '' }
  }
}

function ownerFacts(d: Discovery, proxy: ProxyInfo | undefined): Omit<OwnerFacts, 'balance'> {
  if (d.owner.owner !== undefined) return { declared: d.owner.owner, reported: d.owner.owner, source: 'owner()' }
  if (d.owner.getOwner !== undefined) return { declared: d.owner.getOwner, reported: d.owner.getOwner, source: 'getOwner()' }
  if (proxy?.admin) return { declared: undefined, reported: proxy.admin, source: 'proxy admin' }
  return { declared: undefined, reported: undefined, source: '' }
}

/**
 * A contract whose totalSupply()/balanceOf() fail is reported (flagged) when its code is a
 * token's; without any of the ERC-20 functions in its logic it is no token at all (404).
 */
function assertToken(ctx: CollectContext, d: Discovery, logic: CodeAnalysis): void {
  if (d.getterFailures.length > 0 && !ERC20_SELECTORS.some((s) => logic.selectors.has(s))) {
    throw new NotFoundError(`the contract at ${ctx.token} on chain ${ctx.chain.chainId} is not an ERC-20 token (no totalSupply(), balanceOf() or transfer())`)
  }
}

/**
 * The collect stage: all chain I/O of a report. The first round trip discovers the token, its
 * pools and its privileged accounts; the second simulates trading and owner powers, reads holder
 * logs, locks and creation; the third verifies holders (and simulates owner powers of proxies,
 * whose logic needed its code first). Independent reads share round trips.
 */
export async function collectFacts(ctx: CollectContext): Promise<EvmFacts> {
  const metadataPromise = collectMetadata(ctx.metadata, ctx.chain.chainId, ctx.token, ctx.rpc.signal, (provider, error) =>
    ctx.log.warn({ provider, token: ctx.token, err: (error as Error).message }, 'metadata provider failed'),
  )
  const storedCreation = await ctx.holderStore.creation(ctx.chain.chainId, ctx.token)
  // Read beside the discovery (same round trip): what the token names as its pair.
  const ownPairsRead = readOwnPairs(ctx).then(
    (read) => ({ read }),
    (error: unknown) => ({ why: (error as Error).message.slice(0, 160) }),
  )
  const d = await discover(ctx)
  const block = blockHex(d.block.number)
  const tokenCode = analyzeCode(d.code)
  const forwards = tokenCode.reachable.delegateCall || !!tokenCode.delegationTarget || !!tokenCode.eip1167Target
  if (!forwards) assertToken(ctx, d, tokenCode)

  const read = async (to: Address, data: Hex) => (await probeReads(ctx, [{ target: to, data }], block))[0]
  const proxyPromise = resolveProxy(ctx.rpc, ctx.token, d.code, tokenCode, d.slots, block, read)
  const logicPromise: Promise<CodeAnalysis | undefined> = proxyPromise.then(async (proxy) => {
    if (!proxy) return tokenCode
    if (!proxy.implementation) return undefined
    const code = await ctx.rpc.request<Hex>('eth_getCode', [proxy.implementation, block])
    return code && code !== '0x' ? analyzeCode(code) : undefined
  })

  // Who holds a transparent proxy's upgrade power: the admin, or the owner of an admin contract.
  const adminOwnerPromise: Promise<Address | undefined> = proxyPromise.then(async (proxy) => {
    if (!proxy?.admin) return undefined
    const [read] = await probeReads(ctx, [{ target: proxy.admin, data: OWNER_SELECTOR }], block)
    const raw = read.returnData
    return read.success && raw.length >= 66 && BigInt(raw.slice(0, 66)) < 1n << 160n ? getAddress(`0x${raw.slice(26, 66)}`) : undefined
  })

  const quoteUsd = priceQuotes(ctx, d)
  const pools: PoolFact[] = poolFacts(ctx, d, quoteUsd)
  // The LP described is the main V2 pool's: against the wrapped native token where there is one.
  const v2 = pools.filter((p) => venueOf(p.dexType).fungibleLp)
  const deepestV2 = v2.find((p) => sameAddress(p.quote, ctx.chain.wrappedNative)) ?? v2[0]
  const creator = storedCreation?.creator ?? d.otsCreator?.creator
  const declared = d.owner.owner ?? d.owner.getOwner
  const donors = [declared, creator, storedCreation?.deployer, d.otsCreator?.creator]
    .filter((a): a is Address => !!a && a !== ZERO_ADDRESS && !sameAddress(a, ctx.token) && !pools.some((p) => sameAddress(p.address, a)))
    .filter((a, i, all) => all.findIndex((b) => sameAddress(a, b)) === i)

  const ownPairsPromise = ownPairsRead.then((r) =>
    'read' in r ? ownPairFacts(ctx, d, r.read, pools) : { fact: { pairs: [], note: `the token's pairs could not be read: ${r.why}` }, extra: [] },
  )
  const marketsOfPools = collectMarkets(ctx, d)
  const tradesOnPools = ownPairsPromise.then((own) => collectTrades(ctx, d, pools, donors, block, own))
  const creationLookup = collectCreation(ctx, d, storedCreation)
  // The last resort of the creation, without Otterscan, history or explorer: the first Transfer's
  // transaction, from the holder index read from genesis (then stored like any other).
  const creationPromise: Promise<Creation> = creationLookup.done.then(async (found) => {
    if (found.creator !== undefined) return found
    const first = (await indexPromise).get(ctx.token)?.firstTransfer
    const fromLogs = await fromFirstTransfer(ctx, first).catch((error: unknown) => {
      if (error instanceof RpcError && error.kind !== 'fault') return found
      throw error
    })
    if (fromLogs.creator === undefined) return found
    if (fromLogs.timestamp !== undefined) await ctx.holderStore.saveCreation(ctx.chain.chainId, ctx.token, fromLogs)
    return fromLogs
  })
  const whoPromise = creationLookup.who.then((who) => (who.creator !== undefined ? who : creationPromise))
  const externalPromise = collectExternalCalls(ctx, d, pools[0], donors, logicPromise, block)
  // Where transfers cannot be traced: the contracts the token names, less the trade's own path and the probe's actors.
  const named = () =>
    Promise.all([logicPromise, slotAccountsPromise, proxyPromise]).then(([logic, slotAccounts, proxy]) => ({
      logic,
      slotAccounts,
      exclude: [
        ...pools.flatMap((p) => [p.address, p.quote]),
        ...d.pricePools.flatMap((p) => [p.asset, ...p.pools.flatMap((x) => [x.pool, x.quote])]),
        ctx.chain.wrappedNative,
        ...ctx.chain.stablecoins,
        ...ctx.chain.majors,
        ...ctx.chain.dexes.flatMap((x) => [x.factory, x.router, x.quoter].filter((a): a is Address => !!a)),
        ctx.chain.multicall3,
        ...donors,
        ...[d.owner.owner, d.owner.getOwner, proxy?.implementation, proxy?.admin].filter((a): a is Address => !!a),
      ],
    }))
  // The owner powers' candidates, once known, try to point each dependency elsewhere (beside the owner powers).
  const privileged = () => candidatesPromise.then((c) => ({ candidates: c.candidates, logic: c.logic }))
  const dependenciesPromise = externalPromise.then((external) =>
    collectDependencies(ctx, d, pools[0], donors, external, block, named, privileged).then(
      (r) => ({ list: r.dependencies, note: r.note, ...(r.unmeasured ? { unmeasured: r.unmeasured } : {}) }),
      (error: unknown) => {
        const note = `dependencies were not made hostile: ${(error as Error).message.slice(0, 160)}`
        return { list: [], note, unmeasured: note }
      },
    ),
  )
  const lockPromise = readLocks(ctx, deepestV2, block)
  // The index starts at the creation block. A short chain is read from genesis at once; on a
  // long one the first report waits for the creation block (one round trip) rather than scan it all.
  const startPromise: Promise<bigint> =
    storedCreation?.blockNumber !== undefined
      ? Promise.resolve(storedCreation.blockNumber)
      : d.block.number <= BigInt(ctx.chain.maxLogRange) || !d.otsCreator
        ? Promise.resolve(0n)
        : creationLookup.who.then((w) => w.blockNumber ?? 0n)
  const indexPromise = startPromise.then((start) =>
    indexHolders(ctx, [ctx.token, ...(deepestV2 ? [deepestV2.address] : [])], d.block.number, start),
  )
  // Pools among the largest holders of record (of exchanges no factory of the chain entry knows),
  // read and traded in one call once the holder index stands, beside the holders' own reads.
  // A factory keeping all its pools' tokens (a V4 PoolManager) that holds the token while none of
  // its pools was found is a market of unknown figures, from its balance read in the discovery.
  // Found are the pools that stand once their state is read (a key the token keeps may name none),
  // those against tokens that are no quote assets, passed over as markets, among them.
  const holderPoolsPromise: Promise<HolderPoolsFound> = Promise.all([indexPromise, ownPairsPromise, settled(d)]).then(([index, own, sd]) => {
    const top = index.get(ctx.token)?.top ?? []
    const known = [...pools, ...own.extra].map((p) => p.address)
    const custody = custodyTrades(ctx, d, top, [...sd.pools, ...sd.passedOver].map((p) => p.pool).concat(own.extra.map((p) => p.address)), d.venueNote)
    return collectHolderPools(ctx, d, top, [...known, ...custody.map((t) => t.pool.address)], donors, block)
      .catch((error: unknown) => ({
        pools: [],
        trades: [],
        note: `the holders were not read as pools: ${(error as Error).message.slice(0, 160)}`,
      }))
      .then((found) => ({ ...found, trades: [...found.trades, ...custody] }))
  })
  const marketsPromise = Promise.all([marketsOfPools, holderPoolsPromise]).then(([markets, found]) => ({
    ...withCustody(withHolderPools(markets, found, d.basics), found.trades),
    searchNote: [d.venueNote, found.note].filter(Boolean).join('; '),
  }))
  const tradesPromise = Promise.all([tradesOnPools, holderPoolsPromise]).then(([trades, found]) => [
    ...trades,
    ...found.trades,
  ])
  // The accounts kept in storage (at any byte offset of a slot) and what makes each plausible (one
  // read beside the trades), before the owner powers.
  // The addresses written into the code (a hard-coded team account) are read the same way.
  const slotAccountsPromise = collectSlotAccounts(ctx, d, block, tokenCode.addresses)
  // Role holders: the RoleGranted logs not revoked since, when the code emits the event, and the
  // members its enumerable getters list (getRoleMember), both beside the holder index. A proxy's
  // logic is not read yet when the getters are asked: they are asked of the proxy by index for the
  // default admin, the constants of the code that forwards and the usual role names, and their
  // answer kept only if the logic has the getters.
  const roleLogsPromise = Promise.all([startPromise, forwards ? logicPromise : tokenCode]).then(([start, logic]) =>
    logic?.constants32.includes(ROLE_GRANTED_TOPIC)
      ? collectRoleHolders(ctx, start, d.block.number).catch((error: unknown) => {
          ctx.log.warn({ chainId: ctx.chain.chainId, token: ctx.token, err: (error as Error).message }, 'role logs could not be read')
          return { holders: [], note: `role logs could not be read: ${(error as Error).message.slice(0, 160)}` }
        })
      : { holders: [], note: '' },
  )
  const roleMembersRead = forwards || enumeratesRoles(tokenCode) ? readRoleMembers(ctx, tokenCode, block) : undefined
  const rolesPromise = Promise.all([roleLogsPromise, roleMembersRead, forwards ? logicPromise : tokenCode]).then(([logs, members, logic]) =>
    mergeRoleHolders(logs, enumeratesRoles(logic) ? members : undefined),
  )
  // The owner powers start when the holder index stands (the holders' verification waits for it
  // too, so the report is no longer for it): its largest holders are watched as bystanders.
  const candidatesPromise = Promise.all([proxyPromise, logicPromise, slotAccountsPromise, indexPromise, rolesPromise, ownPairsPromise]).then(([proxy, logic, stored, index, roles, own]) => {
    const known = new Set((index.get(ctx.token)?.top ?? []).map((h) => h.address.toLowerCase()))
    const slotAccounts = stored.filter((a) => isPlausible(a, known))
    const candidates = powerCandidates(ctx, d, {
      admin: proxy?.admin,
      creator,
      deployer: storedCreation?.deployer ?? d.otsCreator?.creator,
      implementation: proxy?.implementation,
      pools,
      slotAccounts,
      roleHolders: roles.holders,
    })
    const ofRecord = (index.get(ctx.token)?.top ?? []).map((h) => h.address)
    return { logic, candidates, slotAccounts, ofRecord, ownPairs: own.fact.pairs.map((p) => p.address), roles }
  })
  // The contracts the pools run beside the token on every trade (a V4 pool's hook): read once the
  // pools are known, their own privileged functions tried beside the token's.
  const poolContractsPromise = readPoolContracts(ctx, pools, block)
  // The owner powers sell through the token's first pool. One against a token that is no quote
  // asset is bought through that token's own pools, known once what the discovery left pending is
  // read (in the round trip the powers wait for anyway): without them the powers would run with no
  // pool, blind to what a call does to sales.
  const forPowers: Promise<{ d: Discovery; pools: PoolFact[] }> =
    pools[0] && !quoteRoute(ctx, d, pools[0].quote)
      ? settled(d)
          .then((sd) => ({ d: sd, pools: poolFacts(ctx, sd, priceQuotes(ctx, sd)) }))
          .catch(() => ({ d, pools }))
      : Promise.resolve({ d, pools })
  const contractPowersPromise = Promise.all([candidatesPromise, poolContractsPromise, forPowers]).then(([c, contracts, p]) =>
    Promise.all(
      contracts.map((k) =>
        collectPowers(ctx, p.d, k.logic, poolContractCandidates(k, c.candidates), poolsRunning(p.pools, k), block, c.ofRecord, [], c.ownPairs, k).then((fact) => ({ contract: k, fact })),
      ),
    ),
  )
  // Who is paid over a sale among those contracts' accounts, and whether one whose code can be
  // replaced stops the sale when it reverts (beside the owner powers).
  const proceedsPromise = Promise.all([candidatesPromise, poolContractsPromise, forPowers]).then(([c, contracts, p]) => collectPoolProceeds(ctx, p.d, p.pools, contracts, c.candidates, block))
  const tokenPowersPromise = Promise.all([candidatesPromise, forPowers]).then(([c, p]) => collectPowers(ctx, p.d, c.logic, c.candidates, p.pools, block, c.ofRecord, c.slotAccounts, c.ownPairs))
  const powersPromise = Promise.all([candidatesPromise, tokenPowersPromise, contractPowersPromise, proceedsPromise]).then(([c, powers, others, sold]) => ({
    ...mergePowers(powers, others, sold.findings),
    ...(c.roles.note ? { rolesNote: c.roles.note } : {}),
    ...(c.roles.unread ? { rolesUnread: c.roles.unread } : {}),
  }))
  const holdersPromise = indexPromise.then((index) =>
    Promise.all([
      verifyHolders(ctx, ctx.token, index.get(ctx.token), block),
      deepestV2 ? verifyHolders(ctx, deepestV2.address, index.get(deepestV2.address), block) : undefined,
    ]),
  )
  // Balances of the accounts the token names that no Transfer explains (once the index stands).
  const unexplainedPromise = Promise.all([indexPromise, logicPromise]).then(([index, logic]) =>
    collectUnexplainedBalances(ctx, d, logic, index.get(ctx.token), [declared, creator], block).catch((error: unknown) => ({
      list: [],
      note: `balances were not compared with Transfer events: ${(error as Error).message.slice(0, 160)}`,
    })),
  )
  // The balances the creation wrote against its Transfer events: its code run again, or its
  // transaction traced (beside the holder index, as soon as the creation transaction is known).
  const creationHash: Promise<Hex | undefined> =
    d.otsCreator?.hash !== undefined ? Promise.resolve(d.otsCreator.hash) : storedCreation?.txHash !== undefined ? Promise.resolve(storedCreation.txHash) : creationPromise.then((c) => c.txHash)
  const creationSupplyPromise = creationHash.then((hash) =>
    collectCreationSupply(ctx, d, hash, namedAccounts(ctx, d, tokenCode, [declared, creator]), block).catch(
      (error: unknown): CreationSupplyFact => ({ method: '', list: [], percentOfSupply: undefined, note: `the creation's balances were not read: ${(error as Error).message.slice(0, 160)}` }),
    ),
  )
  // The largest holders of record sell their whole balance (beside the owner powers, once the index stands).
  // Beside the trades (not after them): the pool is chosen once the pools found late are read.
  const holderSellsPromise = Promise.all([indexPromise, ownPairsPromise, settled(d)]).then(([index, own, sd]) =>
    collectHolderSells(
      ctx,
      d,
      mainPool(ctx, sd, [...poolFacts(ctx, sd, priceQuotes(ctx, sd)), ...own.extra], own.fact),
      [...pools, ...own.extra].map((p) => p.address),
      index.get(ctx.token)?.top ?? [],
      block,
    ).catch(
      (error: unknown): HolderSellsFact => ({ pool: undefined, path: '', holders: [], note: `holders of record could not be made to sell: ${(error as Error).message.slice(0, 160)}` }),
    ),
  )
  const balancesPromise = whoPromise.then(async (who) => {
    const accounts = [ownerFacts(d, undefined).reported, who.creator].filter((a): a is Address => !!a)
    if (accounts.length === 0) return new Map<string, bigint>()
    const raw = await callProbe(ctx.rpc, { what: 'balance reads', data: encodeAccounts(ctx.token, accounts), gas: ctx.gasCap, block })
    const { balances } = decodeProbe('balance reads', raw, decodeAccounts)
    return new Map(accounts.map((a, i) => [a.toLowerCase(), balances[i]]))
  })

  const sourcePromise = proxyPromise.then((proxy) => lookupSource(ctx, proxy?.implementation ?? ctx.token))

  // Every stage is awaited together: a stage that fails fails the collection once, and none is left
  // rejected and unawaited behind it.
  const [proxy, logic, markets, measuredTrades, creation, externalCalls, locks, [holders, lpHolders], powers, balances, metadata, adminOwner, source, ownPairs, holderSells, dependencies, unexplained, creationSupply, sold, poolContracts] = await Promise.all([
    proxyPromise,
    logicPromise,
    marketsPromise,
    tradesPromise,
    creationPromise,
    externalPromise,
    lockPromise,
    holdersPromise,
    powersPromise,
    balancesPromise,
    metadataPromise,
    adminOwnerPromise,
    sourcePromise,
    ownPairsPromise,
    holderSellsPromise,
    dependenciesPromise,
    unexplainedPromise,
    creationSupplyPromise,
    proceedsPromise,
    poolContractsPromise,
  ])
  const trades = withPoolContracts(measuredTrades, sold.proceeds, poolContracts, powers.findings)

  if (logic) assertToken(ctx, d, logic)
  const implementation = proxy ? logic : undefined
  const up = upgradeability(proxy, implementation, adminOwner)
  const code: CodeFacts = { token: tokenCode, proxy, implementation, upgradeable: up.upgradeable, upgradeNote: up.note, logic }
  const owner = ownerFacts(d, proxy)
  // The proxy admin's balance was not read with the others (it is known only now); it rarely holds tokens.
  const ownerBalance = owner.reported ? balances.get(owner.reported.toLowerCase()) : undefined
  return {
    chain: ctx.chain,
    token: getAddress(ctx.token),
    block: d.block,
    basics: d.basics,
    anomalies: [
      ...d.getterFailures.map((f) => `the token's ${f}: its supply and balances cannot be read`),
      ...unexplained.list.map(
        (u) =>
          `${u.address} holds ${d.basics.decimals === undefined ? u.balance - u.explained : formatUnits(u.balance - u.explained, d.basics.decimals)} tokens (${u.percentOfSupply}% of the total supply) that no Transfer event explains: a balance placed without a Transfer, at creation or written directly`,
      ),
      ...creationSupplyAnomaly(creationSupply, unexplained.list, d.basics.decimals),
    ],
    code,
    owner: { ...owner, balance: ownerBalance },
    creation: {
      creator: creation.creator,
      deployer: creation.deployer,
      txHash: creation.txHash,
      blockNumber: creation.blockNumber,
      timestamp: creation.timestamp,
      creatorBalance: creation.creator ? balances.get(creation.creator.toLowerCase()) : undefined,
      method: creation.method,
    },
    markets,
    trades,
    powers,
    externalCalls,
    holders,
    // The pool as the markets read it: one found late has its LP supply only there.
    liquidity: liquidityFact(
      (deepestV2 && markets.pools.find((p) => sameAddress(p.address, deepestV2.address) && !p.v4)) ?? deepestV2,
      lpHolders ?? { complete: false, count: undefined, top: [], note: '' },
      locks,
      d.block.timestamp,
    ),
    metadata,
    source,
    ownPairs: ownPairs.fact,
    holderSells,
    dependencies,
    unexplainedBalances: unexplained,
    creationSupply,
  }
}

/**
 * The sentence of the balances the creation wrote without a Transfer event (none when there are
 * none, or when the accounts still hold them and are named already among the balances no event explains).
 */
function creationSupplyAnomaly(c: CreationSupplyFact, named: { address: Address }[], decimals: number | undefined): string[] {
  if (c.list.every((u) => named.some((n) => sameAddress(n.address, u.address)))) return []
  const amount = (v: bigint) => (decimals === undefined ? `${v}` : formatUnits(v, decimals))
  const each = c.list.map((u) => `${u.address} ${amount(u.balance - (u.transferred > 0n ? u.transferred : 0n))} (${u.percentOfSupply}%)`).join(', ')
  const how = c.method === 'trace' ? 'its creation transaction traced' : 'its creation code run again'
  return [`at creation, ${c.percentOfSupply}% of the total supply was written into balances that no Transfer event explains (${how}): ${each}`]
}
