import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import type { SolanaManifestMint } from '@tokenrisk/devworld/solana/manifest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { createSolanaReportService } from '../src/engines/solana/service.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

/**
 * The Solana answers as a client of the published Solana body reads them: the body is fetched over
 * HTTP and parsed as plain JSON (no tokenrisk type), only the field paths docs/compat.md lists for
 * that body are read, with the JSON types clients expect, and what a client would show is compared
 * with the world's ground truth for every mint of the Solana zoo.
 */

type Json = Record<string, unknown>
let world: StartedSolanaWorld
let dataDir: string
let t: TestStore
let api: TestApp
const bodies = new Map<string, Json>()

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-compat-'))
  world = await startSolanaWorld({ dataDir })
  const solana = createSolanaReportService({ rpcUrls: [world.rpcUrl], cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing } })
  const evm = { report: async () => Promise.reject(new Error('unused')), chains: () => [], ping: async () => {}, close: async () => {} }
  t = await embeddedStore()
  api = await buildTestApp(t.store, { tokens: { evm, solana } })
  const key = (await api.keys.create({ userId: 'solana-client' })).key
  for (const mint of world.manifest.mints) {
    const res = await api.app.inject({ url: `/api/v1/tokens/solana/${mint.address}`, headers: { 'x-api-key': key } })
    expect(res.statusCode, mint.key).toBe(200)
    bodies.set(mint.key, JSON.parse(res.body) as Json)
  }
}, 240_000)

afterAll(async () => {
  await api?.app.close()
  await t?.cleanup()
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** The value at a dotted path (`a.b[0].c`), as a client's property accesses reach it. */
function at(body: unknown, path: string): unknown {
  let node: unknown = body
  for (const part of path.split(/\.|(?=\[)/)) {
    if (node === null || typeof node !== 'object') return undefined
    const index = /^\[(\d+)\]$/.exec(part)
    node = index ? (node as unknown[])[Number(index[1])] : (node as Json)[part]
  }
  return node
}

/** The JSON type a path must have in the published body: "" is always allowed (unknown). */
const PATHS: Record<string, 'str' | 'num' | 'arr' | 'obj' | 'bool'> = {
  'tokenInformation.generalInformation.lastUpdated': 'str',
  'tokenInformation.generalInformation.tokenAddress': 'str',
  'tokenInformation.generalInformation.mint': 'str',
  'tokenInformation.generalInformation.chainId': 'str',
  'tokenInformation.generalInformation.chainName': 'str',
  'tokenInformation.generalInformation.tokenName': 'str',
  'tokenInformation.generalInformation.tokenSymbol': 'str',
  'tokenInformation.generalInformation.tokenImageLink': 'str',
  'tokenInformation.generalInformation.tokenCreationDate': 'str',
  'tokenInformation.generalInformation.ownerAddress': 'str',
  'tokenInformation.generalInformation.categories': 'arr',
  'tokenInformation.generalInformation.creatorAddress': 'str',
  'tokenInformation.tokenSupplyInformation.centralisedExchanges': 'arr',
  'tokenInformation.tokenSupplyInformation.tokenHoldersCount': 'num',
  'tokenInformation.tokenSupplyInformation.totalSupply': 'str',
  'tokenInformation.tokenSupplyInformation.currentPriceUsd': 'str',
  'tokenInformation.tokenSupplyInformation.marketCapUsd': 'str',
  'tokenInformation.tokenSupplyInformation.pastOneDayHigh': 'str',
  'tokenInformation.tokenSupplyInformation.pastOneDayLow': 'str',
  'tokenInformation.socialInformation.githubLinks': 'arr',
  'tokenInformation.socialInformation.reddit.name': 'str',
  'tokenInformation.socialInformation.reddit.url': 'str',
  'tokenInformation.socialInformation.facebook.name': 'str',
  'tokenInformation.socialInformation.twitter.name': 'str',
  'tokenInformation.socialInformation.twitter.url': 'str',
  'tokenInformation.socialInformation.telegram.name': 'str',
  'tokenInformation.socialInformation.discord.url': 'str',
  'tokenInformation.socialInformation.website.url': 'str',
  'tokenInformation.socialInformation.externalLinks.coinGeckoLink': 'str',
  'tokenInformation.socialInformation.externalLinks.blockExplorerLink': 'str',
  'tokenInformation.socialInformation.externalLinks.geckoTerminal': 'str',
  'tokenInformation.totalChecksInformation.totalChecks': 'num',
  'tokenInformation.totalChecksInformation.checksPerformed': 'num',
  'tokenInformation.totalChecksInformation.aggregatedCount': 'arr',
  'codeChecks.maxCodeCheckScore': 'num',
  'codeChecks.minCodeCheckScore': 'num',
  'codeChecks.codeCheckScore': 'num',
  'codeChecks.availableChecks': 'num',
  'codeChecks.checksPerformed': 'num',
  'codeChecks.codeCheckScorePercentage': 'num',
  'codeChecks.codeCheckDescription.ownershipPermissionsDescription': 'arr',
  'codeChecks.codeCheckDescription.externalContractDescription': 'arr',
  'codeChecks.codeCheckDescription.transactionLimitersDescription': 'arr',
  'marketChecks.minMarketCheckScore': 'num',
  'marketChecks.maxMarketCheckScore': 'num',
  'marketChecks.marketCheckScore': 'num',
  'marketChecks.availableChecks': 'num',
  'marketChecks.checksPerformed': 'num',
  'marketChecks.marketCheckScorePercentage': 'num',
  'marketChecks.marketCheckDescription.holdersDescription.holdersCount.number': 'num',
  'marketChecks.marketCheckDescription.holdersDescription.holdersCount.risk': 'num',
  'marketChecks.marketCheckDescription.holdersDescription.keyHolders': 'arr',
  'marketChecks.marketCheckDescription.holdersDescription.eoaHolders': 'arr',
  'marketChecks.marketCheckDescription.holdersDescription.contractHolders': 'arr',
  'marketChecks.marketCheckDescription.holdersDescription.percentDistributed.topThree.percent': 'num',
  'marketChecks.marketCheckDescription.holdersDescription.percentDistributed.topTen.percent': 'num',
  'marketChecks.marketCheckDescription.holdersDescription.percentDistributed.owner.balanceFormatted': 'str',
  'marketChecks.marketCheckDescription.holdersDescription.percentDistributed.creator.balanceFormatted': 'str',
  'marketChecks.marketCheckDescription.holdersDescription.percentDistributed.creator.balance': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.totalLpSupplyInUsd.number': 'str',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.totalLpSupplyInUsd.risk': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.lpHolderCount.number': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.tradingPairCount.number': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.tradingPairCount.risk': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.keyLpHolders': 'arr',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.liquidityLockedDetails.upcomingUnlockDetails': 'arr',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.percentDistributed.locked.percent': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.percentDistributed.locked.balanceFormatted': 'str',
  'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.percentDistributed.locked.risk': 'num',
  'marketChecks.marketCheckDescription.liquidityDescription.pairByPairInformation': 'arr',
  'honeypotDetails.overAllScore': 'num',
  'honeypotDetails.overAllScorePercentage': 'num',
  'honeypotDetails.overAllMaxScore': 'num',
  'honeypotDetails.overAllMinScore': 'num',
  'honeypotDetails.buyTax.number': 'num',
  'honeypotDetails.buyTax.risk': 'num',
  'honeypotDetails.sellTax.number': 'num',
  'honeypotDetails.transferTax.number': 'num',
  'honeypotDetails.token0Symbol': 'str',
  'honeypotDetails.token1Symbol': 'str',
  'honeypotDetails.isPairHoneypot': 'num',
  'honeypotDetails.honeypotReason': 'str',
  'honeypotDetails.dex': 'str',
  'honeypotDetails.pair': 'arr',
  'honeypotDetails.pairAddress': 'str',
}

const typeOf = (v: unknown) => (Array.isArray(v) ? 'arr' : v === null ? 'null' : typeof v === 'number' ? 'num' : typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : 'obj')
const mints = () => world.manifest.mints
const body = (m: SolanaManifestMint) => bodies.get(m.key)!
/** A client's number: what parseFloat makes of the value. */
const parsed = (v: unknown) => Number.parseFloat(String(v))
type Item = { heading: string; description: string; risk: unknown; tags: unknown; value: unknown }
const ownership = (m: SolanaManifestMint) => at(body(m), 'codeChecks.codeCheckDescription.ownershipPermissionsDescription') as Item[]
const headings = (m: SolanaManifestMint) =>
  ['ownershipPermissionsDescription', 'externalContractDescription', 'transactionLimitersDescription'].flatMap((s) => (at(body(m), `codeChecks.codeCheckDescription.${s}`) as Item[]).map((i) => i.heading))

describe('the published Solana body, read by its field paths', () => {
  it('has every listed path with the JSON type clients expect ("" where unknown) on every mint of the zoo', () => {
    const wrong: string[] = []
    for (const m of mints()) {
      for (const [path, type] of Object.entries(PATHS)) {
        const v = at(body(m), path)
        if (typeOf(v) !== type && v !== '') wrong.push(`${m.key} ${path}: ${JSON.stringify(v)} is not ${type}`)
      }
      for (const section of ['ownershipPermissionsDescription', 'externalContractDescription', 'transactionLimitersDescription']) {
        for (const [i, item] of (at(body(m), `codeChecks.codeCheckDescription.${section}`) as Item[]).entries()) {
          const types = [typeOf(item.heading), typeOf(item.description), item.risk === '' ? 'num' : typeOf(item.risk), typeOf(item.tags), typeOf(item.value)]
          if (types.join() !== 'str,str,num,arr,str') wrong.push(`${m.key} ${section}[${i}]: ${types.join()}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('scores parse as numbers, percentages where they can be', () => {
    for (const m of mints()) {
      for (const path of ['honeypotDetails.overAllScorePercentage', 'codeChecks.codeCheckScorePercentage', 'codeChecks.codeCheckScore', 'marketChecks.marketCheckScore']) {
        const v = at(body(m), path)
        expect(typeof v, `${m.key} ${path}`).toBe('number')
        expect(Number.isFinite(parsed(v)), `${m.key} ${path}`).toBe(true)
      }
      // The published scale is 0–100: a widget shows "-1.85%" for -0.85.
      expect(parsed(at(body(m), 'honeypotDetails.overAllScorePercentage')), m.key).toBeLessThanOrEqual(100)
      expect(parsed(at(body(m), 'honeypotDetails.overAllScorePercentage')), m.key).toBeGreaterThanOrEqual(0)
    }
  })

  it('counts risks under the names clients look up, Critical first', () => {
    for (const m of mints()) {
      const counts = at(body(m), 'tokenInformation.totalChecksInformation.aggregatedCount') as { id: number; name: string; count: number }[]
      expect(counts.slice(0, 4).map((c) => c.name), m.key).toEqual(['Critical', 'RISKY', 'Medium Risk', 'Neutral'])
      expect(counts.every((c) => Number.isInteger(c.count) && c.count >= 0), m.key).toBe(true)
      expect(counts.reduce((s, c) => s + c.count, 0), m.key).toBeLessThanOrEqual(at(body(m), 'tokenInformation.totalChecksInformation.checksPerformed') as number)
    }
  })
})

describe('what a client shows, against the ground truth', () => {
  it('names the token, its creation day, owner and creator', () => {
    for (const m of mints()) {
      const g = (p: string) => at(body(m), `tokenInformation.generalInformation.${p}`)
      expect([g('tokenName'), g('tokenSymbol'), g('tokenAddress')], m.key).toEqual([m.name, m.symbol, m.address])
      // Read as DD/MM/YYYY.
      const [day, month, year] = String(g('tokenCreationDate')).split('/')
      expect(`${year}-${month}-${day}`, m.key).toBe(m.creationTime.slice(0, 10))
      // The widget's ownership cell: the address, "Renounced" (a revoked mint authority), or its
      // unknown mark for "" — which the mint account, always read, never leaves.
      expect(g('ownerAddress'), m.key).toBe(m.mintAuthority === '' ? 'Renounced' : m.mintAuthority)
      expect(g('creatorAddress'), m.key).toBe(m.creator)
    }
  })

  it('reads mint and freeze authority, metadata mutability and the transfer fee from the first four items, by index and by text', () => {
    for (const m of mints()) {
      const items = ownership(m)
      // By index and exact heading.
      expect(items[0].heading === 'Token Minting Authority is Enabled', m.key).toBe(m.codeChecks.isMintable === '1')
      expect(items[1].heading === 'Token Freezing Authority is Enabled', m.key).toBe(m.codeChecks.isFreezable === '1')
      expect(items[2].heading === 'Token Metadata is Mutable', m.key).toBe(m.codeChecks.metadataMutable === '1')
      // By substring, anywhere in the list.
      const all = headings(m)
      expect(all.some((h) => h.includes('Minting Authority') && h.includes('Disabled')), m.key).toBe(m.codeChecks.isMintable === '0')
      expect(all.some((h) => h.includes('Transfer Fee') && h.includes('not Modifiable')), m.key).toBe(m.codeChecks.transferFeeModifiable === '0')
      expect(items[3].heading.includes('Transfer Fee'), m.key).toBe(true)
      // A client that reads the transfer-fee item's risk 0 as "the fee can take everything".
      expect(items[3].risk === 0, m.key).toBe(m.codeChecks.transferFeeModifiable === '1')
    }
  })

  it('flags paused, frozen-by-default and non-transferable mints as honeypots, with a reason', () => {
    const trapped = mints().filter((m) => m.isHoneypot === '1')
    expect(trapped.map((m) => m.key).sort()).toEqual(['t22-default-frozen', 't22-non-transferable', 't22-paused'])
    for (const m of trapped) {
      expect(at(body(m), 'honeypotDetails.isPairHoneypot'), m.key).toBe(1)
      expect(at(body(m), 'honeypotDetails.honeypotReason'), m.key).not.toBe('')
      // A sale that cannot happen has no tax to show, never a 0 that reads as fine.
      expect(at(body(m), 'honeypotDetails.sellTax.number'), m.key).toBe('')
    }
    expect(headings(mints().find((m) => m.key === 't22-paused')!)).toContain('Transfers are Paused')
    expect(headings(mints().find((m) => m.key === 't22-non-transferable')!)).toContain('Token is Non-Transferable')
    expect(headings(mints().find((m) => m.key === 't22-default-frozen')!)).toContain('New Token Accounts Start Frozen')
    for (const m of mints().filter((x) => x.isHoneypot === '0')) {
      const verdict = m.pools.length > 0 ? Number(m.pools[0].isPairHoneypot) : 0
      expect(at(body(m), 'honeypotDetails.isPairHoneypot'), m.key).toBe(verdict)
    }
  })

  it('shows the clean mint without powers', () => {
    const clean = mints().find((m) => m.key === 'clean-spl')!
    const all = headings(clean)
    expect(all.slice(0, 4)).toEqual(['Token Minting Authority is Disabled', 'Token Freezing Authority is Disabled', 'Token Metadata is Immutable', 'Transfer Fee is not Modifiable'])
    // Every heading reads as the safe state: a power disabled, a behaviour absent.
    expect(all.filter((h) => !/Disabled$|Immutable$|not Modifiable$|not Paused$|^No |^Token is Transferable$|Start Unfrozen$/.test(h))).toEqual([])
    expect(at(body(clean), 'tokenInformation.generalInformation.ownerAddress')).toBe('Renounced')
    expect(at(body(clean), 'honeypotDetails.isPairHoneypot')).toBe(0)
    expect(at(body(clean), 'honeypotDetails.buyTax.number')).toBe(0)
    expect(at(body(clean), 'codeChecks.codeCheckScore')).toBe(at(body(clean), 'codeChecks.maxCodeCheckScore'))
  })

  it('shows the transfer fee as the tax, holders, pairs and liquidity as the world set them', () => {
    for (const m of mints()) {
      const fee = m.transferFee.currentBasisPoints ? Number(m.transferFee.currentBasisPoints) / 100 : 0
      if (m.isHoneypot === '0' && (m.pools.length === 0 || m.pools[0].isPairHoneypot === '0')) {
        expect(parsed(at(body(m), 'honeypotDetails.buyTax.number') ?? 0), m.key).toBe(fee)
      }
      expect(at(body(m), 'marketChecks.marketCheckDescription.holdersDescription.holdersCount.number'), m.key).toBe(m.holders.count)
      expect(at(body(m), 'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.tradingPairCount.number'), m.key).toBe(m.pools.length)
      const dexes = at(body(m), 'marketChecks.marketCheckDescription.liquidityDescription.pairByPairInformation') as { numberOfPairs: number; pairsInformation: { pairAddress: string }[] }[]
      expect(dexes.reduce((s, d) => s + d.numberOfPairs, 0), m.key).toBe(m.pools.length)
      const lp = m.pools.find((p) => p.lpMint || p.lpHolders)
      const locked = at(body(m), 'marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation.percentDistributed.locked.percent')
      expect(locked, m.key).toBe(lp ? Number(lp.lpLockedPercent) : '')
      if (m.pools.length > 0) {
        expect(at(body(m), 'honeypotDetails.pairAddress'), m.key).toBe(m.pools[0].address)
        expect(at(body(m), 'honeypotDetails.pair'), m.key).toEqual(m.pools[0].pair)
        expect([at(body(m), 'honeypotDetails.token0Symbol'), at(body(m), 'honeypotDetails.token1Symbol')], m.key).toEqual(
          m.pools[0].pair.map((x) => (x === m.address ? m.symbol : m.pools[0].quoteSymbol)),
        )
      }
    }
  })
})
