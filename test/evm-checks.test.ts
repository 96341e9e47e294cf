// The EVM checks' metadata and the pure reasoning behind them: docs/checks.md generated from the
// metadata, the sentence of every check (EVM and Solana) for each of its statuses, owner-power
// effects read from measurements, calldata variants, revert reasons.
import { readFileSync } from 'node:fs'
import { encodeErrorResult, encodeFunctionData, getAddress, keccak256, parseAbi, toFunctionSelector, toHex, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { CHECKS_DOC, checksDocSections } from '../scripts/gen-docs.ts'
import type { CodeAnalysis } from '../src/engines/evm/chain/bytecode.ts'
import { AMOUNT_PLACEHOLDER, NO_ROUTE, PROBE_ADDRESSES, encodeAccounts, encodeLocks, encodePools, encodePowers, encodePowersReplay, encodeReads, isReaderCall, probeCode, readerOverride, type Measure, type Outcome, type PowerResult } from '../src/engines/evm/chain/probe.ts'
import { decodeRevert, isProbeReason } from '../src/engines/evm/chain/revert.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { EVM_CHECKS } from '../src/engines/evm/checks/registry.ts'
import { candidateFunctions, effectsOf, functionVariants, grantCalls, interpretPowers, mergePowers, roleConstants, unaskedFalls, watchList } from '../src/engines/evm/collect/powers.ts'
import { transferPausable } from '../src/engines/evm/checks/transfer-pausable.ts'
import { isMintable } from '../src/engines/evm/checks/is-mintable.ts'
import { eventEffect, movesWithTransfers, slotDelta, transferAccounts } from '../src/engines/evm/collect/power-trace.ts'
import { renderChecksDoc } from '../src/report/checks-doc.ts'
import { ABSENT_LABEL, renderCheck, type CheckDefinition } from '../src/report/define-check.ts'
import { SOLANA_CHECKS } from '../src/engines/solana/checks/registry.ts'
import { statusWord } from '../src/cli/scan.ts'
import { cannotSellAll } from '../src/engines/evm/checks/cannot-sell-all.ts'
import type { EvmFacts, HolderSellFact, PowerFinding, TradeFact } from '../src/engines/evm/facts.ts'
import { feeCeiling, feeCeilingSentence } from '../src/engines/evm/fee-ceiling.ts'

describe('metadata', () => {
  it('docs/checks.md is generated from the checks and up to date (npm run docs)', async () => {
    expect(readFileSync(CHECKS_DOC, 'utf8')).toBe(renderChecksDoc(await checksDocSections()))
  })

  it('the registry has the contract\'s twelve checks, in its groups and order', () => {
    expect(EVM_CHECKS.map((c) => c.id)).toEqual([...OWNERSHIP_CHECKS, ...OTHER_CHECKS])
    for (const c of EVM_CHECKS) expect(c.group).toBe((OWNERSHIP_CHECKS as readonly string[]).includes(c.id) ? 'ownershipChecks' : 'otherChecks')
  })
})

describe('words agree with status', () => {
  const all = [...EVM_CHECKS.map((c) => ['EVM', c] as const), ...SOLANA_CHECKS.map((c) => ['Solana', c] as const)]
  it.each(all.map(([engine, c]) => [`${engine} ${c.id}`, c] as const))('%s says one thing per status, in the API, the comment and the CLI', (_name, check) => {
    const definition = check as CheckDefinition<unknown>
    const cases = [
      { status: 'present', method: 'simulated', evidence: 'the evidence', flag: '1', word: 'RISK' },
      { status: 'absent', method: 'simulated', evidence: 'the evidence', flag: '0', word: 'ok' },
      { status: 'undetermined', method: 'not determinable', evidence: 'the reason', flag: '', word: 'unknown' },
    ] as const
    for (const c of cases) {
      const rendered = renderCheck(definition, { status: c.status, method: c.method, evidence: c.evidence })
      expect(rendered.description).toBe(definition.describe[c.status])
      expect(rendered.status).toBe(c.flag)
      expect(statusWord(rendered.status)).toBe(c.word)
      expect(rendered.risk).toBe(c.status === 'undetermined' ? '' : c.status === 'present' ? definition.tier : ABSENT_LABEL[definition.tier])
      if (c.status === 'undetermined') expect(rendered.comment).toBe('not determinable: the reason')
      else expect(rendered.comment).toBe('simulated: the evidence')
    }
    // Three different sentences; only the undetermined one says that nothing is known.
    const { present, absent, undetermined } = definition.describe
    expect(new Set([present, absent, undetermined]).size).toBe(3)
    expect(undetermined).toMatch(/could not be determined/)
    expect(present).not.toMatch(/could not be determined/)
    expect(absent).not.toMatch(/could not be determined/)
    // An undetermined check without evidence still says why it is unknown.
    expect(renderCheck(definition, { status: 'undetermined', method: 'not determinable', evidence: '' }).comment).toMatch(/^not determinable: ./)
  })
})

const ok = (sent: bigint, received: bigint): Outcome => ({ ok: true, err: '0x', sent, received })
const fail: Outcome = { ok: false, err: '0x', sent: 10n, received: 0n }

const TOKEN = '0x00000000000000000000000000000000000000cc' as Address
const ZERO = '0x0000000000000000000000000000000000000000' as Address
const POOL = '0x00000000000000000000000000000000000000dd' as Address
const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
const watch = watchList(TOKEN, [POOL], [], [owner])
const at = (a: Address) => watch.accounts.findIndex((x) => x.toLowerCase() === a.toLowerCase())

/** A measure whose watched balances are 1 000 each, with some set: `{ [address]: balance }`. */
function measure(over: Partial<Omit<Measure, 'balances'>> = {}, balances: Record<string, bigint> = {}): Measure {
  const list = watch.accounts.map((a) => balances[a] ?? 1_000n)
  return {
    supply: 1_000_000n,
    supplyRead: true,
    balances: list,
    balancesRead: (1n << BigInt(list.length)) - 1n,
    aTransfer: ok(10n, 10n),
    bTransfer: ok(10n, 10n),
    aSell: ok(100n, 93n),
    bSell: ok(100n, 93n),
    bBuy: ok(100n, 97n),
    bBigBuy: ok(1_000n, 970n),
    notHeld: 0n,
    pullSpender: ZERO,
    pullHolder: ZERO,
    pullAllowance: 0n,
    pull: { ok: false, err: '0x', sent: 0n, received: 0n },
    ...over,
  }
}

describe('owner-power effects', () => {
  const base = measure()
  const kinds = (m: Measure, caller: Address = owner.address) => effectsOf(watch, base, m, caller, true, true).map((e) => e.kind)
  const A = PROBE_ADDRESSES.a
  const B = PROBE_ADDRESSES.b

  it('minting to a holder is minting only; taking from a holder or a pool is changing its balance', () => {
    expect(at(A)).toBeGreaterThanOrEqual(0)
    expect(kinds(measure({ supply: 1_000_020n }, { [A]: 1_020n }))).toEqual(['mint'])
    expect(kinds(measure({}, { [A]: 500n }))).toEqual(['changeBalance'])
    expect(kinds(measure({}, { [POOL]: 10n, [owner.address]: 1_990n }))).toEqual(['changeBalance'])
  })

  it('a balance shown and not held, brought down to what is held with nothing moving, is not taken', () => {
    const bit = (...accounts: Address[]) => accounts.reduce((m, a) => m | (1n << BigInt(at(a))), 0n)
    // The probe found A and B had not held what they were shown: before the call neither could send
    // one unit more than it is shown after it, and after it each sends all it is shown.
    const effects = effectsOf(watch, base, measure({ notHeld: bit(A, B) }, { [A]: 800n, [B]: 900n }), owner.address, true, true)
    expect(effects.map((e) => e.kind)).toEqual(['ownMove'])
    expect(effects[0].text).toContain('a balance shown and not held')
    // The same fall where only A was found not to have held it: B's is taken.
    const one = effectsOf(watch, base, measure({ notHeld: bit(A) }, { [A]: 800n, [B]: 900n }), owner.address, true, true)
    expect(one.map((e) => e.kind)).toEqual(['changeBalance'])
    expect(one[0].text).toContain('from a bystander holder')
    // A fall the probe could not ask about (no bit): taken.
    expect(kinds(measure({}, { [A]: 800n }))).toEqual(['changeBalance'])
    // Something moved (the owner gained what A lost): taken, whatever the probe found.
    expect(kinds(measure({ notHeld: bit(A) }, { [A]: 800n, [owner.address]: 1_200n }))).toEqual(['changeBalance'])
    // The supply moved: taken (burned), whatever the probe found.
    expect(kinds(measure({ notHeld: bit(A), supply: 999_800n }, { [A]: 800n }))).toEqual(['changeBalance'])
  })

  it('a balance shown higher and not held, with the supply unchanged, is a display: no mint, and the holder\'s failed trades no pause', () => {
    const bit = (...accounts: Address[]) => accounts.reduce((m, a) => m | (1n << BigInt(at(a))), 0n)
    // The probe found A and B send what they were shown before the call and not one unit more.
    const shown = measure({ notHeld: bit(A, B), bSell: { ok: false, sent: 1n, received: 0n, err: '0x' } as Outcome }, { [A]: 20_000n, [B]: 20_000n })
    const effects = effectsOf(watch, base, shown, owner.address, true, true)
    expect(effects.map((e) => e.kind)).toEqual(['ownMove'])
    expect(effects[0].text).toContain('raised the balance shown of a holder by 19000 raw units')
    expect(effects[0].text).toContain('a display: nothing created, nothing taken')
    // The same rise where the probe found B holds it (it sent one unit more): B was credited.
    expect(kinds(measure({ notHeld: bit(A) }, { [A]: 20_000n, [B]: 20_000n }))).toEqual(['mint', 'changeBalance', 'ownMove'])
  })

  it('holders of record whose balance fell with nothing moving are the ones asked again, acting for themselves', () => {
    const HOLDER = '0x00000000000000000000000000000000000000ee' as Address
    const list = watchList(TOKEN, [POOL], [], [owner], [], [HOLDER])
    const m = (balances: Record<string, bigint>, over: Partial<Measure> = {}) => ({ ...measure(over), balances: list.accounts.map((a) => balances[a] ?? 1_000n), balancesRead: (1n << BigInt(list.accounts.length)) - 1n })
    const attempt = (mm: Measure, called = true) => ({ candidate: owner.address, variant: 0n, called, err: '0x' as Hex, m: mm, raisesAgain: false })
    const h = list.accounts.findIndex((a) => a === HOLDER)
    const base = m({})
    // A holder of record and A fell, nothing rose, the supply stayed: only the holder of record is to ask (A was asked in the run).
    expect([...unaskedFalls(list, base, [attempt(m({ [HOLDER]: 800n, [A]: 900n }))])]).toEqual([[0, [h]]])
    // Someone was credited: the fall is a move, nothing to ask.
    expect(unaskedFalls(list, base, [attempt(m({ [HOLDER]: 800n, [owner.address]: 1_200n }))]).size).toBe(0)
    // The supply moved, or the call was refused: nothing to ask.
    expect(unaskedFalls(list, base, [attempt(m({ [HOLDER]: 800n }, { supply: 999_800n }))]).size).toBe(0)
    expect(unaskedFalls(list, base, [attempt(m({ [HOLDER]: 800n }), false)]).size).toBe(0)
    // A holder of record shown more while A's rise was found not held (a display): it is asked too.
    const a = list.accounts.findIndex((x) => x === A)
    expect([...unaskedFalls(list, base, [attempt(m({ [HOLDER]: 5_000n, [A]: 5_000n }, { notHeld: 1n << BigInt(a) }))])]).toEqual([[0, [h]]])
    // A rise no test holder showed not held is a credit: nothing to ask.
    expect(unaskedFalls(list, base, [attempt(m({ [HOLDER]: 5_000n, [A]: 5_000n }))]).size).toBe(0)
  })

  it('balances raised beyond what anyone lost are a mint, even when the supply does not show it', () => {
    // The caller writes its own balance up: a hidden mint.
    expect(kinds(measure({}, { [owner.address]: 1_000_000_000n }))).toEqual(['mint'])
    // A holder's balance set up at will: a hidden mint, and a balance set arbitrarily.
    expect(kinds(measure({}, { [B]: 1_500n }))).toEqual(['mint', 'changeBalance'])
  })

  it('a credit to an account the token names (a wallet in its storage or code) that no one paid is a mint', () => {
    const wallet = '0x00000000000000000000000000000000000000ee' as Address
    const named = watchList(TOKEN, [POOL], [], [owner], [wallet])
    const base = { ...measure(), balances: named.accounts.map(() => 1_000n), balancesRead: (1n << BigInt(named.accounts.length)) - 1n }
    const after = { ...base, balances: named.accounts.map((a) => (a === wallet ? 500_000n : 1_000n)) }
    expect(effectsOf(named, base, after, owner.address, true, true).map((e) => e.kind)).toEqual(['mint'])
  })

  it('holders of record are watched as bystanders; a sweep of holders is taking, even where it takes from more than are watched', () => {
    const holder = '0x00000000000000000000000000000000000000e1' as Address
    const listed = watchList(TOKEN, [POOL], [], [owner], [], [holder, owner.address])
    // The owner, a candidate already, is not made a bystander by appearing among the holders.
    expect(listed.bystanders.has(holder.toLowerCase())).toBe(true)
    expect(listed.bystanders.has(owner.address.toLowerCase())).toBe(false)
    const base = { ...measure(), balances: listed.accounts.map(() => 1_000n), balancesRead: (1n << BigInt(listed.accounts.length)) - 1n }
    // The holder's 1 000 and 5 000 more from holders not on the list arrive at the owner.
    const after = { ...base, balances: listed.accounts.map((a) => (a === holder ? 0n : a === owner.address ? 7_000n : 1_000n)) }
    const effects = effectsOf(listed, base, after, owner.address, true, true)
    expect(effects.map((e) => e.kind)).toEqual(['changeBalance'])
    expect(effects[0].text).toContain('5000 raw units more, from holders not watched')
  })

  it('an airdrop out of the caller\'s own balance, or a rescue out of the contract\'s, is neither a mint nor a power over holders', () => {
    expect(kinds(measure({}, { [owner.address]: 900n, [A]: 1_100n }))).toEqual(['ownMove'])
    expect(kinds(measure({}, { [TOKEN]: 0n, [owner.address]: 2_000n }))).toEqual(['ownMove'])
  })

  it('no value a token can answer means unknown: balances, supply and trades at 0, 1 and 2^256 - 1 are counted; a read flagged not read is unknown', () => {
    const MAX = (1n << 256n) - 1n
    // A hidden mint writing the caller's balance to the largest amount: the credit is counted.
    expect(kinds(measure({}, { [owner.address]: MAX }))).toEqual(['mint'])
    // The same credit to a holder (a balance set at will besides), from 0 and from 1; a supply raised to the largest value.
    expect(kinds(measure({}, { [A]: MAX }), B)).toEqual(['mint', 'changeBalance'])
    const atZero = measure({}, { [A]: 0n, [B]: 1n })
    expect(effectsOf(watch, atZero, measure({}, { [A]: MAX, [B]: 1n }), owner.address, true, true).map((e) => e.kind)).toEqual(['mint', 'changeBalance'])
    expect(effectsOf(watch, atZero, measure({}, { [A]: 0n, [B]: MAX }), owner.address, true, true).map((e) => e.kind)).toEqual(['mint', 'changeBalance'])
    expect(kinds(measure({ supply: MAX }, { [A]: MAX }))).toContain('mint')
    // A holder at the largest balance, brought to 1 and to 0: taken.
    const top = measure({ supply: MAX }, { [A]: MAX })
    expect(effectsOf(watch, top, measure({ supply: MAX }, { [A]: 1n }), owner.address, true, true).map((e) => e.kind)).toContain('changeBalance')
    expect(effectsOf(watch, top, measure({ supply: MAX }, { [A]: 0n }), owner.address, true, true).map((e) => e.kind)).toContain('changeBalance')
    // Trades of the largest amounts are taxes like any other: none here, 1 % there.
    const untaxed = measure({ bSell: ok(MAX, MAX), aSell: ok(MAX, MAX) })
    expect(effectsOf(watch, untaxed, untaxed, owner.address, true, true)).toEqual([])
    expect(effectsOf(watch, untaxed, measure({ bSell: ok(MAX, MAX - MAX / 100n), aSell: ok(MAX, MAX - MAX / 100n) }), owner.address, true, true).map((e) => e.kind)).toEqual(['feeAll'])
    // Only the flag says unknown: a balance not read after the call is neither taken nor credited,
    // whatever value sits beside it; the supply likewise.
    const unreadA = (m: Measure) => ({ ...m, balancesRead: m.balancesRead & ~(1n << BigInt(at(A))) })
    expect(kinds(unreadA(measure({}, { [A]: 0n })))).toEqual([])
    expect(kinds(unreadA(measure({}, { [A]: MAX })))).toEqual([])
    expect(kinds(measure({ supply: MAX, supplyRead: false }))).toEqual([])
    const unread = effectsOf(watch, base, unreadA(measure({ bTransfer: fail, bSell: fail }, { [A]: 0n })), owner.address, true, true)
    expect(unread.find((e) => e.kind === 'pause')?.text).toContain('could not be read (unknown, not counted as taken)')
  })

  it('a change below the token\'s own rounding is no effect: at most a thousandth of a token, or a millionth of the balance', () => {
    const TOKEN_UNIT = 10n ** 18n
    const w = watchList(TOKEN, [POOL], [], [owner], [], [], 18)
    expect(w.dust).toBe(TOKEN_UNIT / 1_000n)
    const held = 2_000n * TOKEN_UNIT
    const m = (balances: Record<string, bigint>, over: Partial<Measure> = {}): Measure => ({
      ...measure(over),
      supply: 1_000_000n * TOKEN_UNIT,
      balances: w.accounts.map((a) => balances[a] ?? held),
      balancesRead: (1n << BigInt(w.accounts.length)) - 1n,
    })
    const effects = (after: Measure) => effectsOf(w, m({}), after, owner.address, true, true).map((e) => e.kind)
    // A re-rating that moves 10^15 - 1 raw units from A to B and the owner: dust, no power.
    expect(effects(m({ [A]: held - TOKEN_UNIT / 1_000n + 1n, [B]: held + TOKEN_UNIT / 2_000n, [owner.address]: held + TOKEN_UNIT / 2_000n - 1n }))).toEqual([])
    // Relative: a millionth of a whale's balance moved is dust too; a supply moved by dust is unmoved.
    const whale = 10n ** 12n * TOKEN_UNIT
    expect(effectsOf(w, m({ [POOL]: whale }), m({ [POOL]: whale - whale / 1_000_000n }), owner.address, true, true)).toEqual([])
    expect(effects(m({}, { supply: 1_000_000n * TOKEN_UNIT + TOKEN_UNIT / 1_000n }))).toEqual([])
    // Above both floors: a real share taken, a mint, however small beside the supply.
    expect(effects(m({ [A]: held - TOKEN_UNIT, [owner.address]: held + TOKEN_UNIT }))).toEqual(['changeBalance'])
    expect(effects(m({ [owner.address]: held + TOKEN_UNIT / 100n }))).toEqual(['mint'])
    // Without decimals, the relative floor only.
    expect(watchList(TOKEN, [POOL], [], [owner]).dust).toBe(0n)
  })

  it('a bystander blocked is a pause; a bystander taxed differently is a tax change for everyone', () => {
    expect(kinds(measure({ bTransfer: fail, aTransfer: fail, bSell: fail, aSell: fail }))).toEqual(['pause'])
    expect(kinds(measure({ bSell: ok(100n, 80n), aSell: ok(100n, 80n) }))).toEqual(['feeAll'])
    expect(kinds(measure({ bBuy: ok(100n, 90n) }))).toEqual(['feeAll'])
  })

  it('only the named holder blocked or taxed is personal; blocked is a blacklist, relieved is a whitelist', () => {
    expect(kinds(measure({ aTransfer: fail, aSell: fail }))).toEqual(['feePersonal', 'blacklist'])
    expect(kinds(measure({ aSell: ok(100n, 92n) }))).toEqual(['feePersonal'])
    expect(kinds(measure({ aSell: ok(100n, 100n) }))).toEqual(['feePersonal', 'whitelist'])
    expect(kinds(measure())).toEqual([])
  })

  it('a large buy that starts or stops working while small trades do not change is a limit', () => {
    expect(kinds(measure({ bBigBuy: fail }))).toEqual(['limit'])
  })

  it('without funded holders only balances and the supply are judged', () => {
    expect(effectsOf(watch, base, measure({ supply: 2_000_000n }, { [A]: 0n }), owner.address, false, true).map((e) => e.kind)).toEqual(['mint', 'changeBalance'])
  })

  const result = (ms: Measure[]): PowerResult => ({
    startGas: 30_000_000n,
    funded: true,
    measured: true,
    baseline: base,
    attempts: ms.map((m, i) => ({ candidate: owner.address, variant: BigInt(i), called: true, err: '0x', m, raisesAgain: true })),
    twoStep: false,
    grantsMade: [],
    grantors: [],
    grantMeasured: false,
    grantBaseline: base,
    delegateAttempts: [],
    chained: false,
    chainFlag: 0n,
    chainBy: ZERO,
    chainMeasured: false,
    chainBaseline: base,
    chainAttempts: [],
  })
  const fn = (sig: string) => ({ selector: toFunctionSelector(sig), arguments: sig.slice(sig.indexOf('(') + 1, -1), stateMutability: 'nonpayable' as const })

  it('a numeric setter that stops every sale at some values only is a limit that can trap sellers (Critical), and stops trading at its smallest', () => {
    const blocked = measure({ bTransfer: fail, aTransfer: fail, bSell: fail, aSell: fail })
    const found = interpretPowers(fn('setMaxTxAmount(uint256)'), [owner], result([blocked, blocked, measure()]), true, watch, [])
    expect(found.map((f) => [f.kind, f.tier])).toEqual([['limit', 'Critical'], ['pause', undefined]])
    expect(found[1].evidence).toContain('can be set so low that every sale fails')
    const pauser = interpretPowers(fn('setPaused(bool)'), [owner], result([blocked, measure()]), true, watch, [])
    expect(pauser.map((f) => f.kind)).toEqual(['pause'])
    expect(pauser[0].evidence).toContain('setPaused(bool)')
    expect(pauser[0].evidence).toContain(owner.address)
  })

  it('a tax setter is judged at its extremes: a reachable confiscatory sell tax is Critical, a capped one is not', () => {
    const taxed = (sellReceived: bigint) => measure({ bSell: ok(100n, sellReceived), aSell: ok(100n, sellReceived) })
    const uncapped = interpretPowers(fn('setSellTax(uint256)'), [owner], result([taxed(93n), taxed(0n), taxed(50n)]), true, watch, [])
    // A sell tax that reaches 100 % stops trading too: the same call is a pause.
    expect(uncapped.map((f) => [f.kind, f.tier])).toEqual([['feeAll', 'Critical'], ['pause', undefined]])
    expect(uncapped[0].evidence).toMatch(/sell tax 100%/)
    expect(uncapped[1].evidence).toContain('can push the sell tax to 100%')
    const capped = interpretPowers(fn('setSellTax(uint256)'), [owner], result([taxed(93n), taxed(90n)]), true, watch, [])
    expect(capped.map((f) => [f.kind, f.tier])).toEqual([['feeAll', undefined]])
    expect(capped[0].evidence).toMatch(/sell tax 10%/)
  })

  it('a power in two steps is the appointing candidate\'s: the appointed account mints after a setter named it', () => {
    const r: PowerResult = {
      ...result([]),
      attempts: [{ candidate: owner.address, variant: 0n, called: false, err: '0x', m: base, raisesAgain: true }],
      twoStep: true,
      grantsMade: [0n],
      grantors: [owner.address],
      grantMeasured: true,
      grantBaseline: base,
      delegateAttempts: [{ candidate: PROBE_ADDRESSES.delegate, variant: 0n, called: true, err: '0x', m: measure({ supply: 1_000_500n }, { [A]: 1_500n }), raisesAgain: true }],
    }
    const setVault = encodeFunctionData({ abi: parseAbi(['function setVault(address)']), args: [PROBE_ADDRESSES.delegate] })
    const found = interpretPowers(fn('vaultMint(address,uint256)'), [owner], r, true, watch, [setVault])
    expect(found.map((f) => f.kind)).toEqual(['mint'])
    expect(found[0].appointedBy).toEqual(owner)
    expect(found[0].evidence).toMatch(/in two steps/)
  })
})

describe('candidate functions and their calldata', () => {
  it('leaves out views and standard ERC-20 / ownership functions', () => {
    const fn = (sig: string, m: 'view' | 'nonpayable') => ({ selector: toFunctionSelector(sig), arguments: sig.slice(sig.indexOf('(') + 1, -1), stateMutability: m })
    const analysis = {
      functions: [fn('transfer(address,uint256)', 'nonpayable'), fn('balanceOf(address)', 'view'), fn('renounceOwnership()', 'nonpayable'), fn('mint(address,uint256)', 'nonpayable'), fn('f00()', 'nonpayable')],
    } as unknown as CodeAnalysis
    expect(candidateFunctions(analysis).map((f) => f.selector)).toEqual([toFunctionSelector('mint(address,uint256)'), toFunctionSelector('f00()')])
  })

  it('targets holder A, sends elsewhere to the fresh account, and spans numbers to their extremes and booleans', () => {
    const pad = (a: string) => a.slice(2).toLowerCase().padStart(64, '0')
    const sel = toFunctionSelector('adminTransfer(address,address,uint256)')
    const variants = functionVariants({ selector: sel, arguments: 'address,address,uint256', stateMutability: 'nonpayable' }).map((v) => v.data)
    // 0, a small number, 100, 1 000, 10 000, half a holder's balance, the type's maximum.
    expect(variants).toHaveLength(7)
    expect(variants.some((v) => v.endsWith('f'.repeat(64)))).toBe(true)
    expect(variants.some((v) => v.endsWith((10_000).toString(16).padStart(64, '0')))).toBe(true)
    for (const v of variants) expect(v.slice(10, 138)).toBe(pad(PROBE_ADDRESSES.a) + pad(PROBE_ADDRESSES.f))
    expect(variants.some((v) => v.endsWith(AMOUNT_PLACEHOLDER.slice(2)))).toBe(true)
    const data = (args: string) => functionVariants({ selector: '0x12345678', arguments: args, stateMutability: 'nonpayable' }).map((v) => v.data)
    expect(data('bool')).toHaveLength(2)
    // A uint8 is tried at 0, 20, 100 and 255 (its maximum), never above.
    expect(data('uint8').map((v) => BigInt(`0x${v.slice(10)}`))).toEqual([0n, 20n, 100n, 255n])
    expect(data('')).toEqual(['0x12345678'])
    expect(data('address[],bool')).toHaveLength(2)
    expect(functionVariants({ selector: '0x12345678', arguments: '(uint256,address),uint8', stateMutability: 'nonpayable' }).length).toBeGreaterThan(1)
  })
})

describe('appointing a probe account', () => {
  it('names the delegate in every address argument, and tries role grants with the roles the code knows', () => {
    const fns = [
      { selector: toFunctionSelector('setVault(address)'), arguments: 'address', stateMutability: 'nonpayable' as const },
      { selector: toFunctionSelector('grantRole(bytes32,address)'), arguments: 'bytes32,address', stateMutability: 'nonpayable' as const },
      { selector: toFunctionSelector('setFee(uint256)'), arguments: 'uint256', stateMutability: 'nonpayable' as const },
    ]
    const role = keccak256(toHex('MINTER_ROLE'))
    const grants = grantCalls(fns, [role])
    const delegate = PROBE_ADDRESSES.delegate.slice(2).toLowerCase()
    expect(grants).toHaveLength(3)
    expect(grants.every((g) => g.toLowerCase().includes(delegate))).toBe(true)
    expect(grants.some((g) => g.includes(role.slice(2)))).toBe(true)
    // Roles are the code's 32-byte constants that are neither text nor the usual event topics.
    const analysis = { constants32: [role, keccak256(toHex('Transfer(address,address,uint256)')), toHex('ERC20: amount exceeds balance!', { size: 32 })] } as unknown as CodeAnalysis
    expect(roleConstants(analysis)).toEqual([role])
  })
})

describe('revert reasons', () => {
  it('reads Error(string), Panic(uint256), custom errors and empty data', () => {
    const data = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['ZooHoneypot: selling is disabled'] })
    expect(decodeRevert(data)).toBe('ZooHoneypot: selling is disabled')
    expect(decodeRevert('0x4e487b710000000000000000000000000000000000000000000000000000000000000011')).toBe('panic 0x11 (arithmetic overflow or underflow)')
    expect(decodeRevert('0xdeadbeef')).toBe('custom error 0xdeadbeef')
    expect(decodeRevert('0x')).toBe('reverted without a reason')
    const probe = encodeErrorResult({ abi: parseAbi(['error ProbeFailure(string)']), errorName: 'ProbeFailure', args: ['no route'] })
    expect(decodeRevert(probe)).toBe('tokenrisk-probe: no route')
    expect(isProbeReason(decodeRevert(probe))).toBe(true)
    // A token cannot pass its own revert off as the probe's by wording it like one.
    const mimic = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['tokenrisk-probe: no route'] })
    expect(isProbeReason(decodeRevert(mimic))).toBe(false)
    const long = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['x'.repeat(5_000)] }) as Hex
    expect(decodeRevert(long).length).toBeLessThanOrEqual(201)
  })
})

describe('owner calls traced: accounts named only in Transfer events', () => {
  const token = '0x00000000000000000000000000000000000000aa' as Address
  const owner = '0x00000000000000000000000000000000000000bb' as Address
  const hidden = '0x00000000000000000000000000000000000000cc' as Address
  const victim = '0x00000000000000000000000000000000000000dd' as Address
  const traced = (deltas: Record<string, bigint>, named: Address[], supplyDelta = 0n) => ({
    traced: true as const,
    named: new Set(named.map((a) => a.toLowerCase())),
    supplyDelta,
    delta: (a: Address) => deltas[a.toLowerCase()] ?? 0n,
  })

  it('a credit no debit explains is a mint where it landed; the same credit paid by the owner is none', () => {
    expect(eventEffect(traced({ [hidden]: 500n }, [token, hidden]), [token, owner])).toEqual({ minted: [{ account: getAddress(hidden), amount: 500n }], taken: [] })
    expect(eventEffect(traced({ [hidden]: 500n, [owner]: -500n }, [owner, hidden]), [token, owner])).toEqual({ minted: [], taken: [] })
    // A supply that rose by the credit explains it (an open mint, the isolated experiments' to report).
    expect(eventEffect(traced({ [hidden]: 500n }, [hidden], 500n), [token, owner])).toEqual({ minted: [], taken: [] })
  })

  it('an account named only in events that lost tokens lost them without calling', () => {
    expect(eventEffect(traced({ [victim]: -70n, [owner]: 70n }, [victim, owner]), [token, owner])).toEqual({ minted: [], taken: [{ account: getAddress(victim), amount: 70n }] })
  })

  it('watched accounts are the isolated experiments\' to report: nothing is said when the events name no one else', () => {
    expect(eventEffect(traced({ [owner]: 900n }, [owner]), [token, owner])).toEqual({ minted: [], taken: [] })
  })

  it('trusts the balance mapping only when the accounts the events name moved in it', () => {
    expect(movesWithTransfers(new Set([hidden.toLowerCase(), owner.toLowerCase()]), (a) => (a === getAddress(owner) ? -5n : 0n))).toBe(true)
    expect(movesWithTransfers(new Set([hidden.toLowerCase(), owner.toLowerCase()]), () => 0n)).toBe(false)
    expect(movesWithTransfers(new Set(), () => 0n)).toBe(true)
  })

  it('reads balance changes from a prestate diff, cleared slots included', () => {
    const slot = `0x${'11'.repeat(32)}` as Hex
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex
    expect(slotDelta({ pre: { [token]: { storage: { [slot]: word(3) } } }, post: { [token]: { storage: { [slot]: word(10) } } } }, token, slot)).toBe(7n)
    expect(slotDelta({ pre: { [token]: { storage: { [slot]: word(3) } } }, post: {} }, token, slot)).toBe(-3n)
    expect(slotDelta({ pre: {}, post: { [token.toUpperCase().replace('0X', '0x')]: { storage: { [slot]: word(5) } } } }, token, slot)).toBe(5n)
    expect(slotDelta({ pre: {}, post: {} }, token, slot)).toBe(0n)
  })

  it('names the accounts of the token\'s Transfer events only, in frames that kept them', () => {
    const topic = (a: Address) => `0x${'0'.repeat(24)}${a.slice(2)}`
    const frame = {
      logs: [{ address: token, topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', topic('0x0000000000000000000000000000000000000000'), topic(hidden)] }],
      calls: [{ logs: [{ address: owner, topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', topic(victim), topic(owner)] }] }],
    }
    expect([...transferAccounts(frame, token)]).toEqual([hidden.toLowerCase()])
  })
})

describe('view calls carry the readers, not the whole probe', () => {
  it('reads, accounts, pools and locks run on TokenReader; experiments on the probe', () => {
    const token = '0x00000000000000000000000000000000000000aa' as Address
    expect(isReaderCall(encodeReads([{ target: token, data: '0x18160ddd' }]))).toBe(true)
    expect(isReaderCall(encodeAccounts(token, [token]))).toBe(true)
    expect(isReaderCall(encodeLocks(token, 1, token, 4))).toBe(true)
    expect(isReaderCall(encodePools(token, [], [token]))).toBe(true)
    const params = { token, weth: token, pool: undefined, route: NO_ROUTE, candidates: [], donors: [], watch: [], variants: [], grants: [] }
    expect(isReaderCall(encodePowers(params))).toBe(false)
    expect(isReaderCall(encodePowersReplay(params))).toBe(false)
    const reader = readerOverride()[PROBE_ADDRESSES.main].code!
    expect(reader.length).toBeLessThan(probeCode().length / 3)
  })
})

describe('cannotSellAll: a pool where nothing sells is Critical, one that keeps the last token RISKY', () => {
  const pool = (address: string) => ({ dex: 'uniswap-v2', quoteSymbol: 'WETH', address }) as unknown as TradeFact['pool']
  const trade = (over: Partial<TradeFact>): TradeFact =>
    ({ pool: pool('0x00000000000000000000000000000000000000d1'), simulated: true, honeypot: false, honeypotReason: '', sellAllOk: true, sellAllReason: '', sell99Ok: true, ...over }) as TradeFact
  const run = (...trades: TradeFact[]) => renderCheck(cannotSellAll as CheckDefinition<unknown>, cannotSellAll.run({ trades } as unknown as EvmFacts))
  const keepsOne = trade({ sellAllOk: false, sellAllReason: 'cannot sell the whole balance', sell99Ok: true })
  const trap = trade({ pool: pool('0x00000000000000000000000000000000000000d2'), honeypot: true, honeypotReason: 'TRANSFER_FAILED', sellAllOk: false, sellAllReason: 'TRANSFER_FAILED', sell99Ok: false })

  it('selling 100 % failing while 99 % works stays RISKY', () => {
    const r = run(keepsOne)
    expect([r.status, r.risk]).toEqual(['1', 'RISKY'])
    expect(r.comment).toMatch(/while 99% sold/)
  })
  it('no amount sold (the pool is a honeypot) is Critical, whichever pool comes first', () => {
    for (const r of [run(trap), run(keepsOne, trap)]) {
      expect([r.status, r.risk]).toEqual(['1', 'Critical'])
      expect(r.comment).toMatch(/no amount can be sold on .*0x00000000000000000000000000000000000000d2.*TRANSFER_FAILED/)
    }
  })
  it('a honeypot that springs later (every sale fails once loaded) is Critical too', () => {
    const r = run(trade({ honeypot: true, honeypotReason: 'selling fails once the token holds a large balance of itself', sellAllOk: false, sellAllReason: 'swap back failed', sell99Ok: true }))
    expect(r.risk).toBe('Critical')
  })
  it('a whole balance sold has the RISKY tier\'s absent label; unknown stays ""', () => {
    expect(run(trade({})).risk).toBe(ABSENT_LABEL.RISKY)
    expect(run(trade({ sellAllOk: undefined })).risk).toBe('')
  })
})

describe('cannotSellAll: holders of record whose whole sell leaves part behind', () => {
  const pool = { dex: 'uniswap-v2', quoteSymbol: 'WETH', address: '0x00000000000000000000000000000000000000d1' } as unknown as TradeFact['pool']
  const trade = (sellTax: number): TradeFact =>
    ({ pool, simulated: true, honeypot: false, honeypotReason: '', sellAllOk: true, sellAllReason: '', sell99Ok: true, sellTax: { percent: sellTax, note: '' } }) as TradeFact
  const holder = (address: string, outcome: HolderSellFact['outcome'], leftPercent?: number): HolderSellFact => ({
    address: address as Address, balance: 1_000n, outcome, taxPercent: leftPercent, leftPercent, reason: '',
  })
  const facts = (sellTax: number, holders: HolderSellFact[]) =>
    ({ trades: [trade(sellTax)], holders: { top: [] }, holderSells: { pool, path: 'router', holders, note: '' } }) as unknown as EvmFacts
  const run = (f: EvmFacts) => renderCheck(cannotSellAll as CheckDefinition<unknown>, cannotSellAll.run(f))

  it('a clamped holder of record is evidence, with the share it kept, though a fresh wallet sells all', () => {
    const r = run(facts(0, [holder('0x00000000000000000000000000000000000000a1', 'sold', 0), holder('0x00000000000000000000000000000000000000a2', 'clamped', 25)]))
    expect(r.status).toBe('1')
    expect(r.comment).toContain('1 of the 2 largest holders of record')
    expect(r.comment).toContain('0x00000000000000000000000000000000000000a2 kept 25%')
  })
  it('a fee wallet that gets its own sell fee back keeps no more than the tax: no clamp', () => {
    expect(run(facts(5, [holder('0x00000000000000000000000000000000000000a1', 'clamped', 5)])).status).toBe('0')
  })
  it('a limit (the whole balance does not sell, a thousandth does) is not a clamp', () => {
    expect(run(facts(0, [holder('0x00000000000000000000000000000000000000a1', 'limit')])).status).toBe('0')
  })
})

describe('the fee ceiling', () => {
  const TOKEN_ADDRESS = '0x00000000000000000000000000000000000000cc' as Address
  const POOL_ADDRESS = '0x00000000000000000000000000000000000000dd' as Address
  const WALLET = '0x00000000000000000000000000000000000000ee' as Address
  const DEAD = '0x000000000000000000000000000000000000dEaD' as Address
  const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
  const fee = (sell: number, paidTo: Address[], walletSettable = false, over: Partial<PowerFinding> = {}): PowerFinding => ({
    kind: 'feeAll', candidate: owner, selector: '0x1c75b6b2', signature: '', evidence: '', reach: { buy: 5, sell, transfer: 0, sellsStopped: false, paidTo, walletSettable }, ...over,
  })
  const facts = (findings: PowerFinding[], over: Partial<EvmFacts['powers']> = {}) =>
    ({
      token: TOKEN_ADDRESS,
      chain: { burnAddresses: [DEAD] },
      trades: [{ pool: { address: POOL_ADDRESS }, buyTax: { percent: 3, note: '' }, sellTax: { percent: 7, note: '' } }],
      powers: { status: 'tested', reason: '', candidates: [owner], functionsTried: ['0x1c75b6b2'], functionsFailed: [], findings, funded: true, withPool: true, measuredPool: POOL_ADDRESS, ...over },
    }) as unknown as EvmFacts

  it('is the highest sell tax any privileged account reaches, and says where it goes', () => {
    const c = feeCeiling(facts([fee(30, [WALLET]), fee(99, [WALLET], true)]))!
    expect([c.sell, c.buy, c.proceeds, c.pool]).toEqual([99, 5, 'owner-set wallet', POOL_ADDRESS])
    expect(feeCeilingSentence(c)).toBe('the owner can raise the sell tax to 99 % (the buy tax to 5 %), paid to a wallet it sets')
    expect(feeCeiling(facts([fee(40, [TOKEN_ADDRESS])]))!.proceeds).toBe('token contract')
    expect(feeCeiling(facts([fee(40, [DEAD])]))!.proceeds).toBe('burned')
    expect(feeCeiling(facts([fee(40, [WALLET])]))!.proceeds).toBe('fixed wallet')
    expect(feeCeiling(facts([fee(40, [])]))!.proceeds).toBe('')
    const appointed = fee(60, [], false, { appointedBy: owner, candidate: { address: WALLET, source: 'an account a privileged call appointed' } })
    expect(feeCeilingSentence(feeCeiling(facts([appointed]))!)).toBe('an account a privileged call appoints can raise the sell tax to 60 % (the buy tax to 5 %)')
  })

  it('is the pool\'s own taxes when no one changes them, and unknown when the powers were not all measured', () => {
    const none = feeCeiling(facts([]))!
    expect([none.buy, none.sell, none.finding, feeCeilingSentence(none)]).toEqual([3, 7, undefined, ''])
    expect(feeCeiling(facts([], { functionsFailed: ['0x1c75b6b2'] }))).toBeUndefined()
    expect(feeCeiling(facts([], { status: 'not-tested', reason: 'no state overrides' }))).toBeUndefined()
    expect(feeCeiling(facts([], { withPool: false }))).toBeUndefined()
  })
})

describe("the powers of a pool's contracts (a V4 hook) beside the token's", () => {
  const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
  const HOOK = '0x00000000000000000000000000000000000000b0' as Address
  const hook = { address: HOOK, label: `the hook ${HOOK} of the Uniswap V4 pool 0x01` }
  const powers = (over: Partial<EvmFacts['powers']> = {}): EvmFacts['powers'] => ({
    status: 'tested', reason: '', candidates: [owner], functionsTried: ['0x1c75b6b2'], functionsFailed: [], findings: [], funded: true, withPool: true, ...over,
  })
  const traced = { dependencies: { list: [], note: '' }, externalCalls: { method: 'trace', calls: [], note: '' }, trades: [] }
  const pausable = (p: EvmFacts['powers']) => renderCheck(transferPausable as CheckDefinition<unknown>, transferPausable.run({ ...traced, powers: p } as unknown as EvmFacts))
  const mintable = (p: EvmFacts['powers']) => renderCheck(isMintable as CheckDefinition<unknown>, isMintable.run({ powers: p } as unknown as EvmFacts))

  it("a hook whose functions were not tried leaves the powers over trading unknown, not the token's over its supply", () => {
    const merged = mergePowers(powers(), [{ contract: { ...hook, unread: 'its code forwards (a proxy)' }, fact: powers({ status: 'not-tested', reason: 'the logic contract could not be read', candidates: [], functionsTried: [] }) }])
    expect(merged.status).toBe('tested')
    expect(merged.unmeasuredContracts).toBe(`the functions of ${hook.label} were not tried: its code forwards (a proxy)`)
    expect(pausable(merged).status).toBe('')
    expect(pausable(merged).comment).toContain(hook.label)
    expect(mintable(merged).status).toBe('0')
  })

  it("a hook's finding stands beside the token's, and a hook with no one to call it does not hide that the token's functions were tried", () => {
    const finding: PowerFinding = { kind: 'pause', candidate: { address: owner.address, source: `owner() of ${hook.label}`, ownerOf: HOOK }, selector: '0x16c38b3c', signature: 'setPaused(bool)', evidence: `on ${hook.label}, as …`, on: HOOK }
    const merged = mergePowers(powers({ reason: 'the contract has no state-changing function beyond standard ERC-20 and ownership', functionsTried: [] }), [{ contract: hook, fact: powers({ findings: [finding] }) }])
    expect(merged.reason).toBe('')
    expect(pausable(merged).status).toBe('1')
    const quiet = mergePowers(powers(), [{ contract: hook, fact: powers({ reason: 'no account holds privileges', candidates: [], functionsTried: [] }) }])
    expect([quiet.reason, quiet.unmeasuredContracts]).toEqual(['', undefined])
    expect(pausable(quiet).status).toBe('0')
  })
})
