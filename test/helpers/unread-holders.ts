/** The part of a token report (the contract's shape) that says who holds the supply and the LP tokens. */
interface HolderParts {
  marketChecks: {
    liquidityChecks: { keyLpHolders: unknown[] }
    holdersChecks: { keyHolders: unknown[]; percentDistributed: Record<'owner' | 'creator', { percent: string }> }
  }
}

/**
 * A report as the API answers when who holds the supply and the LP tokens could not be read: the
 * holder lists empty, the owner's and creator's shares unknown. Changes `report` and returns it.
 */
export function withHoldersUnread<T extends HolderParts>(report: T): T {
  report.marketChecks.liquidityChecks.keyLpHolders = []
  report.marketChecks.holdersChecks.keyHolders = []
  report.marketChecks.holdersChecks.percentDistributed.owner.percent = ''
  report.marketChecks.holdersChecks.percentDistributed.creator.percent = ''
  return report
}
