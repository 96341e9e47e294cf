import type { TokenReport } from '../../contract/token-report.ts'
import { runChecks, type ReportStages } from '../../report/pipeline.ts'
import { EVM_CHECKS } from './checks/registry.ts'
import { collectFacts } from './collect/collect.ts'
import type { CollectContext } from './collect/context.ts'
import type { EvmFacts } from './facts.ts'
import { renderReport } from './render.ts'
import { scoreToken, type TokenScore } from './score.ts'

/**
 * The EVM engine's stages of the shared report pipeline (src/report/pipeline.ts): collect reads
 * the chain with what the service passes in (RPC session, chain, token, holder store, metadata
 * providers), checks runs the EVM registry, score and render are pure.
 *
 * @example
 * const { body, timings } = await runReport(EVM_REPORT_STAGES, { rpc, chain, token, gasCap, holderStore, metadata, log, logLimit })
 */
export const EVM_REPORT_STAGES: ReportStages<CollectContext, EvmFacts, TokenScore, TokenReport> = {
  collect: collectFacts,
  checks: (facts) => runChecks(EVM_CHECKS, facts),
  score: scoreToken,
  render: renderReport,
}
