// The owner's reach: addresses packed in storage read at every byte offset and kept only when
// plausible; against the local world, the zoo tokens of each mechanism and their twins.
import { getAddress, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import type { EvmFacts } from '../src/engines/evm/facts.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { isPlausible, slotAddressCandidates, slotLabel, type SlotAccount } from '../src/engines/evm/collect/slot-accounts.ts'
import { readReach, searchableSetter, withReach } from '../src/engines/evm/collect/reach.ts'
import { clampedHolders } from '../src/engines/evm/checks/trade-evidence.ts'
import type { Outcome, ReachResult, ReachSearch } from '../src/engines/evm/chain/probe.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { useZooReports } from './helpers/zoo-reports.ts'
import { startNodeKindProxy, type NodeKindProxy } from './helpers/node-kinds.ts'
import { loadArtifact } from '@tokenrisk/devworld/compile'
import { encodeDeployData, type Abi } from 'viem'

const ADMIN = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const word = (v: bigint): Hex => `0x${v.toString(16).padStart(64, '0')}`

describe('addresses packed in storage', () => {
  it('finds an address one byte up behind a bool and behind a uint8, and alone in its slot', () => {
    const slots = {
      '0x5': word((BigInt(ADMIN) << 8n) | 1n), // bool true, then the address
      '0x6': word((BigInt(ADMIN) << 8n) | 18n), // uint8 18, then the address
      '0x7': word(BigInt('0x90f79bf6eb2c4f870365e785982e1f101e93b906')),
    }
    const found = slotAddressCandidates({ slots })
    expect(found).toContainEqual({ slot: 5, offset: 1, address: getAddress(ADMIN) })
    expect(found.find((f) => f.slot === 7 && f.offset === 0)?.address).toBe(getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906'))
    // The low 20 bytes of the packed slot are no address of anyone, yet a candidate until checked.
    const low = found.find((f) => f.slot === 5 && f.offset === 0)
    expect(low?.address).not.toBe(getAddress(ADMIN))
    expect(slotLabel({ slot: 5, offset: 1, address: getAddress(ADMIN) })).toBe('storage slot 5, byte 1')
  })

  it('skips numbers and short strings', () => {
    const text = Buffer.from('Clean Token', 'utf8').toString('hex').padEnd(62, '0') + (11 * 2).toString(16).padStart(2, '0')
    const slots = { '0x0': word(10n ** 24n), '0x3': `0x${text}` as Hex, '0x4': word(0n) }
    expect(slotAddressCandidates({ slots })).toEqual([])
  })

  it('keeps a candidate only when it is an account: code, a balance, a nonce, or named in the logs', () => {
    const base: SlotAccount = { slot: 5, offset: 0, address: getAddress(ADMIN), codeSize: 0n, tokenBalance: 0n, nativeBalance: 0n, nonce: 0n }
    expect(isPlausible(base)).toBe(false)
    expect(isPlausible({ ...base, nonce: 1n })).toBe(true)
    expect(isPlausible({ ...base, nativeBalance: 1n })).toBe(true)
    expect(isPlausible({ ...base, tokenBalance: 1n })).toBe(true)
    expect(isPlausible({ ...base, codeSize: 100n })).toBe(true)
    expect(isPlausible(base, new Set([ADMIN]))).toBe(true)
    // A nonce that could not be read is not evidence of absence when nothing else was read either.
    expect(isPlausible({ ...base, codeSize: undefined, tokenBalance: undefined, nativeBalance: undefined, nonce: undefined })).toBe(true)
  })
})

describe('reach of numeric setters, read', () => {
  it('searches functions whose arguments are all unsigned numbers, each word at its type\'s bounds', () => {
    const setter = searchableSetter({ selector: '0x12345678', arguments: 'uint256,uint8', stateMutability: 'nonpayable' } as never)
    expect(setter?.words).toEqual([4n, 36n])
    expect(setter?.maxes).toEqual([(1n << 256n) - 1n, 255n])
    expect(searchableSetter({ selector: '0x12345678', arguments: 'address,uint256', stateMutability: 'nonpayable' } as never)).toBeUndefined()
    expect(searchableSetter({ selector: '0x12345678', arguments: '', stateMutability: 'nonpayable' } as never)).toBeUndefined()
  })

  const sale = (received: bigint): Outcome => ({ ok: true, err: '0x', sent: 1_000n, received })
  const failed: Outcome = { ok: false, err: '0x', sent: 1_000n, received: 0n }
  const search = (over: Partial<ReachSearch>): ReachSearch => ({
    lastAccepted: (1n << 256n) - 1n, refused: false, firstRefused: 0n, stops: false, stopAt: 0n, stopsAtTop: false, sells: true,
    best: { value: 0n, accepted: true, sell: sale(950n) }, points: 6n, ...over,
  })
  const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
  const wallet = '0x00000000000000000000000000000000000000ee' as Address
  const watch = { accounts: [wallet], bystanders: new Set<string>(), labels: new Map([[wallet, `${wallet} (storage slot 12)`]]) }
  const result = (over: Partial<ReachResult>): ReachResult => ({
    startGas: 30_000_000n, funded: true, caller: owner.address, baseSell: sale(950n), alone: search({}), bestBuy: sale(950n),
    gains: [10n], gainsRead: 1n, delegateGain: 0n, delegateGainRead: true, withSiblings: false, siblingValues: [], combined: search({ sells: false }), ...over,
  })

  it('states the searched reach, where sales stop, and who is paid; a tax at 99 % stops trading', () => {
    const r = result({ alone: search({ stops: true, stopAt: 96n, stopsAtTop: true, best: { value: 95n, accepted: true, sell: sale(10n) } }), delegateGain: 5n })
    const reading = readReach(r, [owner], watch)!
    expect(reading.sell).toBeCloseTo(99)
    expect(reading.stops).toBe(true)
    expect(reading.text).toContain('at 95 a holder\'s sell tax reaches 99%')
    expect(reading.text).toContain('from 96 on every sale fails (the fees themselves, not a size limit)')
    expect(reading.text).toContain(`paid to ${wallet} (storage slot 12), which a privileged call can replace`)
    const fn = { selector: '0x1c75b6b2', arguments: 'uint256', stateMutability: 'nonpayable' } as never
    const findings = withReach([], fn, reading)
    expect(findings.map((f) => [f.kind, f.tier])).toEqual([['feeAll', 'Critical'], ['pause', undefined]])
  })

  it('a gain not read (either balance read failed) names no one paid; the delegate\'s neither', () => {
    const top = search({ stops: true, stopAt: 96n, stopsAtTop: true, best: { value: 95n, accepted: true, sell: sale(10n) } })
    const reading = readReach(result({ alone: top, gains: [10n], gainsRead: 0n, delegateGain: 5n, delegateGainRead: false }), [owner], watch)!
    expect(reading.paidTo).toEqual([])
    expect(reading.walletSettable).toBe(false)
    expect(reading.text).not.toContain('paid to')
  })

  it('a capped setter states its cap and its reach beside its siblings, and stops nothing', () => {
    const r = result({
      alone: search({ refused: true, lastAccepted: 5n, firstRefused: 6n, best: { value: 5n, accepted: true, sell: sale(910n) } }),
      withSiblings: true, siblingValues: [5n, 5n], combined: search({ refused: true, lastAccepted: 5n, firstRefused: 6n, best: { value: 5n, accepted: true, sell: sale(750n) } }),
    })
    const reading = readReach(r, [owner], watch)!
    expect(reading.sell).toBeCloseTo(25)
    expect(reading.text).toContain('accepts values up to 5 (refuses 6)')
    expect(reading.text).toContain('with 2 sibling setter(s) at their largest accepted values, the sell tax reaches 25%')
    const findings = withReach([], { selector: '0x1c75b6b2', arguments: 'uint256', stateMutability: 'nonpayable' } as never, reading)
    expect(findings.map((f) => [f.kind, f.tier])).toEqual([['feeAll', undefined]])
  })

  it('says nothing when no candidate could call it, holders were not funded, or the tax never rose', () => {
    expect(readReach(result({ caller: '0x0000000000000000000000000000000000000000' }), [owner], watch)).toBeUndefined()
    expect(readReach(result({ funded: false }), [owner], watch)).toBeUndefined()
    expect(readReach(result({}), [owner], watch)).toBeUndefined()
    expect(readReach(result({ baseSell: failed }), [owner], watch)).toBeUndefined()
  })
})

const silent = { info: () => {}, warn: () => {}, error: () => {} }
const KEYS = ['packed-admins', 'packed-records', 'clean', 'fee-stack', 'fee-stack-capped', 'close-trade', 'tax-capped', 'tax-modifiable', 'clamp-90', 'freeze-reads', 'seize-all', 'one-shot-mint', 'display-balance', 'silent-take', 'display-promo', 'haircut', 'arg-allocation', 'hidden-allocation', 'open-allocation']

const zoo = useZooReports(KEYS)
const get = (key: string) => zoo.get(key)

describe('the zoo of the owner\'s reach', () => {
  it('packed-admins: both admins, behind a bool and behind a uint8, are tried and found minting', () => {
    const { report } = get('packed-admins')
    const hidden = report.codeChecks.ownershipChecks.hiddenOwner
    expect(hidden.status).toBe('1')
    expect(hidden.comment).toContain(`${getAddress(zoo.world.manifest.accounts!.hiddenAdmin)} (storage slot 7, byte 1)`)
    expect(hidden.comment).toContain(`${getAddress(zoo.world.manifest.accounts!.lpProvider)} (storage slot 9, byte 1)`)
  })

  it('packed-records: the packed accounts are tried and hold nothing; no phantom account is named', () => {
    const { report, facts } = get('packed-records')
    const hidden = report.codeChecks.ownershipChecks.hiddenOwner
    expect(hidden.status).toBe('0')
    expect(hidden.comment).toContain(`${getAddress(zoo.world.manifest.accounts!.feeWallet)} (storage slot 7, byte 1)`)
    expect(hidden.comment).toContain(`${getAddress(zoo.world.manifest.accounts!.lpProvider)} (storage slot 9, byte 1)`)
    // The owner packed beside the decimals (slot 5, byte 1) is read as itself: no other account from slot 5.
    expect(facts.powers.candidates.filter((c) => /storage slot 5\b/.test(c.source))).toEqual([])
    const clean = get('clean')
    expect(clean.facts.powers.candidates.filter((c) => c.source.startsWith('storage'))).toEqual([])
  })

  it('fee-stack: five uncapped setters searched to 99 % (not a size limit), paid to a wallet the owner sets; sales can be stopped', () => {
    const { report } = get('fee-stack')
    const fee = report.codeChecks.ownershipChecks.slippageModifiable
    expect([fee.status, fee.risk]).toEqual(['1', 'Critical'])
    expect(fee.comment).toContain('at 95 a holder\'s sell tax reaches 99%')
    expect(fee.comment).toContain('from 96 on every sale fails (the fees themselves, not a size limit)')
    expect(fee.comment).toContain(`paid to ${getAddress(zoo.world.manifest.accounts!.feeWallet)}`)
    expect(fee.comment).toContain('which a privileged call can replace with any address')
    const pause = report.codeChecks.ownershipChecks.transferPausable
    expect(pause.status).toBe('1')
    expect(pause.comment).toContain('can make every sale fail')
  })

  it('fee-stack-capped: each capped at 5, 9 % alone and 25 % with its siblings; sales cannot be stopped', () => {
    const { report } = get('fee-stack-capped')
    const fee = report.codeChecks.ownershipChecks.slippageModifiable
    expect([fee.status, fee.risk]).toEqual(['1', 'RISKY'])
    expect(fee.comment).toContain('accepts values up to 5 (refuses 6); at 5 a holder\'s sell tax reaches 9%')
    expect(fee.comment).toContain('with 4 sibling setter(s) at their largest accepted values, the sell tax reaches 25%')
    expect(report.codeChecks.ownershipChecks.transferPausable.status).toBe('0')
  })

  it('close-trade: a 99 % tax by another name stops trading; tax-capped does not; tax-modifiable searched to its cap', () => {
    const close = get('close-trade').report.codeChecks.ownershipChecks.transferPausable
    expect(close.status).toBe('1')
    expect(close.comment).toContain('can push the sell tax to 99%')
    expect(get('tax-capped').report.codeChecks.ownershipChecks.transferPausable.status).toBe('0')
    expect(get('tax-capped').report.codeChecks.ownershipChecks.slippageModifiable.comment).toContain('accepts values up to 1000 (refuses ')
    const modifiable = get('tax-modifiable').report
    expect(modifiable.codeChecks.ownershipChecks.slippageModifiable.comment).toContain('accepts values up to 10000')
    expect(modifiable.codeChecks.ownershipChecks.transferPausable.status).toBe('1')
  })

  it('clamp-90: a whole-balance sale that goes through but leaves a tenth behind cannot sell all; clean sells all', () => {
    const clamp = get('clamp-90').report.codeChecks.otherChecks.cannotSellAll
    expect(clamp.status).toBe('1')
    expect(clamp.comment).toMatch(/did not revert, but 10% of the tokens sent never reached the pool \(half a balance lost 0%\)/)
    expect(get('clean').report.codeChecks.otherChecks.cannotSellAll.status).toBe('0')
  })

  it('holders of record: on clamp-90 a whole sell keeps a tenth (evidence, with the share kept); on fee-stack-capped they sell everything', () => {
    const clamp = get('clamp-90').facts
    expect(clamp.holderSells?.holders.filter((h) => h.outcome === 'clamped').length).toBeGreaterThan(0)
    expect(clampedHolders(clamp)).toMatch(/largest holders of record, selling their whole balance .* saw the sell go through and part of the balance stay \(the pool's sell tax is 0%\): 0x[0-9a-fA-F]{40} kept 10%/)
    // Holders who pay the 5 % sell tax sell everything: nothing held back (the fee wallet, when it is
    // among them, gets its own fee back: what stays is no more than the tax).
    const capped = get('fee-stack-capped').facts
    expect(capped.holderSells?.holders.length).toBeGreaterThan(0)
    expect(capped.holderSells?.holders.every((h) => h.outcome === 'sold' || (h.outcome === 'clamped' && (h.leftPercent ?? 100) <= (h.taxPercent ?? 0) + 0.01))).toBe(true)
    expect(clampedHolders(capped)).toBeUndefined()
  })

  it('fee-stack-capped: its fee wallet, selling all, keeps its own fee: no clamp', () => {
    expect(get('fee-stack-capped').report.codeChecks.otherChecks.cannotSellAll.status).toBe('0')
  })

  it('freeze-reads: balances that cannot be read after a call are unknown, never 0: a pause, nothing taken', () => {
    const { report } = get('freeze-reads')
    const pause = report.codeChecks.ownershipChecks.transferPausable
    expect(pause.status).toBe('1')
    expect(pause.comment).toContain('could not be read (unknown, not counted as taken)')
    expect(report.codeChecks.ownershipChecks.ownerChangeBalance.status).toBe('0')
    expect(report.codeChecks.ownershipChecks.isMintable.status).toBe('0')
  })

  it('seize-all: the holder emptied by the owner is taken from, not blacklisted', () => {
    const { report } = get('seize-all')
    expect(report.codeChecks.ownershipChecks.ownerChangeBalance.status).toBe('1')
    expect(report.codeChecks.ownershipChecks.isBlacklisted.status).toBe('0')
    expect(report.codeChecks.ownershipChecks.personalSlippageModifiable.status).toBe('0')
  })

  it('display-balance: a shown balance brought down to what is held, with nothing moving, is not taken; silent-take, the same call halving what is held, is', () => {
    const shown = get('display-balance').report.codeChecks
    expect(shown.ownershipChecks.ownerChangeBalance.status).toBe('0')
    expect(shown.ownershipChecks.ownerChangeBalance.comment).toMatch(/lowered the balance shown of a holder by \d+ raw units with nothing moving, a balance shown and not held/)
    // The balance shown never sells whole: that much is true of it.
    expect(shown.otherChecks.cannotSellAll.status).toBe('1')
    const take = get('silent-take').report.codeChecks.ownershipChecks.ownerChangeBalance
    expect(take.status).toBe('1')
    expect(take.comment).toMatch(/took \d+ \(raw units\) from a holder,/)
  })

  it('display-promo: every balance shown brought down to what is held (the test holders and the holders of record) is asked, and none is taken; haircut, the same fall for real, is taken', () => {
    const { report } = get('display-promo')
    const change = report.codeChecks.ownershipChecks.ownerChangeBalance
    expect(change.status).toBe('0')
    // endPromotion() lowers every balance shown: A, B and the largest holders of record were each asked by sending.
    expect(change.comment).toMatch(/lowered the balance shown of a holder by \d+ raw units, a bystander holder by \d+ raw units, the holder 0x[0-9a-fA-F]{40} by \d+ raw units, .*, \d+ more watched account\(s\) by \d+ raw units with nothing moving/)
    expect(change.comment).not.toMatch(/function 0x8aa9df1d\(\)[^;]* took /)
    expect(report.codeChecks.otherChecks.cannotSellAll.status).toBe('1')
    const cut = get('haircut').report.codeChecks.ownershipChecks.ownerChangeBalance
    expect(cut.status).toBe('1')
    // Holders of record are asked again, in one more round trip, only where no test holder was found taken from.
    expect(get('display-promo').facts.powers.askedAgain).toEqual(['0x8aa9df1d'])
    expect(get('haircut').facts.powers.askedAgain).toBeUndefined()
    expect(get('silent-take').facts.powers.askedAgain).toBeUndefined()
    expect(cut.comment).toMatch(/function 0x37528441\(\)[^;]* took \d+ \(raw units\) from a holder, \d+ \(raw units\) from a bystander holder, \d+ \(raw units\) from the holder 0x.*, \d+ \(raw units\) from \d+ more watched account\(s\), which never sent/)
  })

  it('one-shot-mint: a fixed emission is still a mint, with its amount, said to happen once', () => {
    const mint = get('one-shot-mint').report.codeChecks.ownershipChecks.isMintable
    expect(mint.status).toBe('1')
    expect(mint.comment).toContain('raised the total supply by 50000000000000000000000 (raw units), a fixed amount that can be created once')
  })
})

describe('supply at creation', () => {
  const STASH = '0x5ca1ab1e00000000000000000000000000005746'
  const written = (facts: EvmFacts) => facts.creationSupply?.list.map((u) => [u.address.toLowerCase(), u.percentOfSupply, u.transferred])

  it('arg-allocation: 5 % written at creation for an account only the constructor\'s arguments name is found by running the creation again', () => {
    const { facts, report } = get('arg-allocation')
    // Neither the code, the storage nor any event names the stash: the balances of named accounts miss it.
    expect(facts.unexplainedBalances?.list).toEqual([])
    expect([facts.creationSupply?.method, facts.creationSupply?.percentOfSupply]).toEqual(['re-run', 5])
    expect(written(facts)).toEqual([[STASH, 5, 0n]])
    expect(report.tokenInformation.anomalies.join(' ')).toContain(
      `at creation, 5% of the total supply was written into balances that no Transfer event explains (its creation code run again): ${getAddress(STASH)} 50000 (5%)`,
    )
    // The creation of hidden-allocation writes its stash's 5 % too; open-allocation's has its Transfer.
    expect(get('hidden-allocation').facts.creationSupply?.list.map((u) => u.percentOfSupply)).toEqual([5])
    expect(get('open-allocation').facts.creationSupply).toMatchObject({ method: 're-run', list: [], percentOfSupply: 0 })
    expect(get('clean').facts.creationSupply).toMatchObject({ method: 're-run', list: [] })
  })

  it('traced where the node traces and takes no state overrides; neither: unread, and said why', async () => {
    // A creation of this session (the saved world's history cannot be traced: anvil keeps no state of it).
    const artifact = loadArtifact('ZooArgAllocation')
    const args = ['Traced Allocation', 'TRACE', 10n ** 24n, zoo.world.manifest.contracts.v2Factory, [zoo.world.manifest.contracts.weth], STASH] as const
    const data = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: [...args] })
    const rpc = async <T>(method: string, params: unknown[]): Promise<T> =>
      ((await (await fetch(zoo.world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: T }).result
    const hash = await rpc<Hex>('eth_sendTransaction', [{ from: zoo.world.manifest.deployer, data, gas: '0x1c9c380' }])
    await rpc('anvil_mine', ['0x1'])
    let receipt: { contractAddress: Address } | null = null
    while (!receipt) receipt = await rpc('eth_getTransactionReceipt', [hash])
    const proxies: NodeKindProxy[] = []
    const on = async (kind: Parameters<typeof startNodeKindProxy>[1]) => {
      const proxy = await startNodeKindProxy(zoo.world.rpcUrl, kind)
      proxies.push(proxy)
      const service = createEvmReportService({ registry: loadChainRegistry({ chains: localChains({ ...zoo.world.manifest, rpcUrl: proxy.url }) }), cache: createMemoryCache(), store: zoo.store, logger: silent })
      return (await service.reportWithFacts(31337, receipt!.contractAddress, {})).facts.creationSupply
    }
    try {
      const traced = await on({ name: 'tracing, no state overrides', description: 'debug_* and ots_*, no state overrides', missing: ['eth_simulateV1'], noStateOverride: true })
      expect(traced?.method).toBe('trace')
      expect(traced?.note).toContain("shares are of today's total supply")
      expect(traced?.list.map((u) => [u.address.toLowerCase(), u.percentOfSupply])).toEqual([[STASH, 5]])
      const blind = await on({ name: 'neither', description: 'no debug_*, no state overrides', missing: ['debug_', 'eth_simulateV1', 'trace_'], noStateOverride: true })
      expect(blind).toMatchObject({ method: '', list: [], percentOfSupply: undefined })
      expect(blind?.note).toContain('the node takes no state overrides (the creation was not run again), and the node has no debug_traceTransaction')
    } finally {
      for (const p of proxies) await p.close()
    }
  }, 120_000)
})
