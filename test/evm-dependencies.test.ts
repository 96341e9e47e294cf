// Hostile dependencies: whether a privileged account can point the token at another contract is
// measured (a setter naming a reverting contract, or one answering extreme values, stops trades
// or changes what they deliver, naming the dependency itself does not), never inferred from where the token keeps the address; against the local world, the
// guarded zoo tokens and their twins.
import { encodeAbiParameters, getAddress, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { NODE_KINDS, startNodeKindProxy } from './helpers/node-kinds.ts'
import { readRepoint } from '../src/engines/evm/collect/dependencies.ts'
import type { Measure, Outcome, PowerResult } from '../src/engines/evm/chain/probe.ts'
import { zooToken } from '@tokenrisk/devworld/manifest'
import { useZooReports } from './helpers/zoo-reports.ts'

const GUARDS = ['guard-repointable', 'guard-stored', 'guard-upgradeable', 'guard-fixed', 'fee-oracle-repointable', 'fee-oracle-stored'] as const
/** setGuard(address) */
const SET_GUARD: Hex = '0xe19a9dd9'

describe('a dependency an owner can point elsewhere, measured', () => {
  const zoo = useZooReports(GUARDS)

  it('names the setter and its caller when a reverting contract put there stops trades, and the check says it', () => {
    const { facts, report } = zoo.get('guard-repointable')
    const dep = facts.dependencies!.list[0]
    expect(dep.stops).toMatch(/a sell fails/)
    const owner = getAddress(zooToken(zoo.world.manifest, 'guard-repointable').owner!)
    expect(dep.repointable).toContain(`the owner (${owner}) can point it elsewhere with`)
    expect(dep.repointable).toContain(SET_GUARD)
    expect(dep.repointable).toMatch(/measured, a reverting contract put there stops .*sells.*, while the same call naming 0x[0-9a-fA-F]{40} itself leaves them as they were/)
    // Kept in a mapping, not in the first storage slots: what the address's place alone would have missed.
    expect(dep.repointNote ?? '').toBe('')
    const pausable = report.codeChecks.ownershipChecks.transferPausable
    expect(pausable.status).toBe('1')
    expect(pausable.comment).toContain(dep.address)
    expect(pausable.comment).toContain('can point it elsewhere')
  })

  it('an address kept in storage by an owned token with no setter is no repoint: said, and no check set for it', () => {
    const { facts, report } = zoo.get('guard-stored')
    const dep = facts.dependencies!.list[0]
    expect(dep.stops).toMatch(/a sell fails/)
    expect(dep.repointable).toBe('')
    expect(dep.upgradeable).toBe('')
    expect(dep.repointNote).toMatch(/^the token keeps its address in storage slot 7; /)
    expect(report.codeChecks.ownershipChecks.transferPausable.status).toBe('0')
    expect(report.codeChecks.ownershipChecks.ownerChangeBalance.status).toBe('0')
    expect(report.codeChecks.otherChecks.externalCall.comment).toContain('keeps its address in storage slot 7')
  })

  it('a fee oracle whose reverts are caught: the owner repoints it to one answering extreme values, which takes a quarter of every trade', () => {
    const { facts, report } = zoo.get('fee-oracle-repointable')
    const dep = facts.dependencies!.list[0]
    // Its own reverting code stops nothing (the token falls back to its default fee); extreme answers change amounts.
    expect(dep.stops).toBe('')
    expect(dep.changesAmounts).toMatch(/a sell delivers 7[45](\.\d+)?% instead of 9[67](\.\d+)?%/)
    expect(dep.repointable).toMatch(/^the owner \(0x[0-9a-fA-F]{40}\) can point it elsewhere with function 0x[0-9a-f]{8}\(address\): measured, a contract answering extreme values put there makes .*sells deliver 7\d(\.\d+)?% of what they deliver with 0x[0-9a-fA-F]{40} named/)
    const change = report.codeChecks.ownershipChecks.ownerChangeBalance
    expect(change.status).toBe('1')
    expect(change.comment).toContain(dep.address)
    expect(report.codeChecks.ownershipChecks.transferPausable.status).toBe('0')
    // The twin keeps the same oracle in plain storage with no setter: no repoint, no check.
    const stored = zoo.get('fee-oracle-stored')
    const fixed = stored.facts.dependencies!.list[0]
    expect(fixed.changesAmounts).not.toBe('')
    expect(fixed.repointable).toBe('')
    expect(fixed.repointNote).toMatch(/^the token keeps its address in storage slot \d+; /)
    expect(stored.report.codeChecks.ownershipChecks.ownerChangeBalance.status).toBe('0')
  })

  it('the fixed and the upgradeable guard are not read as repointable', () => {
    for (const key of ['guard-upgradeable', 'guard-fixed']) expect(zoo.get(key).facts.dependencies!.list[0].repointable, key).toBe('')
  })

  it('without tracing, the guard named in storage slot 7 is made hostile, and its place alone sets no check', async () => {
    const proxy = await startNodeKindProxy(zoo.world.rpcUrl, NODE_KINDS.find((k) => k.name === 'public endpoint')!)
    try {
      const silent = { info: () => {}, warn: () => {}, error: () => {} }
      const service = createEvmReportService({ registry: loadChainRegistry({ chains: localChains({ ...zoo.world.manifest, rpcUrl: proxy.url }) }), cache: createMemoryCache(), store: zoo.store, logger: silent })
      const { facts, report } = await service.reportWithFacts(31337, zooToken(zoo.world.manifest, 'guard-stored').address as Address, {})
      expect(facts.externalCalls.method).toBe('bytecode')
      const dep = facts.dependencies!.list.find((d) => d.named === 'in storage slot 7')!
      expect(dep.stops).toMatch(/a sell fails/)
      expect(dep.repointable).toBe('')
      expect(report.codeChecks.ownershipChecks.transferPausable.status).not.toBe('1')
    } finally {
      await proxy.close()
    }
  })

  it('every code check of the guarded tokens equals the manifest', () => {
    const mismatches: string[] = []
    for (const key of GUARDS) {
      const want = zooToken(zoo.world.manifest, key).codeChecks
      const got = { ...zoo.get(key).report.codeChecks.ownershipChecks, ...zoo.get(key).report.codeChecks.otherChecks }
      for (const name of [...OWNERSHIP_CHECKS, ...OTHER_CHECKS]) {
        if (got[name].status !== want[name]) mismatches.push(`${key}.${name}: got ${got[name].status} want ${want[name]} (${got[name].comment})`)
      }
    }
    expect(mismatches).toEqual([])
  })
})

describe('repoint simulations, read', () => {
  const ok = (sent = 100n): Outcome => ({ ok: true, err: '0x', sent, received: sent })
  const refused: Outcome = { ok: false, err: `0x08c379a0${encodeAbiParameters([{ type: 'string' }], ['refused']).slice(2)}`, sent: 100n, received: 0n }
  const measure = (sell: Outcome, transfer = ok(), buy = ok()): Measure =>
    ({ supply: 1n, supplyRead: true, balances: [], balancesRead: 0n, aTransfer: ok(), bTransfer: transfer, aSell: ok(), bSell: sell, bBuy: buy, bBigBuy: ok(), notHeld: 0n, pullSpender: '0x0000000000000000000000000000000000000000', pullHolder: '0x0000000000000000000000000000000000000000', pullAllowance: 0n, pull: ok(0n) }) as Measure
  const owner = { address: getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'), source: 'owner()' }
  const dep: Address = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906')
  const fn = { selector: SET_GUARD, arguments: 'address', stateMutability: 'nonpayable' } as never
  /** The call naming the reverting contract, the contract answering extreme values, then the dependency. */
  const result = (withR: Measure, withD: Measure, called = true, withE: Measure = measure(ok())): PowerResult =>
    ({
      measured: true,
      funded: true,
      baseline: measure(ok()),
      attempts: [
        { candidate: owner.address, variant: 0n, called, err: '0x', m: withR, raisesAgain: false },
        { candidate: owner.address, variant: 1n, called, err: '0x', m: withE, raisesAgain: false },
        { candidate: owner.address, variant: 2n, called, err: '0x', m: withD, raisesAgain: false },
      ],
    }) as unknown as PowerResult

  it('a call that stops sells naming a reverting contract and keeps them naming the dependency repoints it', () => {
    const [found] = readRepoint(fn, [owner], [dep], result(measure(refused), measure(ok())))!
    expect(found.dependency).toBe(dep)
    expect(found.text).toMatch(/^the owner \(0x70997970C51812dc3A010C7d01b50e0d17dc79C8\) can point it elsewhere with .*: measured, a reverting contract put there stops sells \(refused\)/)
  })

  it('a call that makes trades deliver less naming a contract answering extreme values, and not naming the dependency, repoints it', () => {
    const taxed = (received: bigint): Outcome => ({ ok: true, err: '0x', sent: 100n, received })
    const [found] = readRepoint(fn, [owner], [dep], result(measure(taxed(97n), ok(), taxed(97n)), measure(taxed(97n), ok(), taxed(97n)), true, measure(taxed(75n), ok(), taxed(75n))))!
    expect(found.kind).toBe('extreme')
    expect(found.text).toMatch(/a contract answering extreme values put there makes buys deliver 77\.32% and sells deliver 77\.32% of what they deliver with 0x90F79bf6EB2c4f870365E785982E1f101E93b906 named, while/)
    // The same as the control: nothing.
    expect(readRepoint(fn, [owner], [dep], result(measure(taxed(97n)), measure(taxed(97n)), true, measure(taxed(97n))))).toEqual([])
  })

  it('a call that stops sells whatever it names (a fee wallet that must take the native coin) repoints nothing', () => {
    expect(readRepoint(fn, [owner], [dep], result(measure(refused), measure(refused)))).toEqual([])
  })

  it('a call nobody could make, or that stopped nothing, repoints nothing', () => {
    expect(readRepoint(fn, [owner], [dep], result(measure(refused), measure(ok()), false))).toEqual([])
    expect(readRepoint(fn, [owner], [dep], result(measure(ok()), measure(ok())))).toEqual([])
  })

  it('without a holder whose trades work before the call, nothing is measured (not "no repoint")', () => {
    expect(readRepoint(fn, [owner], [dep], { ...result(measure(refused), measure(ok())), funded: false })).toBeUndefined()
    expect(readRepoint(fn, [owner], [dep], { ...result(measure(refused), measure(ok())), baseline: measure(refused, refused, refused) })).toBeUndefined()
  })
})
