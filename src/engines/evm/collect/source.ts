import type { Address } from 'viem'
import type { SourceFact } from '../facts.ts'
import type { CollectContext } from './context.ts'

/** Time the explorer's source lookup leaves the rest of the report, at least. */
const SOURCE_LOOKUP_MIN_REMAINING_MS = 1_000

/**
 * Whether the code that runs (a proxy's implementation) has verified source on the configured
 * explorer. Without an explorer, or when it fails, the answer is unknown and says why: the chain
 * itself does not tell.
 */
export async function lookupSource(ctx: CollectContext, address: Address): Promise<SourceFact> {
  const explorer = ctx.explorer
  if (!explorer?.sourceVerified) {
    return { verified: undefined, address, note: 'no explorer is configured (EXPLORER_API_KEY): verified sources are not looked up' }
  }
  try {
    const signal = AbortSignal.timeout(Math.max(1, ctx.rpc.remainingMs() - SOURCE_LOOKUP_MIN_REMAINING_MS))
    const verified = await explorer.sourceVerified(ctx.chain.chainId, address, signal)
    return { verified, address, note: verified === undefined ? `${explorer.name} did not list the contract` : `${explorer.name}` }
  } catch (error) {
    ctx.log.info({ chainId: ctx.chain.chainId, token: ctx.token, explorer: explorer.name, err: (error as Error).message }, 'explorer source lookup failed')
    return { verified: undefined, address, note: `the explorer lookup failed: ${(error as Error).message.slice(0, 120)}` }
  }
}
