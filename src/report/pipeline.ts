import { runCheck, type CheckDefinition, type CheckResult } from './define-check.ts'
import type { MarketValues } from './market.ts'
import type { ScoreFigures } from './score-model.ts'

/**
 * The token report pipeline both engines share: four named stages, run in this order, each fed
 * by the ones before it, data flowing one way (docs/architecture.md):
 *
 *   collect (input → facts: all chain I/O, the only asynchronous stage)
 *   → checks (facts → one outcome per registered check: pure)
 *   → score (facts + outcomes → market figures, code and market scores: pure)
 *   → render (facts + scored → the contract's JSON: pure).
 *
 * An engine supplies the stages (`src/engines/evm/stages.ts`, `src/engines/solana/stages.ts`); its
 * service passes what collection needs (RPC session, stores, providers) in the input and runs them
 * with `runReport`, which times each stage.
 */

/** The stages' names, in the order they run. */
export const REPORT_STAGES = ['collect', 'checks', 'score', 'render'] as const
export type ReportStageName = (typeof REPORT_STAGES)[number]

/** Milliseconds each stage took (collect: wall time, its I/O included; the others: CPU bound). */
export type StageTimings = Record<ReportStageName, number>

/** One check of an engine's registry and what it decided. */
export interface CheckOutcome<Facts> {
  definition: CheckDefinition<Facts>
  result: CheckResult
}

/** What the score stage hands to render; each engine's score adds its own parts. */
export interface ScoredReport<Facts> {
  /** The outcome of every check, in registry order. */
  checks: CheckOutcome<Facts>[]
  /** The market figures rated (undefined: not measurable). */
  values: MarketValues
  code: ScoreFigures
  market: ScoreFigures
}

/** An engine's four stages. */
export interface ReportStages<Input, Facts, Scored extends ScoredReport<Facts>, Body> {
  collect(input: Input): Promise<Facts>
  checks(facts: Facts): CheckOutcome<Facts>[]
  score(facts: Facts, checks: CheckOutcome<Facts>[]): Scored
  render(facts: Facts, scored: Scored): Body
}

/** Everything one run produced: the body and what it was made from. */
export interface ReportRun<Facts, Scored, Body> {
  facts: Facts
  scored: Scored
  body: Body
  timings: StageTimings
}

/** The checks stage of an engine: every check of its registry over the facts, in order. Pure. */
export function runChecks<Facts>(registry: readonly CheckDefinition<Facts>[], facts: Facts): CheckOutcome<Facts>[] {
  return registry.map((definition) => ({ definition, result: runCheck(definition, facts) }))
}

/** Rounds a stage's duration for logs and metrics: a tenth of a millisecond. */
const roundMs = (ms: number) => Math.round(ms * 10) / 10

/**
 * Runs an engine's stages in order: collect, checks, score, render. A failing stage fails the run
 * (its error as thrown); no stage runs after it. Nor does any once `options.signal` aborted (the
 * report was abandoned, or its deadline passed): the run fails with the signal's reason rather
 * than spend the CPU on a report nobody reads.
 *
 * @example
 * const { body, timings } = await runReport(EVM_REPORT_STAGES, { rpc, chain, token, ...deps }, { signal: rpc.signal })
 * log.info({ stages: timings }, 'token report')
 */
export async function runReport<Input, Facts, Scored extends ScoredReport<Facts>, Body>(
  stages: ReportStages<Input, Facts, Scored, Body>,
  input: Input,
  options: { signal?: AbortSignal } = {},
): Promise<ReportRun<Facts, Scored, Body>> {
  const timings = {} as StageTimings
  const timed = <T>(name: ReportStageName, started: number, value: T): T => {
    options.signal?.throwIfAborted()
    timings[name] = roundMs(performance.now() - started)
    return value
  }
  options.signal?.throwIfAborted()
  let t = performance.now()
  const facts = timed('collect', t, await stages.collect(input))
  t = performance.now()
  const checks = timed('checks', t, stages.checks(facts))
  t = performance.now()
  const scored = timed('score', t, stages.score(facts, checks))
  t = performance.now()
  const body = timed('render', t, stages.render(facts, scored))
  return { facts, scored, body, timings }
}
