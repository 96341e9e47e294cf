/*
 * The contracts a token's pools run beside it on every trade (a Uniswap V4 pool's hook), as the
 * venues name them: their code and who they say owns them (owner(), getOwner()), read in one round
 * trip once the pools are known. Their privileged functions are tried as owner powers over the
 * token's trading (powers.ts), with these owners and the token's own privileged accounts.
 */
import { encodeFunctionData, getAddress, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { analyzeCode, type CodeAnalysis } from '../chain/bytecode.ts'
import { PROXY_SLOTS } from '../chain/proxy.ts'
import type { PoolFact, PowerCandidate } from '../facts.ts'
import { venueOf } from '../venues/registry.ts'
import type { PoolContract } from '../venues/venue.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { probeReads } from './probe-reads.ts'
import { MAX_CANDIDATES } from './powers.ts'

/** Contracts beside the token whose powers are tried, at most (one owner-power simulation per function of each). */
export const MAX_POOL_CONTRACTS = 2

const OWNER_ABI = parseAbi(['function owner() view returns (address)', 'function getOwner() view returns (address)'])
const OWNER_GETTERS = ['owner', 'getOwner'] as const

export interface PoolContractFact extends PoolContract {
  /** Its code, analysed; undefined when it could not be read or only forwards (its powers are then not measured: `unread` says why). */
  logic: CodeAnalysis | undefined
  unread: string
  /** The accounts its owner getters name (none renounced to address zero). */
  owners: PowerCandidate[]
  /** How its code can be replaced, in words ('' when it cannot: it is no proxy); `admin` is who can, when a slot names it. */
  upgrade: string
  admin?: Address
}

/** The EIP-1967 slots read of each contract: its implementation, its admin, its beacon. */
const UPGRADE_SLOTS = [PROXY_SLOTS.eip1967Implementation, PROXY_SLOTS.eip1967Admin, PROXY_SLOTS.eip1967Beacon] as const

/** An address in a storage word (undefined for zero or a word that is not one). */
function slotAddress(word: Hex | undefined): Address | undefined {
  if (!word || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) return undefined
  const v = BigInt(word)
  return v === 0n || v >= 1n << 160n ? undefined : getAddress(`0x${v.toString(16).padStart(40, '0')}`)
}

/**
 * Whether a contract's code can be replaced: a contract that forwards its calls (delegatecall)
 * with an implementation or a beacon in the EIP-1967 slots is a proxy; an admin slot names who
 * upgrades it, else its implementation (UUPS) or its beacon's owner may.
 */
export function upgradeOf(logic: CodeAnalysis | undefined, words: readonly (Hex | undefined)[]): { upgrade: string; admin?: Address; implementation?: Address } {
  const [implementation, admin, beacon] = words.map(slotAddress)
  if (!logic?.reachable.delegateCall || (!implementation && !beacon)) return { upgrade: '' }
  if (beacon && !implementation) return { upgrade: `a beacon proxy (EIP-1967) whose code its beacon ${beacon} names: the beacon's owner can replace it` }
  const by = admin ? `its admin ${admin} can replace it` : 'its implementation may let it be replaced (UUPS)'
  return { upgrade: `an EIP-1967 proxy running the code of ${implementation}: ${by}`, ...(admin ? { admin } : {}), implementation }
}

/** The contracts the pools' venues name, each once, the first `MAX_POOL_CONTRACTS`. */
export function poolContracts(pools: readonly PoolFact[]): PoolContract[] {
  const out: PoolContract[] = []
  for (const pool of pools) {
    for (const c of venueOf(pool.dexType).poolContracts?.(pool) ?? []) {
      if (!out.some((x) => sameAddress(x.address, c.address))) out.push(c)
    }
  }
  return out.slice(0, MAX_POOL_CONTRACTS)
}

function ownerOf(success: boolean, data: Hex): Address | undefined {
  if (!success || !/^0x[0-9a-fA-F]{64}/.test(data)) return undefined
  const word = BigInt(data.slice(0, 66))
  if (word >= 1n << 160n || word === 0n) return undefined
  return getAddress(`0x${word.toString(16).padStart(40, '0')}`)
}

/** Reads the code and the owners of the contracts the token's pools run beside it (one round trip). */
export async function readPoolContracts(ctx: CollectContext, pools: readonly PoolFact[], block: Hex): Promise<PoolContractFact[]> {
  const contracts = poolContracts(pools)
  if (contracts.length === 0) return []
  const calls = contracts.flatMap((c) => OWNER_GETTERS.map((functionName) => ({ target: c.address, data: encodeFunctionData({ abi: OWNER_ABI, functionName }) })))
  const [codes, reads, slots] = await Promise.all([
    Promise.all(contracts.map((c) => ctx.rpc.request<Hex>('eth_getCode', [c.address, block]))),
    probeReads(ctx, calls, block),
    Promise.all(contracts.map((c) => Promise.all(UPGRADE_SLOTS.map((slot) => ctx.rpc.request<Hex>('eth_getStorageAt', [c.address, slot, block]))))),
  ])
  return contracts.map((c, i) => {
    const owners: PowerCandidate[] = []
    OWNER_GETTERS.forEach((getter, j) => {
      const r = reads[i * OWNER_GETTERS.length + j]
      const owner = ownerOf(r.success, r.returnData)
      if (owner && !sameAddress(owner, ctx.token) && !sameAddress(owner, ZERO_ADDRESS) && !owners.some((o) => sameAddress(o.address, owner))) {
        owners.push({ address: owner, source: `${getter}() of ${c.label}`, ownerOf: c.address })
      }
    })
    const code = codes[i]
    const analysed = code && code !== '0x' ? analyzeCode(code) : undefined
    const { upgrade, admin, implementation } = upgradeOf(analysed, slots[i])
    // A proxy's own code only forwards: the functions that matter are its implementation's, read a round trip later than the powers run.
    const unread = !analysed ? 'its code could not be read' : upgrade ? `its code forwards to ${implementation ?? 'the code its beacon names'} (a proxy), whose functions are not read within a report's round trips` : ''
    return { ...c, logic: upgrade ? undefined : analysed, unread, owners, upgrade, ...(admin ? { admin } : {}) }
  })
}

/** Who may call a pool contract's functions: its own owners first, then the token's privileged accounts. */
export function poolContractCandidates(contract: PoolContractFact, tokenCandidates: readonly PowerCandidate[]): PowerCandidate[] {
  const out = [...contract.owners]
  for (const c of tokenCandidates) if (!out.some((x) => sameAddress(x.address, c.address))) out.push(c)
  return out.slice(0, MAX_CANDIDATES)
}

/** The token's pools with those that run `contract` first: its powers are measured on a pool that runs it. */
export function poolsRunning(pools: readonly PoolFact[], contract: PoolContract): PoolFact[] {
  const runs = (p: PoolFact) => (venueOf(p.dexType).poolContracts?.(p) ?? []).some((c) => sameAddress(c.address, contract.address))
  return [...pools.filter(runs), ...pools.filter((p) => !runs(p))]
}
