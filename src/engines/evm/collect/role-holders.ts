/*
 * Accounts the token granted a role (OpenZeppelin AccessControl and look-alikes). A role holder can
 * hold powers that no getter, storage slot or constant names (the role mapping is keyed by hashes),
 * so each is tried as a privileged caller. Two sources, read in the same round trip beside the
 * holder index:
 *
 * - the RoleGranted logs, less the grants a RoleRevoked log took back since (from the token's
 *   first block, as far as the node's log limit allows);
 * - the enumerable getters (`getRoleMemberCount`/`getRoleMember`, or `getRoleMembers`) of a token
 *   whose code has them, for the default admin role, the role-like 32-byte constants of its code and
 *   the usual role names: they list holders granted without an event, granted beyond the logs
 *   read, or on a node that refuses the logs.
 */
import { getAddress, keccak256, stringToBytes, toFunctionSelector } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { CodeAnalysis } from '../chain/bytecode.ts'
import { addressFromWord } from '../chain/proxy.ts'
import { getLogsAdaptive } from '../chain/logs.ts'
import type { ReadCall, ReadResult } from '../chain/probe.ts'
import { ZERO_ADDRESS, type CollectContext } from './context.ts'
import { probeReads } from './probe-reads.ts'

/** RoleGranted(bytes32 indexed role, address indexed account, address indexed sender). */
export const ROLE_GRANTED_TOPIC: Hex = '0x2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d'
/** RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender). */
export const ROLE_REVOKED_TOPIC: Hex = '0xf6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b'
/** Ranges of the node's `eth_getLogs` limit read from the token's first block, at most (one round trip). */
export const ROLE_LOG_CHUNKS = 8n
/** Role holders tried as callers, at most (besides the other candidates). */
export const MAX_ROLE_HOLDERS = 4
/** Role identifiers whose members are read, at most. */
export const MAX_ROLE_IDS = 20
/** Members of one role read by index (`getRoleMember(role, 0…)`), at most. */
export const MAX_MEMBERS_PER_ROLE = 4

/** getRoleMember(bytes32,uint256): OpenZeppelin AccessControlEnumerable (4.x and 5.x). */
export const GET_ROLE_MEMBER: Hex = toFunctionSelector('function getRoleMember(bytes32,uint256)')
/** getRoleMemberCount(bytes32) */
export const GET_ROLE_MEMBER_COUNT: Hex = toFunctionSelector('function getRoleMemberCount(bytes32)')
/** getRoleMembers(bytes32): OpenZeppelin 5.1 and later, the whole list at once. */
export const GET_ROLE_MEMBERS: Hex = toFunctionSelector('function getRoleMembers(bytes32)')

/** The default admin role of AccessControl (the zero word). */
export const DEFAULT_ADMIN_ROLE: Hex = `0x${'00'.repeat(32)}`

/** Role names tokens commonly hash into their role identifiers (`keccak256("MINTER_ROLE")`). */
export const ROLE_NAMES = [
  'MINTER_ROLE', 'PAUSER_ROLE', 'BURNER_ROLE', 'ADMIN_ROLE', 'OPERATOR_ROLE', 'MANAGER_ROLE', 'BLACKLISTER_ROLE',
  'UPGRADER_ROLE', 'GOVERNOR_ROLE', 'SNAPSHOT_ROLE', 'BRIDGE_ROLE', 'FREEZER_ROLE', 'RESCUER_ROLE', 'TREASURY_ROLE',
] as const

const NAMED = new Map<string, string>([[DEFAULT_ADMIN_ROLE, 'DEFAULT_ADMIN_ROLE'], ...ROLE_NAMES.map((n) => [keccak256(stringToBytes(n)), n] as [string, string])])

/**
 * 32-byte constants a code pushes that are no role: the ERC-20 and ownership event topics, the
 * role events themselves, the EIP-712 and permit type hashes, the EIP-1967 slots.
 */
const NOT_ROLES = new Set<string>([
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  '0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0',
  ROLE_GRANTED_TOPIC,
  ROLE_REVOKED_TOPIC,
  keccak256(stringToBytes('RoleAdminChanged(bytes32,bytes32,bytes32)')),
  keccak256(stringToBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')),
  keccak256(stringToBytes('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)')),
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
])

/** A 32-byte constant that reads as text (mostly printable bytes) is a string, not a role. */
function isText(w: Hex): boolean {
  const bytes = w.slice(2).match(/../g)!.map((b) => parseInt(b, 16))
  return bytes.filter((b) => b >= 0x20 && b < 0x7f).length >= 24
}

/** A role as a note names it: its usual name, or the start of its identifier. */
export function roleName(role: Hex): string {
  return NAMED.get(role.toLowerCase()) ?? `role ${role.slice(0, 10)}…`
}

/**
 * The role identifiers whose members are read: the default admin role, the role-like 32-byte
 * constants of the code (neither text nor a known event topic, type hash or slot), then the usual
 * role names hashed, without repeats, `MAX_ROLE_IDS` at most.
 */
export function roleIds(logic: Pick<CodeAnalysis, 'constants32'> | undefined): Hex[] {
  const fromCode = (logic?.constants32 ?? []).map((w) => w.toLowerCase() as Hex).filter((w) => BigInt(w) !== 0n && !NOT_ROLES.has(w) && !isText(w))
  const all = [DEFAULT_ADMIN_ROLE, ...fromCode, ...ROLE_NAMES.map((n) => keccak256(stringToBytes(n)))]
  return [...new Set(all)].slice(0, MAX_ROLE_IDS)
}

/** Whether a code lists its role members: `getRoleMember` (with or without the count) or `getRoleMembers`. */
export function enumeratesRoles(logic: Pick<CodeAnalysis, 'selectors'> | undefined): boolean {
  return !!logic && (logic.selectors.has(GET_ROLE_MEMBER) || logic.selectors.has(GET_ROLE_MEMBERS))
}

/** How the members are asked: by index, or the whole list. */
export type RoleReadStyle = 'byIndex' | 'list'

/** The reads of a role id's members: its count, then its members by index or as one list. */
export function roleReadCalls(token: Address, ids: readonly Hex[], style: RoleReadStyle): ReadCall[] {
  const word = (v: bigint) => v.toString(16).padStart(64, '0')
  return ids.flatMap((id) => {
    const role = id.slice(2)
    const count: ReadCall = { target: token, data: `${GET_ROLE_MEMBER_COUNT}${role}` }
    if (style === 'list') return [count, { target: token, data: `${GET_ROLE_MEMBERS}${role}` as Hex }]
    return [count, ...Array.from({ length: MAX_MEMBERS_PER_ROLE }, (_, i): ReadCall => ({ target: token, data: `${GET_ROLE_MEMBER}${role}${word(BigInt(i))}` as Hex }))]
  })
}

/** A role's members as read from its getters. */
export interface RoleMembers {
  role: Hex
  /** getRoleMemberCount: undefined when the token has no such getter or it failed. */
  count: bigint | undefined
  members: Address[]
  /** Members the count announces that could not be read (failed or beyond those read). */
  unread: number
}

function word(r: ReadResult | undefined, at = 0): bigint | undefined {
  if (!r?.success) return undefined
  const hex = r.returnData.slice(2 + at * 64, 2 + (at + 1) * 64)
  return hex.length === 64 ? BigInt(`0x${hex}`) : undefined
}

/** A member as its word reads: the address in the low 20 bytes, none for zero or a wider word. */
const asAddress = (v: bigint) => addressFromWord(`0x${v.toString(16)}`)

/**
 * What the reads of `roleReadCalls` say, role by role. Without a count, the members read until the
 * first failure are the list (the end of a list reverts). A list longer than the reader returns is
 * read as far as it goes, and the rest counted as unread.
 */
export function decodeRoleReads(ids: readonly Hex[], style: RoleReadStyle, results: readonly ReadResult[]): RoleMembers[] {
  const per = style === 'list' ? 2 : 1 + MAX_MEMBERS_PER_ROLE
  return ids.map((role, k) => {
    const rs = results.slice(k * per, (k + 1) * per)
    const count = word(rs[0])
    const members: Address[] = []
    let read = 0
    if (style === 'list') {
      const r = rs[1]
      const offset = word(r)
      const length = offset !== undefined && offset % 32n === 0n && offset < 1024n ? word(r, Number(offset / 32n)) : undefined
      if (length !== undefined) {
        const first = Number(offset! / 32n) + 1
        for (let i = 0; i < Number(length < 64n ? length : 64n); i++) {
          const v = word(r, first + i)
          if (v === undefined) break
          read++
          const a = asAddress(v)
          if (a) members.push(a)
        }
      }
      const announced = count ?? length
      return { role, count: announced, members, unread: announced !== undefined && announced > BigInt(read) ? Number(announced - BigInt(read)) : 0 }
    }
    for (let i = 0; i < MAX_MEMBERS_PER_ROLE; i++) {
      if (count !== undefined && BigInt(i) >= count) break
      const v = word(rs[1 + i])
      if (v === undefined) {
        if (count === undefined) break
        continue
      }
      read++
      const a = asAddress(v)
      if (a) members.push(a)
    }
    return { role, count, members, unread: count !== undefined && count > BigInt(read) ? Number(count - BigInt(read)) : 0 }
  })
}

/** What the role getters answered: each role's members, or why they could not be read. */
export type RoleMembersRead = { roles: RoleMembers[]; style: RoleReadStyle } | { why: string }

/**
 * Reads the members of every role id of `roleIds(logic)` through the token's enumerable getters,
 * in one call of the probe's reader: by index, unless the code has only `getRoleMembers` (a
 * proxy's own code has neither: by index). Never throws: a failed read says why.
 */
export async function readRoleMembers(ctx: CollectContext, logic: CodeAnalysis | undefined, block: Hex): Promise<RoleMembersRead> {
  const style: RoleReadStyle = logic && !logic.selectors.has(GET_ROLE_MEMBER) && logic.selectors.has(GET_ROLE_MEMBERS) ? 'list' : 'byIndex'
  const ids = roleIds(logic)
  try {
    const results = await probeReads(ctx, roleReadCalls(ctx.token, ids, style), block)
    return { roles: decodeRoleReads(ids, style, results), style }
  } catch (error) {
    return { why: (error as Error).message.slice(0, 160) }
  }
}

/** An account holding a role, where it was seen, and whether the role is the default admin's. */
export interface RoleHolder {
  address: Address
  /** 'RoleGranted': a grant in the logs not revoked since; 'getRoleMember': listed by the token's getters. */
  how: 'RoleGranted' | 'getRoleMember'
  role: Hex
}

/** What the role logs say: the accounts that hold some role now, and how far the logs were read. */
export interface RoleLogs {
  holders: RoleHolder[]
  note: string
}

/**
 * The accounts holding a role at `head`: granted by a RoleGranted log and not revoked (for that
 * role) by a later RoleRevoked log. Reads from `from` up to `ROLE_LOG_CHUNKS` ranges of the node's
 * limit; a longer history is read in its first part (roles are granted at launch) and says so.
 */
export async function collectRoleHolders(ctx: CollectContext, from: bigint, head: bigint): Promise<RoleLogs> {
  const span = ctx.logLimit.maxRange * ROLE_LOG_CHUNKS
  const to = from + span - 1n < head ? from + span - 1n : head
  const { logs, missing } = await getLogsAdaptive(ctx.rpc, { address: [ctx.token], topics: [[ROLE_GRANTED_TOPIC, ROLE_REVOKED_TOPIC]] }, from, to, ctx.logLimit)
  const held = new Map<string, RoleHolder>()
  for (const log of logs) {
    const [topic, role, account] = log.topics as Hex[]
    if (!role || !account) continue
    const address = getAddress(`0x${account.slice(26)}`)
    const key = `${role}:${address.toLowerCase()}`
    if (topic === ROLE_GRANTED_TOPIC) held.set(key, { address, how: 'RoleGranted', role: role.toLowerCase() as Hex })
    else held.delete(key)
  }
  const read = missing.length > 0 ? 'some ranges were refused by the node' : to < head ? `read up to block ${to}` : ''
  return { holders: [...held.values()], note: read ? `role logs ${read}` : '' }
}

/** The role holders of a token, both sources merged; `unread` says which holders may be missing. */
export interface RoleHolders {
  /** Holders of roles other than the default admin first (the admin is most often the deployer, tried anyway). */
  holders: RoleHolder[]
  /** How far the sources were read: logs read in part, members the getters announce beyond those read ('' when all was read). */
  note: string
  /**
   * Why the holders are unknown: the getters of a code that has them could not be read ('' when
   * they were, or the code has none). Unknown is never "no holder".
   */
  unread: string
}

/**
 * Merges the holders of the logs and of the getters, each account once (a log's grant names it
 * first), holders of roles other than the default admin first. `getters` is undefined when the
 * code lists no role members (nothing was asked).
 */
export function mergeRoleHolders(logs: RoleLogs, getters: RoleMembersRead | undefined): RoleHolders {
  const all: RoleHolder[] = [...logs.holders]
  const notes = logs.note ? [logs.note] : []
  let unread = ''
  if (getters && 'why' in getters) unread = `the role members could not be read (getRoleMember): ${getters.why}; an account holding a role may hold powers not tried`
  else if (getters) {
    for (const r of getters.roles) {
      for (const address of r.members) all.push({ address, how: 'getRoleMember', role: r.role })
      if (r.unread > 0) notes.push(`${roleName(r.role)} has ${r.count} members, ${r.unread} not read`)
    }
  }
  const admin = (h: RoleHolder) => BigInt(h.role) === 0n
  const ordered = [...all.filter((h) => !admin(h)), ...all.filter(admin)].filter((h) => h.address !== ZERO_ADDRESS)
  const holders = ordered.filter((h, i) => ordered.findIndex((x) => x.address.toLowerCase() === h.address.toLowerCase()) === i)
  return { holders, note: notes.slice(0, 4).join('; '), unread }
}
