import type { SolanaReport } from '../contract/solana-report.ts'

/** A Solana report's launch curve (the launchpad bonding curve the token was created on). */
export type LaunchCurve = SolanaReport['marketChecks']['marketCheckDescription']['liquidityDescription']['aggregatedInformation']['launchCurve']

/**
 * A Solana token's launch curve in the words a person reads, the same on the token page, in
 * `tokenrisk scan` and in the MCP answer: where it trades while on its curve and how far the curve
 * sold, or that it graduated and to which pool. `kind` says which: `none` (not launched on a curve
 * tokenrisk reads; `words` is ""), `unknown` (the curve could not be read; `words` is why).
 *
 * @example
 * launchCurveWords(curve).words // 'trading on its pump.fun bonding curve 7Xq…: 42.5 % of its tokens sold, 12.4 SOL on it'
 */
export function launchCurveWords(curve: LaunchCurve): { kind: 'on-curve' | 'graduated' | 'none' | 'unknown'; words: string } {
  if (curve.state === 'none') return { kind: 'none', words: '' }
  if (curve.state === 'on curve') {
    const sold = curve.progressPercent !== '' ? `${curve.progressPercent} % of its tokens sold` : 'how much of it was sold is not known'
    const raised = curve.quoteReserve !== '' ? `, ${curve.quoteReserve} SOL on it` : ''
    return { kind: 'on-curve', words: `trading on its ${curve.venue} ${curve.address}: ${sold}${raised}` }
  }
  if (curve.state === 'graduated') {
    const pool = curve.graduatedPool !== '' ? `; it trades in the pool ${curve.graduatedPool}` : '; the pool it moved to was not found'
    return { kind: 'graduated', words: `graduated from its ${curve.venue} ${curve.address}${pool}` }
  }
  return { kind: 'unknown', words: curve.reason || 'the launch curve could not be read' }
}
