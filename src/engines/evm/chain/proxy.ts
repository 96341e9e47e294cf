import { whatsabi } from '@shazow/whatsabi'
import { decodeAbiParameters, getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { BlockRef } from './multicall.ts'
import type { RpcSession } from './rpc.ts'
import type { CodeAnalysis } from './bytecode.ts'

/** A view call whose revert is an answer (`success: false`) and whose node failure throws. */
export type ViewRead = (to: Address, data: Hex) => Promise<{ success: boolean; returnData: Hex }>

/** A view call that reverted, as whatsabi's resolvers expect one to fail. */
class ViewReverted extends Error {}

/**
 * Proxy resolution. whatsabi reads the proxy pattern from the bytecode (EIP-1967 slots, EIP-1822,
 * OpenZeppelin legacy slots, EIP-1167 and other hard-coded delegate calls, Safe, diamonds); the
 * implementation is then read from storage slots prefetched in the report's first round trip,
 * so that resolving costs no extra round trip except for beacons.
 */
export const PROXY_SLOTS = {
  /** bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) */
  eip1967Implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  /** bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1) */
  eip1967Beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
  /** bytes32(uint256(keccak256('eip1967.proxy.admin')) - 1) */
  eip1967Admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  /** keccak256('PROXIABLE') (EIP-1822) */
  eip1822: '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7',
  /** keccak256('org.zeppelinos.proxy.implementation') */
  zeppelinOsImplementation: '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
  /** keccak256('org.zeppelinos.proxy.admin') */
  zeppelinOsAdmin: '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b',
} as const satisfies Record<string, Hex>

export type ProxyKind = 'eip1967' | 'eip1967-beacon' | 'eip1822' | 'eip1167' | 'zeppelinos' | 'delegatecall' | 'safe' | 'diamond' | 'eip7702'

export interface ProxyInfo {
  kind: ProxyKind
  implementation: Address | undefined
  beacon?: Address
  /** The EIP-1967 (or legacy) admin: who can upgrade a transparent proxy. */
  admin?: Address
  /** The pattern names whatsabi found in the bytecode. */
  patterns: string[]
}

const ZERO = '0x0000000000000000000000000000000000000000'

/** The address in the low 20 bytes of a storage word, or undefined when the word is zero. */
export function addressFromWord(word: Hex | undefined): Address | undefined {
  if (!word || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) return undefined
  const hex = word.slice(2).padStart(64, '0')
  if (/^0+$/.test(hex.slice(24))) return undefined
  if (!/^0{24}$/.test(hex.slice(0, 24))) return undefined
  return getAddress(`0x${hex.slice(24)}`)
}

/**
 * Finds out whether `address` is a proxy and which contract holds its logic.
 *
 * A failure of the node while resolving is thrown, never read as "not a proxy": only a call that
 * the node says reverted counts as an answer.
 *
 * @param slots storage words already read for the slots of `PROXY_SLOTS`
 * @param read a view call (the probe's reads), for beacons and the resolvers of other patterns
 * @example
 * const proxy = await resolveProxy(rpc, token, code, analysis, slots, block, read)
 * proxy?.implementation // the logic contract, analysed instead of the proxy
 */
export async function resolveProxy(
  rpc: RpcSession,
  address: Address,
  code: Hex,
  analysis: CodeAnalysis,
  slots: Record<string, Hex | undefined>,
  block: BlockRef,
  read: ViewRead,
): Promise<ProxyInfo | undefined> {
  if (analysis.delegationTarget) return { kind: 'eip7702', implementation: analysis.delegationTarget, patterns: ['EIP7702Delegation'] }
  if (analysis.eip1167Target) return { kind: 'eip1167', implementation: analysis.eip1167Target, patterns: ['EIP1167'] }
  // Logic that only forwards is a proxy; a contract that never delegates is not, whatever slots it mentions.
  if (!analysis.reachable.delegateCall) return undefined
  const admin = addressFromWord(slots[PROXY_SLOTS.eip1967Admin]) ?? addressFromWord(slots[PROXY_SLOTS.zeppelinOsAdmin])
  const provider = {
    getCode: async () => code,
    getAddress: async (name: string) => name,
    getStorageAt: async (_addr: string, slot: number | string) => {
      const key = typeof slot === 'number' ? `0x${slot.toString(16)}` : slot
      const known = slots[key.toLowerCase()]
      if (known !== undefined) return known
      return rpc.request<Hex>('eth_getStorageAt', [address, key, block])
    },
    call: async (tx: { to: string; data: string }) => {
      const r = await read(tx.to as Address, tx.data as Hex)
      if (!r.success) throw new ViewReverted('reverted')
      return r.returnData
    },
  }
  // whatsabi swallows errors: remember a failure of the node, so that it is thrown, not read as
  // "no proxy found".
  let fault: unknown
  const remember = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await f(...args)
    } catch (error) {
      if (!(error instanceof ViewReverted)) fault ??= error
      throw error
    }
  }
  provider.getStorageAt = remember(provider.getStorageAt)
  provider.call = remember(provider.call)
  let patterns: string[] = []
  let resolvers: { name: string; resolve(p: unknown, a: string): Promise<string> }[] = []
  try {
    const result = await whatsabi.autoload(address, {
      provider,
      abiLoader: false,
      signatureLookup: false,
      followProxies: false,
      onError: () => false,
    })
    resolvers = result.proxies as unknown as typeof resolvers
    patterns = resolvers.map((r) => r.name)
  } catch {
    resolvers = []
  }
  if (fault) throw fault
  // Slots set without the pattern in the code (a proxy whose code whatsabi does not recognise).
  const impl1967 = addressFromWord(slots[PROXY_SLOTS.eip1967Implementation])
  const beacon = addressFromWord(slots[PROXY_SLOTS.eip1967Beacon])
  if (resolvers.length === 0 && !impl1967 && !beacon) return undefined

  for (const r of resolvers) {
    let implementation: string | undefined
    try {
      implementation = await r.resolve(provider, address)
    } catch {
      implementation = undefined
    }
    if (fault) throw fault
    if (!implementation || implementation.toLowerCase() === ZERO) continue
    const impl = getAddress(implementation)
    const kind = kindOf(r.name, slots)
    return { kind, implementation: impl, ...(kind === 'eip1967-beacon' && beacon ? { beacon } : {}), ...(admin ? { admin } : {}), patterns }
  }
  if (impl1967) return { kind: 'eip1967', implementation: impl1967, ...(admin ? { admin } : {}), patterns }
  if (beacon) {
    const r = await read(beacon, '0x5c60da1b')
    try {
      const [impl] = r.success ? decodeAbiParameters([{ type: 'address' }], r.returnData) : [ZERO]
      if (impl !== ZERO) return { kind: 'eip1967-beacon', implementation: getAddress(impl), beacon, ...(admin ? { admin } : {}), patterns }
    } catch {
      // beacon whose implementation() answers something else: the proxy's logic cannot be resolved
    }
  }
  if (patterns.length > 0) return { kind: kindOf(patterns[0], slots), implementation: undefined, ...(admin ? { admin } : {}), patterns }
  return undefined
}

function kindOf(name: string, slots: Record<string, Hex | undefined>): ProxyKind {
  if (/1967/.test(name)) return addressFromWord(slots[PROXY_SLOTS.eip1967Implementation]) ? 'eip1967' : 'eip1967-beacon'
  if (/PROXIABLE|1822/i.test(name)) return 'eip1822'
  if (/ZeppelinOS/i.test(name)) return 'zeppelinos'
  if (/Safe/i.test(name)) return 'safe'
  if (/Diamond/i.test(name)) return 'diamond'
  return 'delegatecall'
}
