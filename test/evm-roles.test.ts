// Role holders as callers: the members a token's enumerable getters list (getRoleMemberCount,
// getRoleMember, getRoleMembers), merged with the RoleGranted logs. A holder granted without any
// event is found and tried; a read that fails leaves the holders unknown, never "none". Against the
// local world: a token whose quietly granted supply keeper mints, and its twin whose quietly
// granted herald may only announce; the same behind a transparent proxy.
import { encodeAbiParameters, getAddress, keccak256, stringToBytes, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ReadResult } from '../src/engines/evm/chain/probe.ts'
import { hiddenOwner } from '../src/engines/evm/checks/hidden-owner.ts'
import type { EvmFacts, PowersFact } from '../src/engines/evm/facts.ts'
import {
  DEFAULT_ADMIN_ROLE,
  GET_ROLE_MEMBER,
  GET_ROLE_MEMBERS,
  GET_ROLE_MEMBER_COUNT,
  MAX_MEMBERS_PER_ROLE,
  MAX_ROLE_IDS,
  ROLE_GRANTED_TOPIC,
  decodeRoleReads,
  enumeratesRoles,
  mergeRoleHolders,
  roleIds,
  roleReadCalls,
} from '../src/engines/evm/collect/role-holders.ts'
import { useZooReports } from './helpers/zoo-reports.ts'

const TOKEN = '0x00000000000000000000000000000000000000cc' as Address
const A = getAddress('0x1111111111111111111111111111111111111111')
const B = getAddress('0x2222222222222222222222222222222222222222')
const C = getAddress('0x3333333333333333333333333333333333333333')
const MINTER = keccak256(stringToBytes('MINTER_ROLE'))
const CUSTOM = keccak256(stringToBytes('tokenrisk.test.CUSTOM'))
const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const PERMIT_TYPEHASH = keccak256(stringToBytes('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)'))
const TEXT = `0x${Buffer.from('a string kept in a 32-byte word!').toString('hex')}` as Hex

const ok = (data: Hex): ReadResult => ({ success: true, returnData: data })
const failed: ReadResult = { success: false, returnData: '0x' }
const uint = (v: bigint) => ok(encodeAbiParameters([{ type: 'uint256' }], [v]))
const address = (a: Address) => ok(encodeAbiParameters([{ type: 'address' }], [a]))
const list = (as: Address[]) => ok(encodeAbiParameters([{ type: 'address[]' }], [as]))

describe('role ids and their reads', () => {
  it('asks the default admin role, the role-like constants of the code, then the usual names; no event topic, type hash or text', () => {
    const ids = roleIds({ constants32: [TRANSFER_TOPIC, ROLE_GRANTED_TOPIC, PERMIT_TYPEHASH, TEXT, CUSTOM, MINTER] })
    expect(ids[0]).toBe(DEFAULT_ADMIN_ROLE)
    expect(ids[1]).toBe(CUSTOM)
    expect(ids[2]).toBe(MINTER)
    for (const no of [TRANSFER_TOPIC, ROLE_GRANTED_TOPIC, PERMIT_TYPEHASH, TEXT]) expect(ids).not.toContain(no)
    // MINTER_ROLE is asked once, though both a constant and a usual name.
    expect(ids.filter((x) => x === MINTER)).toHaveLength(1)
    expect(ids).toContain(keccak256(stringToBytes('PAUSER_ROLE')))
    expect(roleIds(undefined).length).toBeLessThanOrEqual(MAX_ROLE_IDS)
  })

  it('reads a role only where the code lists its members', () => {
    expect(enumeratesRoles({ selectors: new Set([GET_ROLE_MEMBER]) })).toBe(true)
    expect(enumeratesRoles({ selectors: new Set([GET_ROLE_MEMBERS]) })).toBe(true)
    expect(enumeratesRoles({ selectors: new Set([GET_ROLE_MEMBER_COUNT]) })).toBe(false)
    expect(enumeratesRoles(undefined)).toBe(false)
  })

  it('by index: the count, then the members up to it; more than read, or a member that failed, is counted unread', () => {
    const ids = [DEFAULT_ADMIN_ROLE, MINTER, CUSTOM]
    const calls = roleReadCalls(TOKEN, ids, 'byIndex')
    expect(calls).toHaveLength(ids.length * (1 + MAX_MEMBERS_PER_ROLE))
    expect(calls[0].data).toBe(`${GET_ROLE_MEMBER_COUNT}${'00'.repeat(32)}`)
    expect(calls[1 + 5].data).toBe(`${GET_ROLE_MEMBER}${MINTER.slice(2)}${'0'.repeat(63)}0`)
    expect(calls[2 + 5].data).toBe(`${GET_ROLE_MEMBER}${MINTER.slice(2)}${'0'.repeat(63)}1`)
    const per = (count: ReadResult, ...members: ReadResult[]) => [count, ...members, ...Array.from({ length: MAX_MEMBERS_PER_ROLE - members.length }, () => failed)]
    const results = [
      ...per(uint(1n), address(A)),
      ...per(uint(6n), address(B), address(C), address(A), address(B)),
      ...per(uint(2n), address(C), failed),
    ]
    const roles = decodeRoleReads(ids, 'byIndex', results)
    expect(roles[0]).toEqual({ role: DEFAULT_ADMIN_ROLE, count: 1n, members: [A], unread: 0 })
    expect(roles[1].members).toEqual([B, C, A, B])
    expect(roles[1].unread).toBe(2)
    expect(roles[2]).toEqual({ role: CUSTOM, count: 2n, members: [C], unread: 1 })
  })

  it('by index without a count: the members until the first that fails', () => {
    const roles = decodeRoleReads([MINTER], 'byIndex', [failed, address(A), address(B), failed, address(C)])
    expect(roles[0]).toEqual({ role: MINTER, count: undefined, members: [A, B], unread: 0 })
  })

  it('as one list (getRoleMembers): every member, and the count checked against it', () => {
    const calls = roleReadCalls(TOKEN, [MINTER], 'list')
    expect(calls.map((c) => c.data.slice(0, 10))).toEqual([GET_ROLE_MEMBER_COUNT, GET_ROLE_MEMBERS])
    expect(decodeRoleReads([MINTER], 'list', [uint(2n), list([A, B])])[0]).toEqual({ role: MINTER, count: 2n, members: [A, B], unread: 0 })
    expect(decodeRoleReads([MINTER], 'list', [failed, list([C])])[0]).toEqual({ role: MINTER, count: 1n, members: [C], unread: 0 })
    // A list the reader cut short: the members it returned, the rest unread.
    const cut = list([A, B, C])
    expect(decodeRoleReads([MINTER], 'list', [uint(3n), ok(cut.returnData.slice(0, cut.returnData.length - 64) as Hex)])[0]).toMatchObject({ members: [A, B], unread: 1 })
  })
})

describe('role holders merged', () => {
  const logs = { holders: [{ address: A, how: 'RoleGranted' as const, role: MINTER }], note: '' }

  it('each account once, a log naming it first, holders of roles other than the default admin first', () => {
    const read = { style: 'byIndex' as const, roles: [
      { role: DEFAULT_ADMIN_ROLE, count: 1n, members: [C], unread: 0 },
      { role: MINTER, count: 2n, members: [A, B], unread: 0 },
    ] }
    const merged = mergeRoleHolders(logs, read)
    expect(merged.holders.map((h) => [h.address, h.how])).toEqual([[A, 'RoleGranted'], [B, 'getRoleMember'], [C, 'getRoleMember']])
    expect(merged.unread).toBe('')
    expect(merged.note).toBe('')
  })

  it('members beyond those read are said; getters that could not be read leave the holders unknown, not none', () => {
    const more = mergeRoleHolders({ holders: [], note: 'role logs read up to block 99' }, { style: 'byIndex', roles: [{ role: MINTER, count: 9n, members: [A, B, C], unread: 6 }] })
    expect(more.note).toBe('role logs read up to block 99; MINTER_ROLE has 9 members, 6 not read')
    expect(more.unread).toBe('')
    const unknown = mergeRoleHolders(logs, { why: 'execution reverted' })
    expect(unknown.holders.map((h) => h.address)).toEqual([A])
    expect(unknown.unread).toContain('the role members could not be read (getRoleMember): execution reverted')
    // A code without the getters asks nothing: no note.
    expect(mergeRoleHolders(logs, undefined)).toEqual({ holders: logs.holders, note: '', unread: '' })
  })

  it('hiddenOwner: with the role holders unknown, no power found is undetermined, not absent', () => {
    const powers: PowersFact = {
      status: 'tested',
      reason: '',
      candidates: [{ address: A, source: 'a role holder (RoleGranted)' }],
      functionsTried: ['0x40c10f19'],
      functionsFailed: [],
      findings: [],
      funded: true,
      withPool: true,
    }
    const facts = (p: PowersFact) => ({ powers: p, owner: { declared: undefined } }) as unknown as EvmFacts
    expect(hiddenOwner.run(facts(powers)).status).toBe('absent')
    const unknown = hiddenOwner.run(facts({ ...powers, rolesUnread: 'the role members could not be read (getRoleMember): timeout; an account holding a role may hold powers not tried' }))
    expect(unknown.status).toBe('undetermined')
    expect(unknown.evidence).toContain('the role members could not be read')
    expect(hiddenOwner.run(facts({ ...powers, rolesNote: 'role logs read up to block 9' })).evidence).toContain('(role logs read up to block 9)')
  })
})

const KEYS = ['role-quiet-minter', 'role-quiet-herald', 'proxy-quiet-minter', 'proxy-quiet-operator']
/** Reports without role getters (a plain token, a proxy), for the round trips. */
const OTHERS = ['role-minter', 'proxy-transparent']
const zoo = useZooReports([...KEYS, ...OTHERS])
const checks = (key: string) => ({ ...zoo.get(key).report.codeChecks.ownershipChecks, ...zoo.get(key).report.codeChecks.otherChecks }) as Record<string, { status: string; comment: string }>

describe('the zoo of role holders granted without an event', () => {
  it('role-quiet-minter: the supply keeper only getRoleMember lists is tried and mints', () => {
    const keeper = getAddress(zoo.world.manifest.accounts!.traders.at(-3)!)
    const { facts } = zoo.get('role-quiet-minter')
    expect(facts.powers.candidates).toContainEqual({ address: keeper, source: 'a role holder (getRoleMember)' })
    const mint = checks('role-quiet-minter').isMintable
    expect(mint.status).toBe('1')
    expect(mint.comment).toContain(`as ${keeper} (a role holder (getRoleMember)), mint(address,uint256)`)
    const hidden = checks('role-quiet-minter').hiddenOwner
    expect(hidden.status).toBe('1')
    expect(hidden.comment).toContain(`${keeper} (a role holder (getRoleMember)) can still mint`)
    expect(facts.powers.rolesUnread).toBeUndefined()
  })

  it('role-quiet-herald: the herald is listed and tried, and holds no power', () => {
    const herald = getAddress(zoo.world.manifest.accounts!.traders.at(-3)!)
    const { facts } = zoo.get('role-quiet-herald')
    expect(facts.powers.candidates).toContainEqual({ address: herald, source: 'a role holder (getRoleMember)' })
    expect(checks('role-quiet-herald').isMintable.status).toBe('0')
    expect(checks('role-quiet-herald').hiddenOwner.status).toBe('0')
    expect(checks('role-quiet-herald').hiddenOwner.comment).toContain(`${herald} (a role holder (getRoleMember)) tried: no power found`)
  })

  it('proxy-quiet-minter: behind a proxy, the MINTER_ROLE holder only getRoleMember lists is tried and mints; proxy-quiet-operator\'s operator holds nothing', () => {
    const holder = getAddress(zoo.world.manifest.accounts!.traders.at(-3)!)
    const mint = checks('proxy-quiet-minter').isMintable
    expect(mint.status).toBe('1')
    expect(mint.comment).toContain(`as ${holder} (a role holder (getRoleMember)), mint(address,uint256)`)
    expect(checks('proxy-quiet-minter').hiddenOwner.status).toBe('1')
    expect(zoo.get('proxy-quiet-operator').facts.powers.candidates).toContainEqual({ address: holder, source: 'a role holder (getRoleMember)' })
    expect(checks('proxy-quiet-operator').isMintable.status).toBe('0')
    expect(checks('proxy-quiet-operator').hiddenOwner.status).toBe('0')
  })

  it('the getters are read beside the other reads: no round trip added, on a token or a proxy', () => {
    const trips = (key: string) => zoo.get(key).stats.roundTrips
    for (const key of [...KEYS, ...OTHERS]) expect(trips(key), key).toBeLessThanOrEqual(3)
    expect(trips('role-quiet-minter')).toBe(trips('role-minter'))
    expect(trips('proxy-quiet-minter')).toBe(trips('proxy-transparent'))
  })

  it('both agree with the zoo on every check', () => {
    for (const key of KEYS) {
      const expected = zoo.world.manifest.tokens.find((t) => t.key === key)!.codeChecks
      const got = Object.fromEntries(Object.entries(checks(key)).map(([name, c]) => [name, c.status]))
      expect({ key, ...got }).toEqual({ key, ...expected })
    }
  })
})
