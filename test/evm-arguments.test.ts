// The owner's reach through its arguments and its callers: the token's own accounts and an account
// refusing the native coin as arguments, preconditions chained (flag then act; exclude, trade,
// include), accounts written into the code and role holders as callers, three calls in order, and
// allowances granted over holders' tokens followed by the transferFrom they enable. Against the
// local world: each zoo token that abuses a mechanism and its legitimate twin.
import { getAddress, toFunctionSelector, type Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { PROBE_ADDRESSES, type Measure, type Outcome } from '../src/engines/evm/chain/probe.ts'
import { REJECTER_LABEL, argumentAccounts, effectsOf, flagCalls, functionVariants, watchList } from '../src/engines/evm/collect/powers.ts'
import { useZooReports } from './helpers/zoo-reports.ts'

const fn = (sig: string) => ({ selector: toFunctionSelector(sig), arguments: sig.slice(sig.indexOf('(') + 1, -1), stateMutability: 'nonpayable' as const })
const TOKEN = '0x00000000000000000000000000000000000000cc' as Address
const POOL = '0x00000000000000000000000000000000000000dd' as Address
const WALLET = '0x00000000000000000000000000000000000000ee' as Address
const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
const word = (a: Address) => a.slice(2).toLowerCase().padStart(64, '0')

describe('arguments of owner functions', () => {
  it('names the rejecting account, the pools, the token, the owner and the accounts the token names, each once', () => {
    const list = argumentAccounts(TOKEN, [POOL], [owner], [{ address: WALLET, label: `${WALLET} (storage slot 7)` }, { address: POOL, label: 'again' }])
    expect(list.map((x) => x.address)).toEqual([PROBE_ADDRESSES.rejecter, POOL, TOKEN, owner.address, WALLET])
    expect(list[0].label).toBe(REJECTER_LABEL)
  })

  it('gives a function taking an address each of them as its first address, labelled; a function without one is unchanged', () => {
    const accounts = argumentAccounts(TOKEN, [POOL], [owner], [])
    const variants = functionVariants(fn('burnFromPair(address,uint256)'), accounts)
    const plain = variants.filter((v) => v.label === '')
    expect(plain).toHaveLength(7)
    const pool = variants.filter((v) => v.label === `the pool ${POOL}`)
    expect(pool.length).toBe(2)
    for (const v of pool) expect(v.data.slice(10, 74)).toBe(word(POOL))
    expect(variants.some((v) => v.label === REJECTER_LABEL && v.data.slice(10, 74) === word(PROBE_ADDRESSES.rejecter))).toBe(true)
    expect(functionVariants(fn('setFee(uint256)'), accounts).every((v) => v.label === '')).toBe(true)
    // An allowance function is tried once: holder A named, half its balance.
    expect(functionVariants(fn('increaseAllowance(address,uint256)'), accounts)).toHaveLength(1)
  })

  it('gives each later address argument the same accounts, the ones before it holding A, and says which argument it was', () => {
    const accounts = argumentAccounts(TOKEN, [POOL], [owner], [])
    const variants = functionVariants(fn('setRoute(address,address)'), accounts)
    const second = variants.filter((v) => v.argument === 1)
    expect(second.map((v) => v.label)).toEqual(accounts.map((a) => a.label))
    const pool = second.find((v) => v.label === `the pool ${POOL}`)!
    expect(pool.data.slice(10, 74)).toBe(word(PROBE_ADDRESSES.a))
    expect(pool.data.slice(74, 138)).toBe(word(POOL))
    // The first argument keeps its variants, the second holding the fresh account.
    const first = variants.find((v) => v.label === `the pool ${POOL}` && v.argument === undefined)!
    expect(first.data.slice(74, 138)).toBe(word(PROBE_ADDRESSES.f))
    // A third address argument gets its own; a fourth is left to the plain variants.
    const four = functionVariants(fn('setWallets(address,address,address,address)'), accounts)
    expect(new Set(four.map((v) => v.argument ?? 0))).toEqual(new Set([0, 1, 2]))
    // With a number beside it, an account is tried with the boolean one way: (account, amount, flag) stays in the experiment's gas.
    expect(functionVariants(fn('addLiquidity(address,uint256,bool)'), accounts).filter((v) => v.label !== '')).toHaveLength(accounts.length * 2)
  })

  it('chains a function taking an address after every other one that may flag holder A', () => {
    const fns = [fn('setBlacklisted(address,bool)'), fn('burnBlacklisted(address)'), fn('setFee(uint256)'), fn('increaseAllowance(address,uint256)')]
    const flags = flagCalls(fns, fns[1])
    expect(flags).toHaveLength(1)
    expect(flags[0].slice(0, 10)).toBe(fns[0].selector)
    expect(flags[0].slice(10, 74)).toBe(word(PROBE_ADDRESSES.a))
    expect(BigInt(`0x${flags[0].slice(74)}`)).toBe(1n)
    expect(flagCalls(fns, fns[2])).toEqual([])
  })
})

describe('allowances a call grants over a holder\'s tokens', () => {
  const ok = (sent: bigint, received: bigint): Outcome => ({ ok: true, err: '0x', sent, received })
  const ZERO = '0x0000000000000000000000000000000000000000' as Address
  const watch = watchList(TOKEN, [POOL], [], [owner])
  const measure = (over: Partial<Measure> = {}): Measure => ({
    supply: 1_000_000n, supplyRead: true, balances: watch.accounts.map(() => 1_000n), balancesRead: (1n << BigInt(watch.accounts.length)) - 1n, aTransfer: ok(10n, 10n), bTransfer: ok(10n, 10n), aSell: ok(100n, 93n), bSell: ok(100n, 93n),
    bBuy: ok(100n, 97n), bBigBuy: ok(1_000n, 970n), notHeld: 0n, pullSpender: ZERO, pullHolder: ZERO, pullAllowance: 0n, pull: { ok: false, err: '0x', sent: 0n, received: 0n }, ...over,
  })
  const kinds = (m: Measure) => effectsOf(watch, measure(), m, owner.address, true, true)

  it('a new allowance over holder A used by transferFrom is a balance taken, with the figures', () => {
    const found = kinds(measure({ pullSpender: PROBE_ADDRESSES.f, pullHolder: PROBE_ADDRESSES.a, pullAllowance: 500n, pull: ok(500n, 500n) }))
    expect(found.map((e) => e.kind)).toEqual(['changeBalance'])
    expect(found[0].text).toBe('granted a fresh account an allowance of 500 (raw units) over the tokens of a holder, which never approved it; the spender then took 500 (raw units) with transferFrom')
  })

  it('an allowance that was already there, or a transferFrom that took nothing, is no finding', () => {
    const pulled = { pullSpender: PROBE_ADDRESSES.f, pullHolder: PROBE_ADDRESSES.a, pullAllowance: 500n, pull: ok(500n, 500n) }
    expect(effectsOf(watch, measure(pulled), measure(pulled), owner.address, true, true)).toEqual([])
    expect(kinds(measure({ ...pulled, pull: { ok: false, err: '0x', sent: 500n, received: 0n } }))).toEqual([])
  })
})

const KEYS = [
  'fee-wallet-trap', 'fee-wallet-safe', 'pair-burn', 'pair-sync', 'blacklist-burn', 'blacklist', 'reflect-include-bug', 'reflect-include',
  'devteam-mint', 'devteam-fee', 'three-step-drain', 'three-step-reward', 'allowance-grant', 'allowance-treasury', 'allowance-backdoor',
  'role-minter', 'role-revoked',
]

const zoo = useZooReports(KEYS)
const get = (key: string) => zoo.get(key)
const checks = (key: string) => ({ ...get(key).report.codeChecks.ownershipChecks, ...get(key).report.codeChecks.otherChecks })

describe('the zoo of arguments and callers', () => {
  it('fee-wallet-trap: a fee wallet set to an account refusing the native coin stops every sale; fee-wallet-safe ignores the refusal', () => {
    const pause = checks('fee-wallet-trap').transferPausable
    expect(pause.status).toBe('1')
    expect(pause.comment).toContain(`stopped the sales into the pool of a holder it was not given (its transfers still went through) (given ${REJECTER_LABEL} as its address argument)`)
    expect(checks('fee-wallet-safe').transferPausable.status).toBe('0')
  })

  it('pair-burn: the token\'s own pair as the argument is burned from; pair-sync only syncs it', () => {
    const pool = zoo.world.manifest.tokens.find((t) => t.key === 'pair-burn')!.pools[0].pairAddress
    const taken = checks('pair-burn').ownerChangeBalance
    expect(taken.status).toBe('1')
    expect(taken.comment).toContain(`from the pool ${getAddress(pool)}, which never sent or approved them (given the pool ${getAddress(pool)} as its address argument)`)
    expect(checks('pair-sync').ownerChangeBalance.status).toBe('0')
    expect(checks('pair-sync').transferPausable.status).toBe('0')
  })

  it('blacklist-burn: burning a holder\'s balance is reached only through the blacklist first, and says so; blacklist burns nothing', () => {
    const taken = checks('blacklist-burn').ownerChangeBalance
    expect(taken.status).toBe('1')
    expect(taken.comment).toContain('only through a chain (as ')
    expect(taken.comment).toContain('first setBlacklisted(address,bool) naming the holder')
    expect(taken.comment).toMatch(/took \d+ \(raw units\) from a holder/)
    expect(checks('blacklist').ownerChangeBalance.status).toBe('0')
    // Blacklisting the pool blocks that one account, not every holder: no pause.
    expect(checks('blacklist').transferPausable.status).toBe('0')
  })

  it('reflect-include-bug: exclude, trade, include moves one trade\'s reflections, below the token\'s rounding: no power; the correct include moves nothing', () => {
    // The chain is tried (the include is callable only after the exclusion), and what it moves
    // (10^11 to 10^13 raw units per holder) is dust: the real share is reflect-skim's (evm-real-reach).
    const quiet = checks('reflect-include-bug').ownerChangeBalance
    expect(quiet.status).toBe('0')
    expect(quiet.comment).toContain('none took tokens from a holder or set its balance')
    const fair = checks('reflect-include')
    expect([fair.ownerChangeBalance.status, fair.isMintable.status, fair.slippageModifiable.status]).toEqual(['0', '0', '0'])
  })

  it('devteam-mint: an address written into the code is tried as a caller and mints; devteam-fee\'s holds nothing', () => {
    const devteam = getAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    const mint = checks('devteam-mint').isMintable
    expect(mint.status).toBe('1')
    expect(mint.comment).toContain(`as ${devteam} (a constant in its code), mint(address,uint256)`)
    expect(checks('devteam-mint').hiddenOwner.status).toBe('1')
    const fee = checks('devteam-fee').hiddenOwner
    expect(fee.status).toBe('0')
    expect(get('devteam-fee').facts.powers.candidates.map((c) => c.source)).toContain('a constant in its code')
  })

  it('three-step-drain: appoint a pair, then a distributor, then it drains a holder: three steps; three-step-reward pays from its reserve', () => {
    const taken = checks('three-step-drain').ownerChangeBalance
    expect(taken.status).toBe('1')
    expect(taken.comment).toMatch(/in three steps \(.*called 0xe5679d05 naming a fresh account; .*called 0x75619ab5 naming a fresh account; then that account called it\)/)
    expect(checks('three-step-reward').ownerChangeBalance.status).toBe('0')
  })

  it('allowance-grant: an allowance the owner grants over a holder\'s tokens is followed by the transferFrom it enables; the treasury twin grants none', () => {
    const taken = checks('allowance-grant').ownerChangeBalance
    expect(taken.status).toBe('1')
    expect(taken.comment).toMatch(/granted a fresh account an allowance of \d+ \(raw units\) over the tokens of a holder, which never approved it; the spender then took \d+ \(raw units\) with transferFrom/)
    expect(checks('allowance-treasury').ownerChangeBalance.status).toBe('0')
  })

  it('allowance-backdoor: increaseAllowance called by a hard-coded account credits it an allowance over the holder, then takes', () => {
    const ops = getAddress('0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199')
    const taken = checks('allowance-backdoor').ownerChangeBalance
    expect(taken.status).toBe('1')
    expect(taken.comment).toContain(`as ${ops} (a constant in its code), increaseAllowance(address,uint256)`)
    expect(taken.comment).toContain(`granted ${ops} (a constant in its code) an allowance`)
    expect(checks('allowance-backdoor').hiddenOwner.status).toBe('1')
  })

  it('role-minter: a minter named only in a RoleGranted log is tried and mints; role-revoked\'s revoked minter is not tried', () => {
    const minter = getAddress(zoo.world.manifest.accounts!.traders.at(-2)!)
    const mint = checks('role-minter').isMintable
    expect(mint.status).toBe('1')
    expect(mint.comment).toContain(`as ${minter} (a role holder (RoleGranted)), mint(address,uint256)`)
    expect(checks('role-minter').hiddenOwner.status).toBe('1')
    expect(get('role-revoked').facts.powers.candidates.map((c) => c.address)).not.toContain(minter)
    expect(checks('role-revoked').isMintable.status).toBe('0')
  })
})
