import type { SolanaReport } from '../../contract/solana-report.ts'
import { runChecks, type ReportStages } from '../../report/pipeline.ts'
import { SOLANA_CHECKS } from './checks/registry.ts'
import type { SolanaFacts } from './collect/facts.ts'
import { renderSolanaReport } from './render.ts'
import { scoreSolana, type SolanaScore } from './score.ts'

/**
 * The Solana engine's stages of the shared report pipeline (src/report/pipeline.ts), given its
 * collect stage: the service's, which reads the mint, its accounts and pools with the RPC client,
 * deadline and cluster it holds. Checks run the Solana registry; score and render are pure.
 *
 * @example
 * const stages = solanaReportStages((address) => collect(address))
 * const { body, timings } = await runReport(stages, address)
 */
export function solanaReportStages<Input>(collect: (input: Input) => Promise<SolanaFacts>): ReportStages<Input, SolanaFacts, SolanaScore, SolanaReport> {
  return {
    collect,
    checks: (facts) => runChecks(SOLANA_CHECKS, facts),
    score: scoreSolana,
    render: renderSolanaReport,
  }
}
