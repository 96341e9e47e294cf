import { MAX_SIGNATURES_PER_PAGE, type SignatureInfo } from '../rpc/client.ts'
import { known, unknown, type CreationFacts, type Known } from './facts.ts'

/** The mint's first transactions kept for the launch analysis (collect/launch.ts). */
export const MAX_LAUNCH_TRANSACTIONS = 25
import type { CollectContext } from './context.ts'

/**
 * The mint's creation: walks getSignaturesForAddress back to the oldest signature the node keeps
 * (at most `maxSignaturePages` pages), then reads that transaction and accepts it only if it
 * initialises this mint (InitializeMint/InitializeMint2, top-level or inner). A node that prunes
 * history, or a mint with a longer history than the pages allow, leaves the creation unknown.
 */
export async function readCreation(ctx: CollectContext, mint: string): Promise<Known<CreationFacts>> {
  let before: string | undefined
  let oldest: SignatureInfo | undefined
  for (let page = 0; page < ctx.limits.maxSignaturePages; page++) {
    const signatures = await ctx.client.getSignaturesForAddress(mint, { limit: MAX_SIGNATURES_PER_PAGE, ...(before ? { before } : {}) }, ctx.signal)
    const succeeded = signatures.filter((s) => !s.failed)
    if (succeeded.length > 0) oldest = succeeded[succeeded.length - 1]
    if (signatures.length < MAX_SIGNATURES_PER_PAGE) {
      if (!oldest) return unknown('the node keeps no successful transaction of this mint')
      const first = signatures.filter((s) => !s.failed).reverse().slice(0, MAX_LAUNCH_TRANSACTIONS)
      return confirmCreation(ctx, mint, oldest, first)
    }
    before = signatures[signatures.length - 1].signature
  }
  return unknown(`the mint has more than ${ctx.limits.maxSignaturePages * MAX_SIGNATURES_PER_PAGE} transactions; its first one was not reached`)
}

async function confirmCreation(ctx: CollectContext, mint: string, oldest: SignatureInfo, first: SignatureInfo[]): Promise<Known<CreationFacts>> {
  const summary = await ctx.client.getTransactionSummary(oldest.signature, mint, ctx.signal)
  if (!summary) return unknown(`the node does not have transaction ${oldest.signature}`)
  if (!summary.initializesMint) return unknown(`the oldest transaction the node keeps (${oldest.signature}) does not initialise the mint: history is pruned`)
  return known({
    signature: oldest.signature,
    blockTime: summary.blockTime ?? oldest.blockTime,
    creator: summary.feePayer,
    slot: oldest.slot,
    firstSignatures: first.map((s) => ({ signature: s.signature, slot: s.slot, blockTime: s.blockTime })),
  })
}
