import { getAddress, isAddress, isHex } from 'viem/utils'
import type { Address, Hex } from 'viem'

/** An explorer API that knows which transaction created a contract (Etherscan's API, version 2). */
export interface CreationExplorer {
  /** For logs: the explorer's host. */
  name: string
  /** The creation transaction and its sender, or undefined when the explorer does not know it. */
  creation(chainId: number, address: Address, signal?: AbortSignal): Promise<{ txHash: Hex; creator: Address } | undefined>
  /**
   * Whether the explorer publishes verified source code for the contract: true or false as the
   * explorer answers, undefined when it cannot say (it throws when it fails).
   */
  sourceVerified?(chainId: number, address: Address, signal?: AbortSignal): Promise<boolean | undefined>
}

interface SourceResponse {
  status?: string
  message?: string
  result?: { SourceCode?: string; ABI?: string }[] | string
}

/** Etherscan's multichain API: one key serves every chain it indexes (`chainid` parameter). */
export const DEFAULT_EXPLORER_API_URL = 'https://api.etherscan.io/v2/api'

interface CreationResponse {
  status?: string
  message?: string
  result?: { contractAddress?: string; contractCreator?: string; txHash?: string }[] | string
}

/**
 * The explorer the creation lookup falls back to when the node has neither
 * `ots_getContractCreator` nor the historical state a search over blocks needs. It answers the
 * creation transaction; its block and time are then read from the node.
 *
 * @example
 * const explorer = createCreationExplorer({ apiKey: process.env.EXPLORER_API_KEY! })
 * await explorer.creation(1, '0xA0b8…') // { txHash: '0x…', creator: '0x…' }
 */
export function createCreationExplorer(options: { apiKey: string; baseUrl?: string; fetch?: typeof fetch }): CreationExplorer {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl ?? DEFAULT_EXPLORER_API_URL
  /** One `module=contract` request of the explorer's API: its JSON body, or an error for an HTTP failure. */
  const ask = async <T>(chainId: number, action: string, params: Record<string, string>, signal: AbortSignal | undefined): Promise<T> => {
    const url = new URL(base)
    url.searchParams.set('chainid', String(chainId))
    url.searchParams.set('module', 'contract')
    url.searchParams.set('action', action)
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    url.searchParams.set('apikey', options.apiKey)
    const response = await doFetch(url, { signal, headers: { accept: 'application/json' } })
    if (!response.ok) throw new Error(`the explorer answered HTTP ${response.status}`)
    return (await response.json()) as T
  }
  return {
    name: `explorer ${new URL(base).host}`,
    async creation(chainId, address, signal) {
      const body = await ask<CreationResponse>(chainId, 'getcontractcreation', { contractaddresses: address }, signal)
      if (body.status !== '1' || !Array.isArray(body.result)) {
        // "No data found" is an answer; anything else (bad key, rate limit) is a failure.
        if (typeof body.result === 'string' && /no (data|records?) found/i.test(body.result + (body.message ?? ''))) return undefined
        if (/no (data|records?) found/i.test(body.message ?? '')) return undefined
        throw new Error(`the explorer refused: ${String(body.message ?? body.result ?? 'unknown error').slice(0, 200)}`)
      }
      const entry = body.result.find((r) => r.contractAddress?.toLowerCase() === address.toLowerCase())
      if (!entry?.txHash || !isHex(entry.txHash) || entry.txHash.length !== 66 || !entry.contractCreator || !isAddress(entry.contractCreator)) return undefined
      return { txHash: entry.txHash, creator: getAddress(entry.contractCreator) }
    },
    async sourceVerified(chainId, address, signal) {
      const body = await ask<SourceResponse>(chainId, 'getsourcecode', { address }, signal)
      if (body.status !== '1' || !Array.isArray(body.result)) {
        throw new Error(`the explorer refused: ${String(body.message ?? body.result ?? 'unknown error').slice(0, 200)}`)
      }
      const entry = body.result[0]
      if (!entry || typeof entry.SourceCode !== 'string') return undefined
      // An unverified contract is listed with an empty source.
      return entry.SourceCode.trim().length > 0
    },
  }
}
