/*
 * Accounts the token granted a role (OpenZeppelin AccessControl and look-alikes): its RoleGranted
 * logs, less the grants a RoleRevoked log took back since. A role holder can hold powers that no
 * getter, storage slot or constant names (the role mapping is keyed by hashes), so each is tried as
 * a privileged caller. Read in one round trip beside the holder index, from the token's first block.
 */
import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { getLogsAdaptive } from '../chain/logs.ts'
import type { CollectContext } from './context.ts'

/** RoleGranted(bytes32 indexed role, address indexed account, address indexed sender). */
export const ROLE_GRANTED_TOPIC: Hex = '0x2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d'
/** RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender). */
export const ROLE_REVOKED_TOPIC: Hex = '0xf6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b'
/** Ranges of the node's `eth_getLogs` limit read from the token's first block, at most (one round trip). */
export const ROLE_LOG_CHUNKS = 8n
/** Role holders kept, at most. */
export const MAX_ROLE_HOLDERS = 4

/** What the role logs say: the accounts that hold some role now, and how far the logs were read. */
export interface RoleHolders {
  holders: Address[]
  note: string
}

/**
 * The accounts holding a role at `head`: granted by a RoleGranted log and not revoked (for that
 * role) by a later RoleRevoked log. Reads from `from` up to `ROLE_LOG_CHUNKS` ranges of the node's
 * limit; a longer history is read in its first part (roles are granted at launch) and says so.
 */
export async function collectRoleHolders(ctx: CollectContext, from: bigint, head: bigint): Promise<RoleHolders> {
  const span = ctx.logLimit.maxRange * ROLE_LOG_CHUNKS
  const to = from + span - 1n < head ? from + span - 1n : head
  const { logs, missing } = await getLogsAdaptive(ctx.rpc, { address: [ctx.token], topics: [[ROLE_GRANTED_TOPIC, ROLE_REVOKED_TOPIC]] }, from, to, ctx.logLimit)
  const held = new Map<string, Address>()
  for (const log of logs) {
    const [topic, role, account] = log.topics as Hex[]
    if (!role || !account) continue
    const address = getAddress(`0x${account.slice(26)}`)
    const key = `${role}:${address.toLowerCase()}`
    if (topic === ROLE_GRANTED_TOPIC) held.set(key, address)
    else held.delete(key)
  }
  const holders = [...new Set([...held.values()])].slice(0, MAX_ROLE_HOLDERS)
  const read = missing.length > 0 ? 'some ranges were refused by the node' : to < head ? `read up to block ${to}` : ''
  return { holders, note: read ? `role logs ${read}` : '' }
}
