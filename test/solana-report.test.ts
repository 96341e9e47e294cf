import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { Address } from '@solana/kit'
import { createMemoryCache } from '../src/cache/cache.ts'
import { scanCommand } from '../src/cli/scan.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import type { SolanaManifestMint } from '@tokenrisk/devworld/solana/manifest'
import { SolanaReport } from '../src/contract/solana-report.ts'
import { SOLANA_CHECKS } from '../src/engines/solana/checks/registry.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService, type SolanaReportService } from '../src/engines/solana/service.ts'

/**
 * Every demo mint of the local world, reported through the real client over HTTP, compared field
 * by field with the world's manifest (what the token programs actually recorded).
 */

let world: StartedSolanaWorld
let service: SolanaReportService
let dataDir: string
const reports = new Map<string, SolanaReport>()

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-'))
  world = await startSolanaWorld({ dataDir })
  service = createSolanaReportService({ rpcUrls: [world.rpcUrl], cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing } })
  for (const mint of world.manifest.mints) reports.set(mint.key, await service.report(mint.address))
})

afterAll(async () => {
  await service?.close()
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const whole = (raw: string, decimals: number) => {
  const s = raw.padStart(decimals + 1, '0')
  const text = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
}
type Item = SolanaReport['codeChecks']['codeCheckDescription']['ownershipPermissionsDescription'][number]
const allChecks = (r: SolanaReport): Record<string, Item> => Object.fromEntries(Object.values(r.codeChecks.codeCheckDescription).flat().map((i) => [i.check, i]))
/** A report without the moment it was made: its time and the token's age then. */
const timeless = (r: SolanaReport) => ({
  ...r,
  tokenInformation: { ...r.tokenInformation, generalInformation: { ...r.tokenInformation.generalInformation, lastUpdated: '', tokenAgeDays: { number: '' as const, risk: 0 } } },
})
const mints = () => world.manifest.mints

describe('the local Solana world', () => {
  it('writes its manifest to <dataDir>/devnet/solana-manifest.json', async () => {
    const written = JSON.parse(await readFile(join(dataDir, 'devnet', 'solana-manifest.json'), 'utf8'))
    expect(written.rpcUrl).toBe(world.rpcUrl)
    expect(written.mints.map((m: SolanaManifestMint) => m.address)).toEqual(mints().map((m) => m.address))
  })

  it('covers every check both ways: present in one demo mint, absent in another', () => {
    for (const check of SOLANA_CHECKS) {
      const statuses = new Set(mints().map((m) => m.codeChecks[check.id as keyof SolanaManifestMint['codeChecks']]))
      expect(statuses, check.id).toEqual(new Set(['0', '1']))
    }
  })
})

describe('the report schema', () => {
  it('describes every property (the OpenAPI document is generated from it)', () => {
    const undocumented: string[] = []
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return
      const n = node as { properties?: Record<string, { description?: string }>; items?: unknown }
      for (const [key, child] of Object.entries(n.properties ?? {})) {
        if (!child.description) undocumented.push(`${path}.${key}`)
        walk(child, `${path}.${key}`)
      }
      if (n.items) walk(n.items, `${path}[]`)
    }
    walk(SolanaReport, 'SolanaReport')
    expect(undocumented).toEqual([])
  })
})

describe('Solana reports of the demo mints', () => {
  it('match the report schema', () => {
    for (const [key, report] of reports) {
      const errors = [...Value.Errors(SolanaReport, report)].map((e) => `${e.path}: ${e.message}`)
      expect(errors, key).toEqual([])
    }
  })

  it('give every code check the status the world built', () => {
    for (const mint of mints()) {
      const checks = allChecks(reports.get(mint.key)!)
      for (const [id, expected] of Object.entries(mint.codeChecks)) {
        expect(checks[id].status, `${mint.key}.${id}: ${checks[id].comment}`).toBe(expected)
        expect(checks[id].risk, `${mint.key}.${id}`).not.toBe('')
        expect(checks[id].description, `${mint.key}.${id}`).toBe(SOLANA_CHECKS.find((c) => c.id === id)!.describe[expected === '1' ? 'present' : 'absent'])
      }
    }
  })

  it('describe the mint: program, supply, decimals, authorities, metadata, extensions', () => {
    for (const mint of mints()) {
      const info = reports.get(mint.key)!.tokenInformation.generalInformation
      const supply = reports.get(mint.key)!.tokenInformation.tokenSupplyInformation
      expect(info.tokenAddress).toBe(mint.address)
      expect(info.mint).toBe(mint.address)
      expect(info.tokenProgramName, mint.key).toBe(mint.program)
      expect(info.tokenName, mint.key).toBe(mint.name)
      expect(info.tokenSymbol, mint.key).toBe(mint.symbol)
      expect(info.decimals, mint.key).toBe(String(mint.decimals))
      expect(supply.rawSupply, mint.key).toBe(mint.supply)
      expect(supply.totalSupply, mint.key).toBe(whole(mint.supply, mint.decimals))
      // An authority no one holds reads "Renounced" ("" would be one that could not be read).
      expect(info.authorities.mint, mint.key).toBe(mint.mintAuthority || 'Renounced')
      expect(info.ownerAddress, mint.key).toBe(mint.mintAuthority || 'Renounced')
      expect(info.authorities.freeze, mint.key).toBe(mint.freezeAuthority || 'Renounced')
      expect(Object.values(info.authorities).filter((a) => a === ''), mint.key).toEqual([])
      expect(info.metadata.source, mint.key).toBe(mint.metadataSource)
      expect(info.extensions, mint.key).toEqual(mint.extensions)
      expect(info.transferFee.currentBasisPoints, mint.key).toBe(mint.transferFee.currentBasisPoints)
      expect(info.transferFee.scheduledBasisPoints, mint.key).toBe(mint.transferFee.scheduledBasisPoints)
    }
  })

  it('date the mint by the transaction that initialised it and name its fee payer as creator', () => {
    for (const mint of mints()) {
      const info = reports.get(mint.key)!.tokenInformation.generalInformation
      expect(info.tokenCreationTime, mint.key).toBe(mint.creationTime)
      const [day, month, year] = info.tokenCreationDate.split('/').map(Number)
      expect(new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10), mint.key).toBe(mint.creationTime.slice(0, 10))
      expect(info.creationSignature, mint.key).toBe(mint.creationSignature)
      expect(info.creatorAddress, mint.key).toBe(mint.creator)
    }
  })

  it('list the holders by owner with balances, shares, program and burn flags, and count them', () => {
    for (const mint of mints()) {
      const holders = reports.get(mint.key)!.marketChecks.marketCheckDescription.holdersDescription
      expect(holders.holdersCount.number, mint.key).toBe(mint.holders.count)
      expect(reports.get(mint.key)!.tokenInformation.tokenSupplyInformation.tokenHoldersCount, mint.key).toBe(mint.holders.count)
      const expected = mint.holders.top.slice(0, 20)
      expect(holders.keyHolders.map((h) => h.tokenAccount), mint.key).toEqual(expected.map((h) => h.tokenAccount))
      for (const [i, h] of holders.keyHolders.entries()) {
        expect(h.address).toBe(expected[i].owner)
        expect(h.balance).toBe(whole(expected[i].balance, mint.decimals))
        expect(h.isContract, `${mint.key} ${h.address}`).toBe(expected[i].isContract)
        // Burned: locked for ever; a wallet or a pool vault: not locked; another program's account may be a locker, which is not read.
        expect(h.isLocked, `${mint.key} ${h.address}`).toBe(expected[i].isLocked ? true : expected[i].isContract && !h.tag.startsWith('pool vault') ? '' : false)
        expect(Number(h.percent)).toBeCloseTo((Number(BigInt(expected[i].balance) * 1_000_000n / BigInt(mint.supply)) / 1e4), 3)
      }
    }
  })

  it('mark burn addresses as locked and pool vaults as program-owned', () => {
    const holders = reports.get('clean-spl')!.marketChecks.marketCheckDescription.holdersDescription
    const clean = holders.keyHolders
    expect(clean.find((h) => h.tag === 'burn')).toMatchObject({ isLocked: true, address: '1nc1nerator11111111111111111111111111111111' })
    expect(clean.find((h) => h.tag.startsWith('pool vault'))).toMatchObject({ isContract: true, isLocked: false })
    expect(clean.find((h) => h.tag === 'creator')).toMatchObject({ isContract: false })
    expect([...holders.eoaHolders, ...holders.contractHolders].length).toBe(clean.filter((h) => h.isContract !== '').length)
    expect(holders.contractHolders.every((h) => h.isContract === true) && holders.eoaHolders.every((h) => h.isContract === false)).toBe(true)
  })

  it('exclude pool vaults and burn addresses from the concentration figures', () => {
    const mint = mints().find((m) => m.key === 'clean-spl')!
    const inHands = mint.holders.top.filter((h) => !h.isLocked && !h.isContract)
    const top10 = inHands.slice(0, 10).reduce((s, h) => s + BigInt(h.balance), 0n)
    const dist = reports.get('clean-spl')!.marketChecks.marketCheckDescription.holdersDescription.percentDistributed
    expect(dist.topTen.percent).toBeCloseTo(Number((top10 * 1_000_000n) / BigInt(mint.supply)) / 1e4, 3)
    const creatorBalance = whole(mint.holders.top.find((h) => h.owner === mint.creator)!.balance, mint.decimals)
    expect(dist.creator.balanceFormatted).toBe(creatorBalance)
    expect(dist.creator.balance).toBe(Number(creatorBalance))
    const burnt = mint.holders.top.filter((h) => h.isLocked).reduce((s, h) => s + BigInt(h.balance), 0n)
    expect(dist.burnt.balanceFormatted).toBe(whole(burnt.toString(), mint.decimals))
    expect(dist.other.balanceFormatted).toBe(whole((BigInt(mint.supply) - top10 - burnt).toString(), mint.decimals))
    expect(dist.locked).toEqual({ percent: '', balance: '', balanceFormatted: '', risk: 3 })
  })

  it('report a token on its launch curve as trading there, its curve outside concentration, and a graduated one with its pool', () => {
    for (const mint of mints()) {
      const report = reports.get(mint.key)!
      const market = report.marketChecks.marketCheckDescription
      const curve = market.liquidityDescription.aggregatedInformation.launchCurve
      if (!mint.curve) {
        expect(curve.state, mint.key).toBe('none')
        continue
      }
      expect(curve.state, mint.key).toBe(mint.curve.complete ? 'graduated' : 'on curve')
      expect(curve.venue, mint.key).toBe(mint.curve.venue)
      expect(curve.address, mint.key).toBe(mint.curve.address)
      expect(curve.complete, mint.key).toBe(mint.curve.complete ? '1' : '0')
      expect(Number(curve.progressPercent), mint.key).toBe(mint.curve.progressPercent)
      expect(curve.creator, mint.key).toBe(mint.curve.creator)
      expect(curve.graduatedPool, mint.key).toBe(mint.curve.graduatedPool)
      // Never "no pairs": the curve, or the pool it graduated to, is where it trades.
      expect(market.liquidityDescription.aggregatedInformation.tradingPairCount.number, mint.key).toBeGreaterThan(0)
      expect(market.liquidityDescription.aggregatedInformation.tradingPairCount.risk, mint.key).not.toBe(0)
      const vault = market.holdersDescription.keyHolders.find((h) => h.tokenAccount === mint.curve!.tokenVault)
      if (!mint.curve.complete) {
        expect(vault?.tag, mint.key).toBe(`pool vault (${mint.curve.venue})`)
        // The curve holds 60 % of the supply: concentration counts only the creator's 20 % and the wallets.
        const inHands = mint.holders.top.filter((h) => h.tokenAccount !== mint.curve!.tokenVault && !h.isLocked)
        const top10 = inHands.slice(0, 10).reduce((sum, h) => sum + BigInt(h.balance), 0n)
        expect(market.holdersDescription.percentDistributed.topTen.percent, mint.key).toBeCloseTo(Number((top10 * 1_000_000n) / BigInt(mint.supply)) / 1e4, 3)
        expect(market.holdersDescription.percentDistributed.largest.percent, mint.key).toBe(20)
      }
    }
    expect(mints().filter((m) => m.curve?.complete === false).length).toBeGreaterThan(0)
    expect(mints().filter((m) => m.curve?.complete === true).length).toBeGreaterThan(0)
    // Curves found by the pool search too, not only the one derived from the mint.
    expect(new Set(mints().map((m) => m.curve?.venue))).toEqual(new Set([undefined, 'pump.fun bonding curve', 'Raydium LaunchLab', 'Meteora DBC']))
    // A searched curve that completed: graduated, no pool, its token found in the pool it migrated to.
    for (const venue of ['Meteora DBC', 'Raydium LaunchLab']) {
      expect(mints().some((m) => m.curve?.complete && m.curve.venue === venue && m.curve.graduatedPool !== '' && !m.pools.some((p) => p.address === m.curve!.address)), venue).toBe(true)
    }
    // The pool it graduated to is the one its curve's settings name, not the deepest of the exchanges the launchpad may send it to.
    expect(mints().some((m) => m.curve?.complete && m.pools.length > 1 && m.pools[0].address !== m.curve.graduatedPool && m.pools.some((p) => p.address === m.curve!.graduatedPool))).toBe(true)
  })

  it('find the pools by exchange, their liquidity and the price, where the quote side is priced', () => {
    for (const mint of mints()) {
      const report = reports.get(mint.key)!
      const liquidity = report.marketChecks.marketCheckDescription.liquidityDescription
      const pairs = liquidity.pairByPairInformation.flatMap((d) => d.pairsInformation.map((p) => ({ ...p, dex: d })))
      expect(pairs.map((p) => p.pairAddress).sort(), mint.key).toEqual(mint.pools.map((p) => p.address).sort())
      expect(liquidity.aggregatedInformation.tradingPairCount.number, mint.key).toBe(mint.pools.length)
      for (const pool of mint.pools) {
        const pair = pairs.find((p) => p.pairAddress === pool.address)!
        expect(pair.dexName).toBe(pool.dex)
        expect(pair.dex.dexName).toBe(pool.dex)
        expect(pair.dex.numberOfPairs).toBe(mint.pools.filter((p) => p.dex === pool.dex).length)
        expect([pair.token0Address, pair.token1Address]).toEqual(pool.pair)
        expect([pair.token0Symbol, pair.token1Symbol]).toEqual(pool.pair.map((m) => (m === mint.address ? mint.symbol : pool.quoteSymbol)))
        expect(pair.rawLpSupplyInUsd as number / pool.liquidityUsd, `${mint.key} liquidity`).toBeCloseTo(1, 3)
        expect(Number(pair.lpSupplyInUsd) / pool.liquidityUsd, `${mint.key} liquidity`).toBeCloseTo(1, 3)
      }
      const supply = report.tokenInformation.tokenSupplyInformation
      if (mint.pools.length > 0) {
        expect(Number(supply.currentPriceUsd) / mint.pools[0].priceUsd, `${mint.key} price`).toBeCloseTo(1, 3)
      } else {
        expect(supply.currentPriceUsd, mint.key).toBe('')
        expect(liquidity.aggregatedInformation.totalLpSupplyInUsd.number, mint.key).toBe('0')
      }
    }
  })

  it('report the transfer fee as the tax of every pool, and honeypots per pool and per token', () => {
    for (const mint of mints()) {
      const hp = reports.get(mint.key)!.honeypotDetails
      const details = hp.pools
      const tax = mint.transferFee.currentBasisPoints ? Number(mint.transferFee.currentBasisPoints) / 100 : 0
      const flag = (f: '0' | '1') => Number(f)
      if (mint.pools.length === 0) {
        expect(details, mint.key).toHaveLength(1)
        expect(details[0].isPairHoneypot, mint.key).toBe(flag(mint.isHoneypot))
        expect(details[0].pairAddress).toBe('')
      } else {
        expect(details.map((d) => d.pairAddress), mint.key).toEqual(mint.pools.map((p) => p.address))
        details.forEach((d, i) => {
          expect(d.isPairHoneypot, `${mint.key} ${d.dex}`).toBe(flag(mint.pools[i].isPairHoneypot))
          expect(d.pair).toEqual(mint.pools[i].pair)
        })
      }
      // The deepest pool's verdict (or the token-level one) is the body's own, unless a pool traps
      // sellers: then the deepest such pool's, so that a client showing one verdict shows the trap.
      const { pools: _pools, isTokenHoneypot: _token, overAllScore: _s, overAllScorePercentage: _p, overAllMaxScore: _max, overAllMinScore: _min, ...top } = hp
      expect(top, mint.key).toEqual(details.find((d) => d.isPairHoneypot === 1) ?? details[0])
      const verdicts = mint.pools.length === 0 ? [mint.isHoneypot] : mint.pools.map((p) => p.isPairHoneypot)
      expect(hp.isTokenHoneypot, mint.key).toBe(verdicts.includes('0') ? 0 : 1)
      for (const d of details) {
        // What cannot be traded has no measurable tax ("", never a 0 that reads as fine); the
        // transfer fee of a token whose own transfers are trapped is not measurable either.
        const traded = d.isPairHoneypot !== 1
        expect([d.buyTax.number, d.sellTax.number, d.transferTax.number], mint.key).toEqual([traded ? tax : '', traded ? tax : '', mint.isHoneypot === '1' ? '' : tax])
        // Unknown: the neutral risk number, never the "" a widget draws as Critical.
        if (!traded) expect([d.buyTax.risk, d.sellTax.risk], mint.key).toEqual([3, 3])
        expect(d.honeypotReason === '', mint.key).toBe(d.isPairHoneypot === 0)
      }
    }
  })

  it('read the LP token of constant-product pools, or the position NFTs of a Whirlpool: supply, holders and the burned share', () => {
    for (const mint of mints()) {
      const lp = reports.get(mint.key)!.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
      const pool = mint.pools.find((p) => p.lpMint || p.lpHolders)
      if (!pool) {
        expect(lp.totalLpSupply, mint.key).toBe('')
        expect(lp.percentDistributed.locked.percent, mint.key).toBe('')
        continue
      }
      expect(lp.lpMint, mint.key).toBe(pool.lpMint)
      expect(lp.percentDistributed.locked.percent, mint.key).toBe(Number(pool.lpLockedPercent))
      expect(lp.percentDistributed.burnt.percent, mint.key).toBe(Number(pool.lpBurnedPercent ?? pool.lpLockedPercent))
      expect(lp.keyLpHolders.map((h) => h.address).sort(), mint.key).toEqual(pool.lpHolders ? pool.lpHolders.map((h) => h.owner).sort() : [mint.creator])
    }
  })

  it('take LP shares of the LP the pool issued: after a 90 % burn the creator holding all that is left has 10 %', () => {
    for (const mint of mints()) {
      const pool = mint.pools.find((p) => p.lpMint || p.lpHolders)
      if (!pool) continue
      const lp = reports.get(mint.key)!.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
      const creatorShare = pool.lpHolders?.find((h) => h.owner === mint.creator)?.percent ?? 100 - Number(pool.lpLockedPercent)
      expect(lp.percentDistributed.creator.percent, mint.key).toBe(creatorShare)
      expect(lp.keyLpHolders.find((h) => h.address === mint.creator)?.percent, mint.key).toBe(creatorShare)
      if (!pool.lpMint) expect([lp.lpPool, lp.lpMint], mint.key).toEqual([pool.address, ''])
    }
  })

  it('rate the largest single holder, outside pools and burn addresses', () => {
    for (const mint of mints()) {
      const report = reports.get(mint.key)!
      const vaults = new Set(report.marketChecks.marketCheckDescription.liquidityDescription.pairByPairInformation.flatMap((d) => d.pairsInformation.map((p) => p.pairAddress)))
      const inHands = mint.holders.top.filter((h) => !h.isLocked && !h.isContract)
      const largest = inHands.reduce((max, h) => (BigInt(h.balance) > max ? BigInt(h.balance) : max), 0n)
      const member = report.marketChecks.marketCheckDescription.holdersDescription.percentDistributed.largest
      expect(member.balanceFormatted, mint.key).toBe(whole(largest.toString(), mint.decimals))
      // The creator keeps 20 % of every demo mint: RISKY is past 35 %, Medium Risk past 20 %.
      expect(member.percent, mint.key).toBe(20)
      expect(member.risk, mint.key).toBe(3)
      expect(vaults.size).toBeGreaterThanOrEqual(0)
    }
  })

  it('rate the token age from the creation transaction, by the cluster\'s clock', () => {
    for (const mint of mints()) {
      const age = reports.get(mint.key)!.tokenInformation.generalInformation.tokenAgeDays
      // Measured against the world's clock, not this machine's: a saved world loaded later reads the same.
      const days = (Date.parse(world.manifest.readyTime) - Date.parse(mint.creationTime)) / 86_400_000
      expect(Math.abs((age.number as number) - days), mint.key).toBeLessThan(0.1)
      // The world's mints are about 20 to 60 days old: Nice To Have (4) from 30 days, Neutral (3) under.
      expect(age.risk, mint.key).toBe(days >= 30 ? 4 : 3)
    }
  })

  it('show which holder accounts are frozen', () => {
    for (const mint of mints()) {
      const holders = reports.get(mint.key)!.marketChecks.marketCheckDescription.holdersDescription.keyHolders
      const frozen = holders.filter((h) => h.isFrozen).map((h) => h.tokenAccount)
      const vault = mint.pools.find((p) => p.isPairHoneypot === '1' && mint.isHoneypot === '0')
      expect(frozen.length > 0, mint.key).toBe(mint.codeChecks.frozenHolders === '1')
      if (vault) expect(holders.find((h) => h.isFrozen)!.tag, mint.key).toMatch(/^pool vault/)
    }
  })

  it('flag off-chain metadata that is not fetched here ("") and metadata without a document', () => {
    for (const mint of mints()) {
      const metadata = reports.get(mint.key)!.tokenInformation.generalInformation.metadata
      expect(metadata.offChainStatus, mint.key).toBe(mint.metadataSource === '' ? 'missing' : '')
      expect(metadata.offChainReason, mint.key).not.toBe('')
    }
  })

  it('flag a mint taking a well-known token\'s symbol as a look-alike, and not that token itself nor a name that only recalls it', async () => {
    const usdc = world.manifest.pricing.stablecoins[0]
    for (const mint of mints()) {
      const info = reports.get(mint.key)!.tokenInformation.generalInformation
      expect(info.lookAlikeOf.map((t) => t.address), mint.key).toEqual(mint.codeChecks.lookAlike === '1' ? [usdc.mint] : [])
    }
    const real = await service.report(usdc.mint as Address)
    const item = Object.values(real.codeChecks.codeCheckDescription).flat().find((i) => i.check === 'lookAlike')!
    expect(item.status).toBe('0')
    expect(item.value).toMatch(/this mint is the well-known USDC/)
    expect(real.tokenInformation.generalInformation.lookAlikeOf).toEqual([])
  })

  it('name the wallets that bought in the creation slot, sniped the first seconds or were funded by the creator, and what they still hold', () => {
    for (const mint of mints()) {
      const launch = reports.get(mint.key)!.marketChecks.marketCheckDescription.holdersDescription.launch
      expect(launch.reason, mint.key).toBe('')
      expect(launch.bundled.map((w) => w.wallet).sort(), mint.key).toEqual([...mint.launch.bundled].sort())
      expect(launch.snipers.map((w) => w.wallet).sort(), mint.key).toEqual([...mint.launch.snipers].sort())
      expect(launch.insiders.map((w) => w.wallet).sort(), mint.key).toEqual([...mint.launch.insiders].sort())
      expect([launch.bundledCount, launch.sniperCount, launch.insiderCount], mint.key).toEqual([mint.launch.bundled.length, mint.launch.snipers.length, mint.launch.insiders.length])
      const flagged = new Set([...mint.launch.bundled, ...mint.launch.snipers, ...mint.launch.insiders])
      const held = mint.holders.top.filter((h) => flagged.has(h.owner)).reduce((sum, h) => sum + BigInt(h.balance), 0n)
      expect(Number(launch.heldPercent), mint.key).toBeCloseTo(Number((held * 1_000_000n) / BigInt(mint.supply)) / 1e4, 3)
      for (const w of launch.bundled) expect(w.slot, mint.key).toBe(launch.creationSlot)
    }
    expect(mints().some((m) => m.launch.bundled.length > 0)).toBe(true)
  })

  it("name the creator's earlier mints and the ones whose liquidity it pulled", () => {
    for (const mint of mints()) {
      const history = reports.get(mint.key)!.tokenInformation.generalInformation.creatorHistory
      expect(history.reason, mint.key).toBe('')
      expect(history.complete, mint.key).toBe(mint.creatorHistory.complete ? '1' : '0')
      expect(history.earlierMints.map((m) => m.mint), mint.key).toEqual(mint.creatorHistory.earlierMints)
      expect(history.liquidityPulled.map((m) => m.mint), mint.key).toEqual(mint.creatorHistory.liquidityPulled)
      // Dead ones: never traded, or a curve no one bought from; the pump.fun curves of any age from one search.
      expect(history.deadMints.map((m) => m.mint), mint.key).toEqual(mint.creatorHistory.deadMints)
      expect(history.deadMintCount, mint.key).toBe(mint.creatorHistory.deadMints.length)
      expect(history.pumpCurves, mint.key).toEqual(mint.creatorHistory.pumpCurves)
    }
    expect(mints().some((m) => m.creatorHistory.liquidityPulled.length > 0)).toBe(true)
    // Earlier mints dead and alive, none pulled; and a serial creator whose earlier mint traded: not dead.
    expect(mints().some((m) => m.creatorHistory.deadMints.length > 0 && m.creatorHistory.pumpCurves.graduated > 0)).toBe(true)
    expect(mints().some((m) => m.creatorHistory.earlierMints.length > 0 && m.creatorHistory.deadMints.length === 0)).toBe(true)
  })

  it('read liquidity locked in positions, with its unlock dates', () => {
    for (const mint of mints()) {
      const locked = reports.get(mint.key)!.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.liquidityLockedDetails
      expect(locked.reason, mint.key).toBe('')
      const pools = mint.pools.filter((p) => p.locks)
      expect(locked.lockedPools.map((l) => l.pool), mint.key).toEqual(pools.map((p) => p.address))
      for (const pool of pools) {
        const l = locked.lockedPools.find((x) => x.pool === pool.address)!
        expect([l.lockedPercent, l.permanentPercent, l.vestingPercent], mint.key).toEqual([pool.locks!.lockedPercent, pool.locks!.permanentPercent, pool.locks!.vestingPercent])
      }
      expect(locked.upcomingUnlockDetails.map((u) => ({ time: u.time, percent: u.percent })), mint.key).toEqual(pools.flatMap((p) => p.locks!.unlocks))
    }
    expect(mints().some((m) => m.pools.some((p) => p.locks))).toBe(true)
  })

  it('read LP tokens held by lock programs: locked for good, vesting with its unlock dates, and the locks that lock nothing', () => {
    for (const mint of mints()) {
      const info = reports.get(mint.key)!.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
      const pool = mint.pools.find((p) => p.lpMint || p.lpHolders)
      const entry = info.liquidityLockedDetails.lockedPools.find((l) => l.pool === pool?.address)
      if (!pool?.lockers) {
        expect(entry, mint.key).toBeUndefined()
        continue
      }
      const byHolder = (list: { holder: string; lockedPercent: number | '' }[]) => list.map((l) => `${l.holder} ${l.lockedPercent}`).sort()
      expect(byHolder(entry!.lockers), mint.key).toEqual(byHolder(pool.lockers))
      for (const truth of pool.lockers) {
        const lock = entry!.lockers.find((l) => l.holder === truth.holder)!
        expect([lock.locker, lock.notLocked === ''], mint.key).toEqual([truth.locker, truth.locked])
        // The LP holder the lock is: its token account, or the owner of it.
        const holder = info.keyLpHolders.find((h) => h.tokenAccount === truth.holder || h.address === truth.holder)!
        expect([holder.tag.startsWith(truth.locker), holder.isLocked], mint.key).toEqual([true, truth.locked])
      }
      expect(info.percentDistributed.locked.percent, mint.key).toBe(pool.locks!.lockedPercent)
    }
    // The next pools with liquidity providers are read for their locks too.
    for (const mint of mints()) {
      const info = reports.get(mint.key)!.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
      const [, ...others] = mint.pools.filter((p) => p.lpMint || p.lpHolders)
      for (const pool of others.filter((p) => p.lockers)) {
        const entry = info.liquidityLockedDetails.lockedPools.find((l) => l.pool === pool.address)
        expect(entry?.lockers.map((l) => `${l.holder} ${l.lockedPercent} ${l.locker}`).sort(), mint.key).toEqual(pool.lockers!.map((l) => `${l.holder} ${l.lockedPercent} ${l.locker}`).sort())
        expect(entry?.lockedPercent, mint.key).toBe(pool.locks!.lockedPercent)
      }
    }
    expect(mints().some((m) => m.pools.filter((p) => p.lpMint || p.lpHolders).slice(1).some((p) => p.lockers?.some((l) => l.locked)))).toBe(true)
    expect(mints().some((m) => m.pools.some((p) => p.lockers?.some((l) => l.locked)) && m.pools.some((p) => p.lockers?.some((l) => !l.locked)))).toBe(true)
    // Positions locked for good: by their own program (an Orca Whirlpool's) and by Raydium's LP lock (a CLMM position).
    for (const dex of ['Orca Whirlpool', 'Raydium CLMM']) expect(mints().some((m) => m.pools.some((p) => p.dex === dex && p.lockers?.some((l) => l.locked))), dex).toBe(true)
    // LP an AMM locks itself: a Meteora DAMM v1 pool's lock escrow.
    expect(mints().some((m) => m.pools.some((p) => p.dex === 'Meteora DAMM v1' && p.lockers?.some((l) => l.locker === 'Meteora DAMM v1 lock' && l.locked)))).toBe(true)
  })

  it('score risky mints lower in code than the clean one', () => {
    const code = (key: string) => reports.get(key)!.codeChecks.codeCheckScorePercentage
    expect(code('clean-spl')).toBe(100)
    for (const mint of mints().filter((m) => Object.values(m.codeChecks).includes('1'))) expect(code(mint.key), mint.key).toBeLessThan(100)
  })
})

describe('tokenrisk scan --chain solana', () => {
  const mint = (key: string) => mints().find((m) => m.key === key)!
  const run = async (args: string[], env: Record<string, string>) => {
    const out: string[] = []
    const err: string[] = []
    const code = await scanCommand(args, { env, out: (l: string) => out.push(l), err: (l: string) => err.push(l) })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }

  it('--json prints exactly the API body; the summary names the authorities, extensions and checks', async () => {
    const delegated = mint('t22-permanent-delegate')
    const env = { SOLANA_RPC_URL: world.rpcUrl, METADATA_FETCH: 'off' }
    const json = await run([delegated.address, '--chain', 'solana', '--json', '--data-dir', dataDir], env)
    expect(json.code).toBe(0)
    const body = JSON.parse(json.out) as SolanaReport
    expect(Value.Check(SolanaReport, body)).toBe(true)
    // The service under test prices with the world's pools; the scan, given only an RPC URL, does not.
    expect(timeless(body).tokenInformation.generalInformation).toEqual(timeless(reports.get('t22-permanent-delegate')!).tokenInformation.generalInformation)
    expect(body.tokenInformation.socialInformation).toEqual(reports.get('t22-permanent-delegate')!.tokenInformation.socialInformation)
    expect(body.codeChecks).toEqual(reports.get('t22-permanent-delegate')!.codeChecks)

    const text = await run([delegated.address, '--chain', 'solana', '--no-color', '--data-dir', dataDir], env)
    expect(text.code).toBe(0)
    expect(text.out).toContain('Delegated Coin (DLG)')
    expect(text.out).toMatch(/permanent delegate [1-9A-HJ-NP-Za-km-z]{32,44}/)
    expect(text.out).toMatch(/extensions: .*permanent/i)
    expect(text.out).toMatch(/RISK ownerChangeBalance +Permanent Delegate is Enabled/)
    for (const section of ['Score', 'Pools', 'Holders']) expect(text.out).toContain(section)
  })

  it('uses the local world the running service wrote under the data dir, and says what is missing without one', async () => {
    const clean = mint('clean-spl')
    const local = await run([clean.address, '--chain', 'solana', '--json', '--data-dir', dataDir], {})
    expect(local.code).toBe(0)
    // The scan fetches the off-chain document (the service of these tests does not): the world's
    // uri is on a reserved name, so it is flagged unreachable with the reason.
    const scanned = JSON.parse(local.out) as SolanaReport
    expect(scanned.tokenInformation.generalInformation.metadata.offChainStatus).toBe('unreachable')
    expect(scanned.tokenInformation.generalInformation.metadata.offChainReason).toMatch(/example\.invalid/)
    const unfetched = { ...scanned.tokenInformation.generalInformation.metadata, offChainStatus: '', offChainReason: reports.get('clean-spl')!.tokenInformation.generalInformation.metadata.offChainReason }
    const asService = { ...scanned, tokenInformation: { ...scanned.tokenInformation, generalInformation: { ...scanned.tokenInformation.generalInformation, metadata: unfetched } } }
    expect(timeless(asService)).toEqual(timeless(reports.get('clean-spl')!))
    const empty = await mkdtemp(join(tmpdir(), 'tokenrisk-scan-'))
    try {
      await expect(run([clean.address, '--chain', 'solana', '--data-dir', empty], {})).rejects.toThrow(/SOLANA_RPC_URL/)
    } finally {
      await rm(empty, { recursive: true, force: true })
    }
  })
})
