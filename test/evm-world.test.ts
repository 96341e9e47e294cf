// The EVM token engine against the local world: every zoo token's report is compared with the
// world's manifest of ground truth — every code check both ways, taxes per pool (±0.5 pp),
// honeypot per pool with its reason, owner and creator, holders, LP and its locks.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, formatUnits, getAddress, http, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import type { DevnetManifest, ManifestHolder } from '@tokenrisk/devworld/manifest'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import type { RpcStats } from '../src/engines/evm/chain/rpc.ts'
import { type TokenReport } from '../src/contract/token-report.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS, type EvmCheckName } from '../src/contract/checks.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { PRESENT_RISK_PENALTY } from '../src/report/score-model.ts'
import type { EvmFacts } from '../src/engines/evm/facts.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

// Shared with the devnet tests, so that the saved world is reused between runs.
const DATA_DIR = TEST_DEVNET_DIR
const TAX_TOLERANCE_PP = 0.5
const silent = { info: () => {}, warn: () => {}, error: () => {} }

// Started while the tests are collected, so that each zoo token gets tests of its own.
const world: World = await startWorld({ dataDir: DATA_DIR })
const manifest: DevnetManifest = world.manifest
let store: Store
let storeDir: string
const reports = new Map<string, { report: TokenReport; facts: EvmFacts; stats: RpcStats }>()

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), 'tokenrisk-evm-world-'))
  store = await createDatabase({ dataDir: storeDir })
  const service = createEvmReportService({
    registry: loadChainRegistry({ chains: localChains(manifest) }),
    cache: createMemoryCache(),
    store,
    logger: silent,
  })
  for (const token of manifest.tokens) {
    reports.set(token.key, await service.reportWithFacts(31337, token.address, {}))
  }
}, 240_000)

afterAll(async () => {
  await store?.close()
  if (storeDir) rmSync(storeDir, { recursive: true, force: true })
  await world?.stop()
})

function get(key: string) {
  const r = reports.get(key)
  if (!r) throw new Error(`no report for ${key}`)
  return r
}

function statuses(report: TokenReport): Record<EvmCheckName, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries({ ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks })) out[k] = v.status
  return out as Record<EvmCheckName, string>
}

const whole = (raw: string, decimals: number) => formatUnits(BigInt(raw), decimals)
const lower = (a: string) => a.toLowerCase()

function holderRows(list: ManifestHolder[], decimals: number) {
  return list.map((h) => ({ address: lower(h.address), balance: whole(h.balance, decimals), isContract: h.isContract ? '1' : '0', isLocked: h.isLocked ? '1' : '0' }))
}

describe('reports match the world manifest', () => {
  it('covers every zoo token', () => {
    expect(manifest.tokens.length).toBeGreaterThan(20)
    expect([...reports.keys()].sort()).toEqual(manifest.tokens.map((t) => t.key).sort())
  })

  it('every code check of every token equals the manifest', () => {
    const mismatches: string[] = []
    for (const t of manifest.tokens) {
      const { report } = get(t.key)
      const got = statuses(report)
      for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]) {
        if (got[name] !== t.codeChecks[name]) {
          const c = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks }[name]
          mismatches.push(`${t.key}.${name}: got ${got[name]} want ${t.codeChecks[name]} (${c.comment})`)
        }
      }
    }
    expect(mismatches).toEqual([])
  })

  it('gives a finding graver than its check\'s tier the Critical risk, and only those', () => {
    const wrong: string[] = []
    for (const t of manifest.tokens) {
      const checks = { ...get(t.key).report.codeChecks.ownershipChecks, ...get(t.key).report.codeChecks.otherChecks } as Record<string, { risk: string; comment: string }>
      for (const name of t.criticalChecks) if (checks[name].risk !== 'Critical') wrong.push(`${t.key}.${name}: ${checks[name].risk} (${checks[name].comment})`)
      for (const name of ['slippageModifiable', 'antiwhaleModifiable'] as const) {
        if (t.codeChecks[name] === '1' && !t.criticalChecks.includes(name) && checks[name].risk === 'Critical') wrong.push(`${t.key}.${name} is Critical: ${checks[name].comment}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('tests every check both ways: present on a token, absent on its clean twin', () => {
    const byKey = new Map(manifest.tokens.map((t) => [t.key, t]))
    for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]) {
      const withIt = manifest.tokens.filter((t) => t.codeChecks[name] === '1' && t.twin && byKey.get(t.twin)?.codeChecks[name] === '0')
      expect(withIt.length, `a zoo token with ${name} and a twin without it`).toBeGreaterThan(0)
      for (const t of withIt) {
        expect(statuses(get(t.key).report)[name], `${t.key}.${name}`).toBe('1')
        expect(statuses(get(t.twin).report)[name], `${t.twin}.${name} (twin of ${t.key})`).toBe('0')
      }
    }
  })

  it('a decided check says how it was decided; an undecided one has no risk', () => {
    for (const t of manifest.tokens) {
      const { report } = get(t.key)
      for (const c of Object.values({ ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks })) {
        expect(c.comment).toMatch(/^(simulated|bytecode|state|metadata|not determinable)/)
        if (c.comment.startsWith('not determinable')) expect(c.risk).toBe('')
        else expect(c.risk).not.toBe('')
        expect(c.description.length).toBeGreaterThan(10)
      }
    }
  })

  it('a cold report needs at most 6 sequential round trips', () => {
    for (const t of manifest.tokens) expect(get(t.key).stats.roundTrips, t.key).toBeLessThanOrEqual(6)
  })
})

describe.each(manifest.tokens.map((t) => [t.key] as const))('token %s', (key) => {
  const token = () => manifest.tokens.find((t) => t.key === key)!

  it('token information: name, symbol, supply, owner, creator, creation date', async () => {
    const t = token()
    const { report } = get(key)
    const info = report.tokenInformation
    expect(lower(info.tokenAddress)).toBe(lower(t.address))
    expect(info.tokenName).toBe(t.name)
    expect(info.tokenSymbol).toBe(t.symbol)
    expect(info.totalSupply).toBe(whole(t.totalSupply, t.decimals))
    expect(lower(info.ownerAddress)).toBe(lower(t.owner))
    expect(lower(info.creatorAddress)).toBe(lower(t.creator))
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    const block = await client.getBlock({ blockNumber: BigInt(t.creationBlock) })
    expect(info.tokenCreationDate).toBe(new Date(Number(block.timestamp) * 1000).toISOString())
  })

  it('pools: taxes within ±0.5 pp, honeypot and its reason, pair, liquidity', () => {
    const t = token()
    const { report } = get(key)
    // A pair the token records on an exchange the chain does not list is traded too (its own row);
    // a pool among the holders that cannot be traded (against a token that is no quote asset) is
    // named with "" (its own row). Neither is a pool of the manifest unless the world made it so.
    const inManifest = (p: { pairAddress: string }) => t.pools.some((x) => lower(x.pairAddress) === lower(p.pairAddress))
    const listed = report.honeypotDetails.filter((p) => inManifest(p) || (!p.dex.startsWith('unlisted') && p.isPairHoneypot !== ''))
    expect(listed.map((p) => lower(p.pairAddress)).sort()).toEqual(t.pools.map((p) => lower(p.pairAddress)).sort())
    for (const pool of t.pools) {
      const h = report.honeypotDetails.find((p) => lower(p.pairAddress) === lower(pool.pairAddress))!
      expect(h.dex).toBe(pool.dex)
      expect(h.pair.map(lower)).toEqual(pool.pair.map(lower))
      expect(h.isPairHoneypot, `${pool.quoteSymbol} honeypot`).toBe(pool.isPairHoneypot)
      if (pool.honeypotReason) expect(h.honeypotReason).toContain(pool.honeypotReason)
      else expect(h.honeypotReason).toBe('')
      const tradeReverts = (which: 'buy' | 'sell') => (which === 'sell' ? pool.isPairHoneypot === '1' : t.codeChecks.cannotBuy === '1')
      for (const [which, got, want] of [
        ['buy', h.buyTax.number, pool.buyTax],
        ['sell', h.sellTax.number, pool.sellTax],
        ['transfer', h.transferTax.number, pool.transferTax],
      ] as const) {
        if (got === '' && (which === 'buy' || which === 'sell') && tradeReverts(which)) continue
        // The manifest says where a tax cannot be measured (a transfer that reverts): '' then.
        if (want === '') {
          expect(got, `${pool.quoteSymbol} ${which} tax`).toBe('')
          continue
        }
        expect(got, `${pool.quoteSymbol} ${which} tax`).not.toBe('')
        expect(Math.abs(Number(got) - Number(want)), `${pool.quoteSymbol} ${which} tax ${got} vs ${want}`).toBeLessThanOrEqual(TAX_TOLERANCE_PP)
      }
      const dex = report.marketChecks.exchangabilityChecks.availableDex.find((d) => lower(d.pair) === lower(pool.pairAddress))!
      expect(Math.abs(Number(dex.liquidity) - Number(pool.liquidityUsd)) / Number(pool.liquidityUsd)).toBeLessThan(0.001)
    }
    expect(report.marketChecks.exchangabilityChecks.numberOfTradingPairs.number).toBe(String(t.pools.length))
  })

  it('holders: count and the top ten with balances, contracts and locks', () => {
    const t = token()
    const { report } = get(key)
    const h = report.marketChecks.holdersChecks
    expect(h.holdersCount.number).toBe(String(t.holders.count))
    const want = holderRows(t.holders.top.slice(0, 10), t.decimals)
    const got = h.keyHolders.map((x) => ({ address: lower(x.address), balance: x.balance, isContract: x.isContract, isLocked: x.isLocked }))
    expect(got).toEqual(want)
    const supply = BigInt(t.totalSupply)
    const topTen = t.holders.top.slice(0, 10).reduce((a, x) => a + BigInt(x.balance), 0n)
    expect(Number(h.percentDistributed.topTen.percent)).toBeCloseTo(Number((topTen * 1_000_000n) / supply) / 10_000, 3)
  })

  it('liquidity: LP supply, holders, locked and burned share, upcoming unlocks', () => {
    const t = token()
    const { report } = get(key)
    const lp = report.marketChecks.liquidityChecks
    if (!t.liquidity) {
      expect(lp.totalLpSupply).toBe('')
      expect(lp.keyLpHolders).toEqual([])
      return
    }
    expect(lp.totalLpSupply).toBe(whole(t.liquidity.totalLpSupply, 18))
    expect(lp.lpHolderCount.number).toBe(String(t.liquidity.holders.length))
    expect(lp.keyLpHolders.map((x) => ({ address: lower(x.address), balance: x.balance, isContract: x.isContract, isLocked: x.isLocked }))).toEqual(
      holderRows(t.liquidity.holders.slice(0, 10), 18),
    )
    const locked = Number(t.liquidity.lockedPercent) + Number(t.liquidity.burnedPercent)
    expect(Number(lp.liquidityLockedDetails.totalLiquidityPercentageLocked.number)).toBeCloseTo(locked, 3)
    const future = t.liquidity.unlocks.filter((u) => u.unlockTime > manifest.readyTimestamp)
    expect(lp.liquidityLockedDetails.upcomingUnlockDetails.map((u) => ({ time: u.time, balance: u.balance }))).toEqual(
      future.map((u) => ({ time: new Date(u.unlockTime * 1000).toISOString(), balance: whole(u.amount, 18) })),
    )
    for (const u of lp.liquidityLockedDetails.upcomingUnlockDetails) expect(u.tag).toMatch(/LpLocker/)
  })

  it('is a valid report: strings everywhere, scores in range', () => {
    const { report } = get(key)
    const code = Number(report.tokenScore.codeScorePercentage)
    expect(code).toBeGreaterThanOrEqual(-100 * PRESENT_RISK_PENALTY)
    expect(code).toBeLessThanOrEqual(100)
    expect(Number(report.tokenScore.codeScore.minScore)).toBe(-PRESENT_RISK_PENALTY * Number(report.tokenScore.codeScore.maxScore))
    const exitBlocked = report.honeypotDetails.length > 0 && report.honeypotDetails.every((d) => d.isPairHoneypot === '1')
    if (exitBlocked) expect(Number(report.tokenScore.totalScorePercentage)).toBeLessThanOrEqual(0)
    const market = Number(report.tokenScore.marketScorePercentage)
    expect(market).toBeGreaterThanOrEqual(-100)
    expect(market).toBeLessThanOrEqual(100)
    expect(Number(report.tokenScore.marketScore.minScore)).toBe(-Number(report.tokenScore.marketScore.maxScore))
    const walk = (v: unknown, path: string) => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`))
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`)
      else expect(typeof v, path).toBe('string')
    }
    walk(report, 'report')
  })
})

describe('facts behind the reports', () => {
  it('proxies resolve to the manifest implementation; upgradeability says so', () => {
    for (const t of manifest.tokens.filter((x) => x.implementation)) {
      const { facts, report } = get(t.key)
      expect(lower(facts.code.proxy?.implementation ?? ''), t.key).toBe(lower(t.implementation as Address))
      expect(facts.code.upgradeable, t.key).toBe(t.upgradeable)
      if (t.proxyAdmin) expect(lower(facts.code.proxy?.admin ?? '')).toBe(lower(t.proxyAdmin))
      if (t.proxyAdminOwner) expect(report.codeChecks.otherChecks.isProxy.comment).toContain(`owned by ${getAddress(t.proxyAdminOwner)}`)
      expect(report.codeChecks.otherChecks.isProxy.comment).toMatch(t.upgradeable ? /upgradeable by|upgradeable through/ : /not upgradeable/)
    }
  })

  it('the hidden owner is found in storage and named in the evidence', () => {
    const t = manifest.tokens.find((x) => x.hiddenOwner)!
    const { report } = get(t.key)
    expect(report.codeChecks.ownershipChecks.isMintable.comment.toLowerCase()).toContain(lower(t.hiddenOwner!))
  })

  it('a mint credited to an account named only in the Transfer event is measured in storage; its look-alike paid by the owner is not one', () => {
    const credit = get('reserve-credit')
    expect(credit.facts.powers.eventsUnread).toBeUndefined()
    const mint = credit.facts.powers.findings.find((f) => f.kind === 'mint')
    expect(mint?.evidence).toContain(getAddress(manifest.accounts!.feeWallet))
    expect(mint?.evidence).toContain('named only in its Transfer events')
    const fund = get('reserve-fund')
    expect(fund.facts.powers.findings).toEqual([])
    expect(fund.facts.powers.eventsUnread).toBeUndefined()
    expect(fund.facts.powers.ownMoves?.join(' ')).toMatch(/moved/)
    // Every zoo token keeps balances in a plain mapping that transfers move: none is left unread.
    const unread = manifest.tokens.map((t) => [t.key, get(t.key).facts.powers.eventsUnread] as const).filter(([, why]) => why)
    expect(unread).toEqual([])
  })

  it('the 24 h range comes from swaps of the last day', () => {
    const traded = manifest.tokens.filter((t) => t.pools.some((p) => (p.swaps?.last24h ?? 0) > 0))
    expect(traded.length).toBeGreaterThan(0)
    for (const t of traded) {
      const { report, facts } = get(t.key)
      const m = report.tokenInformation.marketData
      expect(m.pastOneDayHigh, t.key).not.toBe('')
      expect(Number(m.pastOneDayHigh)).toBeGreaterThanOrEqual(Number(m.pastOneDayLow))
      expect(facts.markets.dayRangeNote).toMatch(/events in the last 24 h/)
    }
  })

  it('trades on the pair a token records, where a listed exchange would not: the trap there is found, its fair twin passes', () => {
    for (const key of ['own-pair-trap', 'own-pair-fair']) {
      const { facts, report } = get(key)
      const own = facts.ownPairs?.pairs.find((p) => !p.listed)
      expect(own?.how, key).toEqual(['uniswapV2Pair()'])
      const row = report.honeypotDetails.find((h) => lower(h.pairAddress) === lower(own!.address))!
      expect(row.dex, key).toMatch(/^unlisted V2 exchange/)
      expect(row.isPairHoneypot, key).toBe(key === 'own-pair-trap' ? '1' : '0')
      if (key === 'own-pair-trap') expect(row.honeypotReason).toContain('ZooOwnPairTrap: selling to the pair is disabled')
    }
  })

  it('sells as wallets do, through the router: a token whose approve only the owner may call is a honeypot at the approve', () => {
    const gate = get('approve-gate').facts.trades[0]
    expect(gate.router?.sellOk).toBe(false)
    expect(gate.router?.sellStep).toBe('approve')
    expect(gate.honeypotReason).toMatch(/through the router .* fails at the holder's approve/)
    const reset = get('approve-reset').facts.trades[0]
    expect(reset.router?.sellOk).toBe(true)
    expect(reset.honeypot).toBe(false)
  })

  it('the largest holders of record sell their whole balance: the one frozen before the owner renounced cannot', () => {
    const frozen = get('frozen-holders')
    const sells = frozen.facts.holderSells!
    expect(sells.path).toBe('router')
    expect(sells.holders.length).toBeGreaterThan(10)
    const blocked = sells.holders.filter((h) => h.outcome === 'blocked')
    expect(blocked.map((h) => lower(h.address))).toEqual([lower(manifest.accounts!.traders[1])])
    expect(blocked[0].reason).toContain('ZooFrozenHolders: account frozen')
    expect(frozen.report.codeChecks.ownershipChecks.isBlacklisted.comment).toContain(getAddress(manifest.accounts!.traders[1]))
    const shown = frozen.report.honeypotDetails.find((h) => h.holderSells)?.holderSells
    expect(shown?.path).toBe('router')
    expect(shown?.cannotSell).toBe('1')
    expect(Number(shown?.canSell)).toBe(Number(shown?.holdersTried) - 1)
    expect(shown?.holders.find((h) => h.outcome === 'blocked')?.address).toBe(getAddress(manifest.accounts!.traders[1]))
    const twin = get('renounced-holders').facts.holderSells!
    expect(twin.holders.every((h) => h.outcome === 'sold' && h.taxPercent === 0)).toBe(true)
  })

  it('a dependency made hostile stops trades; it counts as a pause when its admin can upgrade it, not when it is fixed', () => {
    const up = get('guard-upgradeable')
    const dep = up.facts.dependencies!.list[0]
    expect(dep.stops).toMatch(/a sell fails/)
    expect(dep.upgradeable).toMatch(/EIP-1967 proxy .* its admin 0x[0-9a-fA-F]{40} can upgrade/)
    expect(up.report.codeChecks.ownershipChecks.transferPausable.comment).toContain(dep.address)
    const fixed = get('guard-fixed').facts.dependencies!.list[0]
    expect(fixed.stops).toMatch(/a sell fails/)
    expect([fixed.upgradeable, fixed.repointable, fixed.immutable]).toEqual(['', '', "its address is written in the token's code"])
  })

  it('a balance placed at creation without a Transfer is found and counted against the supply; the same share minted with its event is not', () => {
    const hidden = get('hidden-allocation')
    expect(hidden.facts.unexplainedBalances?.list.map((u) => [lower(u.address), u.percentOfSupply])).toEqual([['0x5ca1ab1e00000000000000000000000000005745', 5]])
    expect(hidden.report.tokenInformation.anomalies.join(' ')).toMatch(/holds 50000 tokens \(5% of the total supply\) that no Transfer event explains/)
    expect(get('open-allocation').facts.unexplainedBalances?.list).toEqual([])
    const flagged = manifest.tokens.filter((t) => (get(t.key).facts.unexplainedBalances?.list.length ?? 0) > 0).map((t) => t.key)
    expect(flagged).toEqual(['hidden-allocation'])
  })

  it('prices every pool from its own state, the token from its deepest pool', () => {
    for (const t of manifest.tokens) {
      const { facts } = get(t.key)
      for (const p of t.pools) {
        const got = facts.markets.pools.find((x) => lower(x.address) === lower(p.pairAddress))
        if (p.priceUsd) expect(Math.abs((got?.priceUsd ?? 0) / Number(p.priceUsd) - 1), `${t.key} ${p.quoteSymbol}`).toBeLessThan(0.001)
      }
    }
  })
})
