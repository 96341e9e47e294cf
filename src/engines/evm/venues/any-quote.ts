import { decodeAbiParameters, encodeFunctionData, getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { erc20Abi } from '../chain/abis.ts'
import type { RawLog } from '../chain/logs.ts'
import { RpcError } from '../chain/rpc.ts'
import { sameAddress, type CollectContext } from '../collect/context.ts'
import { venueOf } from './registry.ts'


/** A pool of the token against a token that is none of the chain's quote assets, as its factory announced it. */
export interface OtherQuotePool {
  dexIndex: number
  pool: Address
  other: Address
}

function topicOf(address: Address): Hex {
  return `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
}

/**
 * The pools the chain's factories announced with the token on either side (their creation
 * events, from block 0: in the first round trip), against tokens that are not quote assets. A node
 * that refuses the range leaves them unsearched, and says so.
 */
export async function announcedPools(ctx: CollectContext, token: Address, quotes: Address[]): Promise<{ pools: OtherQuotePool[]; note: string }> {
  const asked = ctx.chain.dexes.flatMap((dex, dexIndex) => {
    const creation = venueOf(dex.type).creation
    if (!creation) return []
    return [
      [creation.topic, topicOf(token)],
      [creation.topic, null, topicOf(token)],
    ].map((topics) => ({ dexIndex, creation, request: { address: dex.factory, topics, fromBlock: '0x0', toBlock: 'latest' } }))
  })
  if (asked.length === 0) return { pools: [], note: '' }
  const answers = await Promise.all(
    asked.map((a) =>
      ctx.rpc.request<RawLog[]>('eth_getLogs', [a.request]).catch((error: unknown) => {
        if (error instanceof RpcError && error.kind === 'refused') return undefined
        throw error
      }),
    ),
  )
  const refused = answers.filter((a) => a === undefined).length
  const pools: OtherQuotePool[] = []
  answers.forEach((logs, i) => {
    for (const log of logs ?? []) {
      try {
        const t0 = getAddress(`0x${log.topics[1]!.slice(26)}`)
        const t1 = getAddress(`0x${log.topics[2]!.slice(26)}`)
        const other = sameAddress(t0, token) ? t1 : t0
        const words = (decodeAbiParameters(
          Array.from({ length: asked[i].creation.poolWord + 1 }, () => ({ type: 'uint256' as const })),
          log.data,
        ) as readonly bigint[])
        const pool = getAddress(`0x${words[asked[i].creation.poolWord].toString(16).padStart(40, '0').slice(-40)}`)
        if (quotes.some((q) => sameAddress(q, other)) || pools.some((p) => sameAddress(p.pool, pool))) continue
        pools.push({ dexIndex: asked[i].dexIndex, pool, other })
      } catch {
        // An event that is not the factory's announcement: skipped.
      }
    }
  })
  const note = refused > 0 ? `the node refused ${refused} search(es) of pool creations over the whole chain: pools against other tokens may be missing` : ''
  return { pools, note }
}

/** The other tokens' symbol and decimals, as reads for the probe's `reads`. */
export function otherTokenReads(others: Address[]): { target: Address; data: Hex }[] {
  return others.flatMap((o) => [
    { target: o, data: encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }) },
    { target: o, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
  ])
}
