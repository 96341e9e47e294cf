// Where tokens trade: each venue's zoo tokens (and the V2/V3 ones the venues took over from the
// collectors) reported against the world manifest — pools found, honeypot and taxes per pool,
// every code check — within the round trips of any report.
import { toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { loadChainRegistry } from '../src/config/chains.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { checkVenues } from '../src/cli/chains.ts'
import { useZooReports } from './helpers/zoo-reports.ts'

const TAX_TOLERANCE_PP = 0.5
/** Round trips of a cold report on any venue: the bench's target. */
const MAX_ROUND_TRIPS = 3

/** The zoo tokens of the venues, and the V2/V3 ones that show the venues did not change them. */
const KEYS = [
  'clean',
  'tax-3-7-1',
  'pool-honeypot',
  'v3-only',
  'lp-locked',
  'pancake-v3-2500',
  'v4-sell-gate',
  'v4-hook-counter',
  'v4-sell-tax',
  'v4-fixed-fee',
  'v4-native',
  'solidly-volatile',
  'solidly-stable',
  'paired-base',
  'paired-only',
  'curve-clean',
  'curve-honeypot',
  'holder-pair',
  'holder-vesting',
  'holder-pair-base',
  'slipstream-only',
  'v4-owner-fee',
  'v4-steady-fee',
  'v4-pausable',
  'v4-after-tax',
  'v4-after-zero',
  'v4-routed',
  'v4-fixed-rule',
  'v4-proxy-hook',
  'v4-pause-beside-v2',
  'fourmeme-clean',
  'fourmeme-honeypot',
  'fourmeme-graduated',
  'v4-paired',
  'v4-paired-gate',
  'v4-paired-pausable',
]

const zoo = useZooReports(KEYS)

const lower = (a: string) => a.toLowerCase()

describe.each(KEYS.map((k) => [k] as const))('venue token %s', (key) => {
  const token = () => zoo.world.manifest.tokens.find((t) => t.key === key)!
  const got = () => zoo.get(key)

  it('every code check equals the manifest', () => {
    const { report } = got()
    const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks } as Record<string, { status: string; comment: string }>
    const wrong = [...OWNERSHIP_CHECKS, ...OTHER_CHECKS].filter((n) => checks[n].status !== token().codeChecks[n]).map((n) => `${n}: got ${checks[n].status} want ${token().codeChecks[n]} (${checks[n].comment})`)
    expect(wrong).toEqual([])
  })

  it('finds its pools, each with its honeypot verdict and taxes', () => {
    const { report } = got()
    const t = token()
    // The pools measured; a pool found among the holders that cannot be traded is named with "" (see below).
    const measured = report.honeypotDetails.filter((p) => p.isPairHoneypot !== '')
    expect(measured.map((p) => lower(p.pairAddress)).sort()).toEqual(t.pools.map((p) => lower(p.pairAddress)).sort())
    for (const pool of t.pools) {
      const h = report.honeypotDetails.find((p) => lower(p.pairAddress) === lower(pool.pairAddress))!
      expect(h.dex).toBe(pool.dex)
      expect(h.isPairHoneypot, `${pool.dex} ${pool.quoteSymbol} honeypot (${h.honeypotReason})`).toBe(pool.isPairHoneypot)
      if (pool.honeypotReason) expect(h.honeypotReason).toContain(pool.honeypotReason)
      else expect(h.honeypotReason).toBe('')
      const pairs: [string, string, string][] = [
        ['buy', h.buyTax.number, pool.buyTax],
        ['sell', h.sellTax.number, pool.sellTax],
        ['transfer', h.transferTax.number, pool.transferTax],
      ]
      for (const [which, value, want] of pairs) {
        if (which === 'sell' && pool.isPairHoneypot === '1') continue
        expect(value, `${pool.dex} ${which} tax`).not.toBe('')
        expect(Math.abs(Number(value) - Number(want)), `${pool.dex} ${which} tax ${value} vs ${want}`).toBeLessThanOrEqual(TAX_TOLERANCE_PP)
      }
      // A V4 pool is named by its id beside the PoolManager's address, the same in its row and in its market.
      if (pool.dex === 'Uniswap V4') expect(h.poolId, `${key} V4 pool id`).toMatch(/^0x[0-9a-f]{64}$/)
      else expect(h.poolId).toBeUndefined()
      const dex = report.marketChecks.exchangabilityChecks.availableDex.find((d) => lower(d.pair) === lower(pool.pairAddress) && d.poolId === h.poolId)!
      expect(Math.abs(Number(dex.liquidity) - Number(pool.liquidityUsd)) / Number(pool.liquidityUsd), `${pool.dex} liquidity ${dex.liquidity} vs ${pool.liquidityUsd}`).toBeLessThan(0.01)
    }
  })

  it(`needs at most ${MAX_ROUND_TRIPS} round trips`, () => {
    expect(got().stats.roundTrips).toBeLessThanOrEqual(MAX_ROUND_TRIPS)
  })
})

describe('the venues table', () => {
  it('prints venue × token: pools found, honeypot, taxes, the comment, round trips (VENUES_TABLE=1)', () => {
    if (!process.env.VENUES_TABLE) return
    const rows = KEYS.map((key) => {
      const { report, stats } = zoo.get(key)
      const pools = report.honeypotDetails.map((h) => `${h.dex} ${h.pairAddress.slice(0, 8)}… hp=${h.isPairHoneypot} buy=${h.buyTax.number} sell=${h.sellTax.number} transfer=${h.transferTax.number} ${h.honeypotReason}`)
      return `${key} | ${report.honeypotDetails.length} | ${pools.join(' ; ')} | RT ${stats.roundTrips}`
    })
    process.stdout.write(`\n${rows.join('\n')}\n`)
  })
})

describe('Uniswap V4 hooks are measured by effect and named', () => {
  const row = (key: string) => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === key)!
    const h = zoo.get(key).report.honeypotDetails.find((p) => p.dex === 'Uniswap V4')!
    return { hook: t.pools[0].hook, venue: h.venue ?? '' }
  }

  it('a hook refusing sells makes its pool a honeypot, and the report names it with its permissions', () => {
    const { hook, venue } = row('v4-sell-gate')
    expect(hook).toBeDefined()
    expect(venue).toContain(`hook ${hook} (beforeSwap)`)
    expect(venue).toContain('sells through the pool fail: ZooHookSellGate: sells are closed')
  })

  it('its twin refuses nothing and takes nothing', () => {
    const { hook, venue } = row('v4-hook-counter')
    expect(venue).toContain(`hook ${hook} (beforeSwap)`)
    expect(venue).toContain('the hook refused nothing and took nothing')
  })

  it('a V4 pool against a token that is no quote asset is traded with its hook live: the gate refuses sells, its twin nothing', () => {
    const gate = row('v4-paired-gate')
    expect(gate.venue).toContain('against PBASE')
    expect(gate.venue).toContain(`hook ${gate.hook} (beforeSwap): sells through the pool fail: ZooHookSellGate: sells are closed`)
    const counter = row('v4-paired')
    expect(counter.venue).toContain('against PBASE')
    expect(counter.venue).toContain('the hook refused nothing and took nothing')
    for (const key of ['v4-paired', 'v4-paired-gate']) {
      const { facts } = zoo.get(key)
      // Its pool was found: the PoolManager's holding is that pool, not a market of unknown figures.
      expect(facts.trades.some((t) => t.pool.custody)).toBe(false)
      expect(facts.trades.filter((t) => t.pool.v4).map((t) => t.simulated)).toEqual([true])
    }
    expect(zoo.get('v4-paired-gate').report.codeChecks.otherChecks.cannotSellAll.status).toBe('1')
  })

  it("tries the owner powers through a V4 pool against a token that is no quote asset: its hook's pause is found there", () => {
    // The token has no privileged function of its own: the powers tried are its hook's, through the pool.
    expect(zoo.get('v4-paired-pausable').facts.powers.withPool).toBe(true)
    const pause = zoo.get('v4-paired-pausable').report.codeChecks.ownershipChecks.transferPausable
    expect(pause.status).toBe('1')
    expect(pause.comment).toMatch(/^simulated: on the hook 0x[0-9a-fA-F]{40} of the Uniswap V4 pool 0x[0-9a-f]{64}/)
    expect(pause.comment).toContain(toFunctionSelector('function setPaused(bool)'))
  })

  it("a hook taking 10 % of sells through its returned delta is a 10 % sell tax on its pool; the fixed 0.3 % hook's is 0.3 %", () => {
    expect(row('v4-sell-tax').venue).toMatch(/\(beforeSwap, beforeSwapReturnDelta\): sells lose 10% of the tokens before they reach the pool, taken through the hook's returned delta/)
    expect(row('v4-fixed-fee').venue).toMatch(/sells lose 0\.3% of the tokens/)
  })

  const check = (key: string, name: 'slippageModifiable' | 'transferPausable') => zoo.get(key).report.codeChecks.ownershipChecks[name] as { status: string; comment: string }

  it("a dynamic-fee pool whose hook's owner can raise the LP fee to 100 %: the tax is modifiable, searched to 100 %, on the hook, by its owner", () => {
    const { hook, venue } = row('v4-owner-fee')
    const setFee = toFunctionSelector('function setFee(uint24)')
    expect(venue).toMatch(/a dynamic fee its hook sets/)
    expect(venue).toContain('sells lose 0.3% to the LP fee the hook sets (a dynamic fee)')
    const modifiable = check('v4-owner-fee', 'slippageModifiable')
    expect(modifiable.status).toBe('1')
    expect(modifiable.comment).toContain(`on the hook ${hook} of the Uniswap V4 pool`)
    expect(modifiable.comment).toContain(setFee)
    expect(check('v4-owner-fee', 'transferPausable').comment).toContain(`on the hook ${hook}`)
    const ceiling = zoo.get('v4-owner-fee').report.honeypotDetails[0].feeCeiling!
    expect(Number(ceiling.sellTax)).toBeGreaterThanOrEqual(99)
    expect(ceiling.function).toContain(setFee)
    expect(ceiling.summary).toContain(`owner() of the hook ${hook}`)
  })

  it('its twin, a dynamic fee its code holds at 0.3 % with no owner, raises nothing', () => {
    const { venue } = row('v4-steady-fee')
    expect(venue).toContain('sells lose 0.3% to the LP fee the hook sets (a dynamic fee)')
    expect(check('v4-steady-fee', 'slippageModifiable').status).toBe('0')
    expect(check('v4-steady-fee', 'transferPausable').status).toBe('0')
  })

  it("a hook whose owner can pause swaps stops trading: transferPausable names the hook and its function; its twin's hook has no owner functions", () => {
    const { hook } = row('v4-pausable')
    const pausable = check('v4-pausable', 'transferPausable')
    expect(pausable.status).toBe('1')
    expect(pausable.comment).toContain(`on the hook ${hook} of the Uniswap V4 pool`)
    expect(pausable.comment).toContain(toFunctionSelector('function setPaused(bool)'))
    expect(check('v4-hook-counter', 'transferPausable').status).toBe('0')
  })

  it('a cut of what sells are paid, kept after the swap, is a sell tax like the one taken before it; its twin returning a zero delta takes nothing', () => {
    expect(row('v4-after-tax').venue).toMatch(/\(afterSwap, afterSwapReturnDelta\): sells lose 10% of what the pool pays out, kept after the swap through the hook's returned delta \(afterSwap\)/)
    expect(row('v4-after-zero').venue).toMatch(/\(afterSwap, afterSwapReturnDelta\): the hook refused nothing and took nothing/)
  })

  it("who is paid a hook's cut is read from balances around a sale: its owner, an address in its code, the hook itself; a dynamic LP fee pays none of them", () => {
    const tax = row('v4-sell-tax')
    expect(tax.venue).toMatch(new RegExp(`; paid to 0x[0-9a-fA-F]{40} \\(owner\\(\\) of the hook ${tax.hook} of the Uniswap V4 pool 0x[0-9a-f]{64}\\) \\(in the token\\), by the balances read around a sale$`))
    const fixed = row('v4-fixed-fee')
    expect(fixed.venue).toMatch(new RegExp(`; paid to 0x[0-9a-fA-F]{40} \\(an address written into the code of the hook ${fixed.hook} of the Uniswap V4 pool 0x[0-9a-f]{64}\\) \\(in the token\\), by the balances`))
    const after = row('v4-after-tax')
    expect(after.venue).toMatch(new RegExp(`; paid to the hook ${after.hook} of the Uniswap V4 pool 0x[0-9a-f]{64} itself \\(in WETH\\), by the balances`))
    expect(row('v4-steady-fee').venue).toContain("none of the hook's accounts gained over a sale")
  })

  it("a hook its owner can point at another contract is said in the pool's words, and stops trading when pointed at one that refuses; its twin's rule is fixed", () => {
    const { hook, venue } = row('v4-routed')
    const setRule = toFunctionSelector('function setRule(address)')
    expect(venue).toMatch(new RegExp(`privileged calls on the hook change trading: .*${setRule}.* stops trading .*it takes an address, the contract can be pointed elsewhere`))
    const pausable = check('v4-routed', 'transferPausable')
    expect(pausable.status).toBe('1')
    expect(pausable.comment).toContain(`on the hook ${hook}`)
    expect(row('v4-fixed-rule').venue).not.toContain('privileged calls on the hook')
    expect(check('v4-fixed-rule', 'transferPausable').status).toBe('0')
  })

  it("a hook behind a proxy is said upgradeable by its admin; reverting code in its place stops sales, so its admin can stop trading; its implementation's functions unread leave the trading powers unknown", () => {
    const { hook, venue } = row('v4-proxy-hook')
    expect(venue).toMatch(/; the hook is an EIP-1967 proxy running the code of 0x[0-9a-fA-F]{40}: its admin 0x[0-9a-fA-F]{40} can replace it/)
    const pausable = check('v4-proxy-hook', 'transferPausable')
    expect(pausable.status).toBe('1')
    expect(pausable.comment).toContain(`on the hook ${hook}`)
    expect(pausable.comment).toContain("with code that reverts in its place, a holder's sale into the pool fails")
    const modifiable = check('v4-proxy-hook', 'slippageModifiable')
    expect(modifiable.status).toBe('')
    expect(modifiable.comment).toContain(`the functions of the hook ${hook}`)
    expect(row('v4-hook-counter').venue).not.toContain('proxy')
    const beside = zoo.get('v4-pause-beside-v2').report
    expect(beside.honeypotDetails.map((h) => h.dex).sort()).toEqual(['Uniswap V2', 'Uniswap V4'])
    expect(check('v4-pause-beside-v2', 'transferPausable').comment).toContain('setPaused(bool)')
    expect(row('v4-pausable').venue).toContain(`privileged calls on the hook change trading: setPaused(bool) [${toFunctionSelector('function setPaused(bool)')}] stops trading`)
  })

  it('a pool against the native coin itself is found, priced and traded', () => {
    const { venue } = row('v4-native')
    expect(venue).toMatch(/against the native coin, a 0\.3% LP fee; no hook$/)
    const t = zoo.world.manifest.tokens.find((x) => x.key === 'v4-native')!
    expect(t.pools[0].quoteToken).toBe('0x0000000000000000000000000000000000000000')
  })
})

describe('tokenrisk chains check lists the venues', () => {
  it("every venue of the local world answers at its address; a venue configured at another venue's address does not", async () => {
    const chain = loadChainRegistry({ chains: localChains(zoo.world.manifest) }).servable().find((c) => c.chainId === 31337)!
    const venues = await checkVenues(chain)
    expect(venues.map((v) => v.type).sort()).toEqual(['four-meme', 'launchpad', 'pancake-v3', 'slipstream', 'solidly', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'])
    for (const v of venues) expect(v.answers, `${v.name}: ${v.detail}`).toBe(true)
    expect(venues.find((v) => v.type === 'pancake-v3')!.detail).toBe('feeAmountTickSpacing(10000): tier 10000 spaced 200')
    expect(venues.find((v) => v.type === 'slipstream')!.detail).toBe('getPool(a, b, 1): pools named by tick spacing (1, 50, 100, 200, 2000)')
    expect(venues.find((v) => v.type === 'launchpad')!.detail).toBe('graduationTarget(): curves graduate at 40 of the native coin')
    expect(venues.find((v) => v.type === 'four-meme')!.detail).toBe('getTokenInfo(0x0) on its helper: a four.meme-interface helper (address zero: version 0, manager 0x0000000000000000000000000000000000000000)')
    const v2 = chain.dexes.find((d) => d.type === 'uniswap-v2')!
    const misplaced = await checkVenues({ ...chain, dexes: [{ ...v2, name: 'V4 at the V2 factory', type: 'uniswap-v4' }] })
    expect(misplaced[0].answers).toBe(false)
    if (process.env.VENUES_TABLE) process.stdout.write(`\n${venues.map((v) => `${v.name} (${v.type}) at ${v.address}: ${v.answers ? 'answers' : 'DOES NOT ANSWER'} — ${v.detail}`).join('\n')}\n`)
  })
})

describe('Aerodrome-style pools', () => {
  it('finds the volatile and the stable pool, each priced on its own curve, its fee from the factory', () => {
    const volatile = zoo.get('solidly-volatile')
    const stable = zoo.get('solidly-stable')
    expect(volatile.report.honeypotDetails[0].venue).toMatch(/^volatile \(x·y\) pool 0x[0-9a-fA-F]{40}, a 0\.3% fee set by its factory$/)
    expect(stable.report.honeypotDetails[0].venue).toMatch(/^stable \(x³y \+ y³x\) pool 0x[0-9a-fA-F]{40}, a 0\.05% fee set by its factory$/)
    // Seeded dollar for dollar: the stable curve prices the token at 1 USD (a volatile curve would too; the manifest measures the curve).
    const price = Number(stable.facts.markets.pools[0].priceUsd)
    const want = Number(zoo.world.manifest.tokens.find((t) => t.key === 'solidly-stable')!.pools[0].priceUsd)
    expect(Math.abs(price - want) / want).toBeLessThan(0.001)
  })
})

describe('launchpad curves', () => {
  const curveOf = (key: string) => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === key)!
    const { report, facts } = zoo.get(key)
    return { t, h: report.honeypotDetails.find((p) => p.dex === 'tokenrisk Launchpad')!, report, facts }
  }

  it('a token still on its curve trades there: named with its launchpad and how far it is from graduating, never as having no pool', () => {
    const { t, h, report, facts } = curveOf('curve-clean')
    const curve = t.pools[0].curve!
    const raised = Number(BigInt(curve.raisedWei) / 10n ** 15n) / 1000
    expect(h.venue).toContain(`on the bonding curve of tokenrisk Launchpad ${t.pools[0].pairAddress} (a launchpad; no DEX pool yet): ${raised} of the 40 ETH it must raise to graduate raised (${Number((BigInt(curve.raisedWei) * 10_000n) / BigInt(curve.targetWei)) / 100}%)`)
    expect(h.venue).toContain('a 1% fee kept from the ETH of each trade; buys from the curve and sells back to it went through')
    expect(h.isPairHoneypot).toBe('0')
    expect(facts.markets.liquidityUsd).toBeGreaterThan(0)
    expect(JSON.stringify(report)).not.toMatch(/no pool was found|the token has no pool/)
  })

  it('its look-alike on the same launchpad refuses sells back to the curve: a honeypot measured there, the revert named', () => {
    const { h } = curveOf('curve-honeypot')
    expect(h.isPairHoneypot).toBe('1')
    expect(h.venue).toContain('sells back to the curve fail: ZooCurveGate: selling to the curve is disabled')
  })
})

describe('pools wherever the token sits', () => {
  it("a V2 pair of a factory the chain entry does not list is found among the token's holders, priced and traded there", () => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === 'holder-pair')!
    const { report, facts } = zoo.get('holder-pair')
    const pair = t.pools[0]
    expect(pair.dex).toBe(`unlisted V2 exchange (factory ${zoo.world.manifest.contracts.unlistedV2Factory})`)
    const h = report.honeypotDetails.find((p) => lower(p.pairAddress) === lower(pair.pairAddress))!
    expect(h.isPairHoneypot).toBe('0')
    expect(h.venue).toContain('found among its largest holders and traded directly')
    expect(Math.abs(Number(facts.markets.priceUsd) - Number(pair.priceUsd)) / Number(pair.priceUsd)).toBeLessThan(0.001)
    expect(JSON.stringify(report)).not.toMatch(/no pool was found|the token has no pool/)
  })

  it("a pair among the holders against a token that is no quote asset is traded by buying that token through its own WETH pool, and priced through it", () => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === 'holder-pair-base')!
    const base = zoo.world.manifest.tokens.find((x) => x.key === 'paired-base')!
    const { report, facts } = zoo.get('holder-pair-base')
    const h = report.honeypotDetails.find((p) => lower(p.pairAddress) === lower(t.pools[0].pairAddress))!
    expect(h.isPairHoneypot).toBe('0')
    expect(h.venue).toContain(`its other token bought and priced through its pool ${base.pools[0].pairAddress} against WETH`)
    expect(Math.abs(Number(facts.markets.priceUsd) - Number(t.pools[0].priceUsd)) / Number(t.pools[0].priceUsd)).toBeLessThan(0.001)
  })

  it('a pool among the holders against a token that is no quote asset and has no WETH pool is named, with "" and the reason, never as no liquidity', () => {
    const base = zoo.get('paired-base').report
    const only = zoo.world.manifest.tokens.find((x) => x.key === 'paired-only')!
    const h = base.honeypotDetails.find((p) => lower(p.pairAddress) === lower(only.pools[0].pairAddress))!
    expect(h.dex).toBe('Uniswap V2')
    expect(h.isPairHoneypot).toBe('')
    expect(h.honeypotReason).toContain(`its other token ${only.address} is none of the chain's quote assets`)
  })

  it('a contract holder whose token0() names the token but that is no pair is not called a pool', () => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === 'holder-vesting')!
    const { report, facts } = zoo.get('holder-vesting')
    const vesting = facts.holders.top.find((h) => h.isContract && !t.pools.some((p) => lower(p.pairAddress) === lower(h.address)))
    expect(vesting, 'the vesting contract among the largest holders').toBeDefined()
    expect(report.honeypotDetails.map((p) => lower(p.pairAddress))).not.toContain(lower(vesting!.address))
    expect(report.honeypotDetails.map((p) => p.dex)).toEqual(['Uniswap V2'])
  })
})

describe('Aerodrome Slipstream-style concentrated pools', () => {
  it('finds the pool by its tick spacing, its fee from the pool, and says so', () => {
    const { report, facts } = zoo.get('slipstream-only')
    expect(report.honeypotDetails).toHaveLength(1)
    expect(report.honeypotDetails[0].dex).toBe('Aerodrome Slipstream')
    expect(report.honeypotDetails[0].venue).toMatch(/^concentrated pool 0x[0-9a-fA-F]{40} named by its tick spacing, a 0\.3% fee the pool states$/)
    expect(facts.markets.pools[0].fee).toBe(3000)
    // A token without a Slipstream pool is not given one: the clean token's pools are V2/V3 only.
    expect(zoo.get('clean').report.honeypotDetails.map((h) => h.dex)).not.toContain('Aerodrome Slipstream')
  })
})

describe('four.meme-interface curves', () => {
  const curveOf = (key: string) => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === key)!
    const { report, facts } = zoo.get(key)
    return { t, h: report.honeypotDetails.find((p) => p.dex === 'four.meme-interface Launchpad'), report, facts }
  }
  const percent = (part: bigint, whole: bigint) => Number((part * 10_000n) / whole) / 100

  it("a token on its curve is found through the helper's getTokenInfo and traded on the manager: named with how far it is from graduating and its fee, never as having no pool", () => {
    const { t, h, report, facts } = curveOf('fourmeme-clean')
    expect(h, 'the curve among the pools').toBeDefined()
    expect(lower(h!.pairAddress)).toBe(lower(zoo.world.manifest.contracts.fourMemeManager!))
    const raised = BigInt(t.pools[0].curve!.raisedWei)
    const target = BigInt(t.pools[0].curve!.targetWei)
    const funds = Number(raised / 10n ** 14n) / 10_000
    expect(h!.venue).toContain(`on the four.meme-interface bonding curve of four.meme-interface Launchpad ${t.pools[0].pairAddress} (a launchpad; no DEX pool yet): ${funds} of the 24 ETH it must raise to graduate raised (${percent(raised, target)}%)`)
    expect(h!.venue).toMatch(/, \d+ of its 900000 tokens on offer sold \([0-9.]+%\); a 1% fee \(at least 0\.0001 ETH\) kept from each trade; buys from the curve and sells back to it went through$/)
    expect(h!.isPairHoneypot).toBe('0')
    expect(facts.markets.liquidityUsd).toBeGreaterThan(0)
    // Priced by the curve's last price, as the manager states it.
    expect(Math.abs(Number(facts.markets.priceUsd) - Number(t.pools[0].priceUsd)) / Number(t.pools[0].priceUsd)).toBeLessThan(0.001)
    expect(JSON.stringify(report)).not.toMatch(/no pool was found|the token has no pool/)
  })

  it('its look-alike on the same manager refuses sells back to the curve: a honeypot measured there, the revert named', () => {
    const { h } = curveOf('fourmeme-honeypot')
    expect(h!.isPairHoneypot).toBe('1')
    expect(h!.venue).toContain('sells back to the curve fail: ZooCurveGate: selling to the curve is disabled')
  })

  it('a token whose curve graduated (liquidity added) is not reported on the closed curve: its DEX pool is its market', () => {
    const t = zoo.world.manifest.tokens.find((x) => x.key === 'fourmeme-graduated')!
    const { report } = zoo.get('fourmeme-graduated')
    expect(curveOf('fourmeme-graduated').h).toBeUndefined()
    expect(report.honeypotDetails.map((p) => lower(p.pairAddress))).toEqual([lower(t.pools[0].pairAddress)])
    expect(report.honeypotDetails[0].dex).toBe('Uniswap V2')
  })

  it('a token the manager never launched has no curve there, and the other launchpad does not claim its tokens', () => {
    expect(curveOf('clean').h).toBeUndefined()
    expect(curveOf('curve-clean').h).toBeUndefined()
    expect(zoo.get('fourmeme-clean').report.honeypotDetails.map((p) => p.dex)).toEqual(['four.meme-interface Launchpad'])
  })
})
