/*
 * The contracts a token's pools run beside it on every trade (a Uniswap V4 pool's hook), as the
 * venues name them: their code and who they say owns them (owner(), getOwner()), read in one round
 * trip once the pools are known. Their privileged functions are tried as owner powers over the
 * token's trading (powers.ts), with these owners and the token's own privileged accounts.
 */
import { encodeFunctionData, getAddress, parseAbi } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { analyzeCode, type CodeAnalysis } from '../chain/bytecode.ts'
import type { PoolFact, PowerCandidate } from '../facts.ts'
import { venueOf } from '../venues/registry.ts'
import type { PoolContract } from '../venues/venue.ts'
import { ZERO_ADDRESS, sameAddress, type CollectContext } from './context.ts'
import { probeReads } from './discovery.ts'
import { MAX_CANDIDATES } from './powers.ts'

/** Contracts beside the token whose powers are tried, at most (one owner-power simulation per function of each). */
export const MAX_POOL_CONTRACTS = 2

const OWNER_ABI = parseAbi(['function owner() view returns (address)', 'function getOwner() view returns (address)'])
const OWNER_GETTERS = ['owner', 'getOwner'] as const

export interface PoolContractFact extends PoolContract {
  /** Its code, analysed; undefined when it could not be read (its powers are then not measured). */
  logic: CodeAnalysis | undefined
  /** The accounts its owner getters name (none renounced to address zero). */
  owners: PowerCandidate[]
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
  const [codes, reads] = await Promise.all([Promise.all(contracts.map((c) => ctx.rpc.request<Hex>('eth_getCode', [c.address, block]))), probeReads(ctx, calls, block)])
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
    return { ...c, logic: code && code !== '0x' ? analyzeCode(code) : undefined, owners }
  })
}

/** Who may call a pool contract's functions: its own owners first, then the token's privileged accounts. */
export function poolContractCandidates(contract: PoolContractFact, tokenCandidates: readonly PowerCandidate[]): PowerCandidate[] {
  const out = [...contract.owners]
  for (const c of tokenCandidates) if (!out.some((x) => sameAddress(x.address, c.address))) out.push(c)
  return out.slice(0, MAX_CANDIDATES)
}
