import type { CheckCatalogue, CheckGroup } from '../contract/checks.ts'
import type { RiskLabel } from '../contract/common.ts'

/**
 * A code check: a pure function of collected facts that decides whether one risky capability is
 * present. Shared by the EVM and the Solana engines; each engine has its own `Facts` type.
 *
 * Status semantics, everywhere: "1" = the risky capability is present, "0" = it was measured and
 * is absent. A check that cannot be decided from the facts returns `undetermined`; it is rendered
 * with status "", risk "" and a comment `not determinable: <why>`, and it is left out of the score.
 */
export type CheckStatus = 'present' | 'absent' | 'undetermined'

/** How a check reached its answer; the first word of its rendered comment. */
export type CheckMethod = 'simulated' | 'bytecode' | 'state' | 'metadata' | 'not determinable'

export interface CheckResult {
  status: CheckStatus
  method: CheckMethod
  /** Short evidence: selector, revert reason, measured tax, account... */
  evidence: string
  /**
   * The severity of what was found, when it is graver than the check's usual tier (a tax that can
   * be set to 100 %, a limit that can stop every sale): its risk label and its weight in the score.
   */
  tier?: CheckTier
}

/** The tier a result weighs with: its own severity when it has one, else the check's. */
export function tierOf(definition: { tier: CheckTier }, result: CheckResult): CheckTier {
  return result.status === 'present' && result.tier ? result.tier : definition.tier
}

/**
 * The severity of a check's risky power when present, on the published scale's risky half: its
 * `risk` label when present, and its weight in the score (see docs/scoring.md).
 */
export type CheckTier = 'Critical' | 'RISKY' | 'Medium Risk' | 'Neutral'

/**
 * The label of a risky power measured absent: the graver the power, the better its absence reads
 * (no mint is "Great To Have"; no cooldown merely "Nice To Have").
 */
export const ABSENT_LABEL: Record<CheckTier, RiskLabel> = {
  Critical: 'Great To Have',
  RISKY: 'Good To Have',
  'Medium Risk': 'Nice To Have',
  Neutral: 'Nice To Have',
}

/**
 * The token's assessment for one check result: the severity of a present power, the positive
 * label of an absent one, "" when undetermined.
 */
export function checkRisk(definition: { tier: CheckTier }, result: CheckResult): RiskLabel {
  if (result.status === 'undetermined') return ''
  return result.status === 'present' ? tierOf(definition, result) : ABSENT_LABEL[definition.tier]
}

/** A check as its file declares it; its group comes from the contract (src/contract/checks.ts). */
export interface CheckSpec<Facts, Id extends string = string> {
  /** The name of the check in the report (e.g. 'isMintable'). */
  id: Id
  /** Severity of the power when present: its `risk` then, and its weight in the score. */
  tier: CheckTier
  /** Sentences for each status: what the report says about the token. */
  describe: { present: string; absent: string; undetermined: string }
  /** How the check decides, for docs/checks.md. */
  method: string
  run(facts: Facts): CheckResult
}

/** A check in its engine's registry: its spec, and its group and meaning from the contract. */
export interface CheckDefinition<Facts, Id extends string = string> extends CheckSpec<Facts, Id> {
  group: CheckGroup
  /** What status "1" means (src/contract/checks.ts). */
  meaning: string
}

const TIERS: readonly CheckTier[] = ['Critical', 'RISKY', 'Medium Risk', 'Neutral']

/**
 * Declares a check, validating its metadata once at load time.
 *
 * @example
 * export const isMintable = defineCheck<EvmFacts>({
 *   id: 'isMintable', tier: 'Critical',
 *   describe: { present: 'The owner can mint new tokens.', absent: 'No one can mint new tokens.',
 *               undetermined: 'Whether new tokens can be minted could not be determined.' },
 *   method: 'simulated mint as the owner',
 *   run: (facts) => ({ status: 'absent', method: 'simulated', evidence: 'supply unchanged' }),
 * })
 */
export function defineCheck<Facts>(definition: CheckSpec<Facts>): CheckSpec<Facts> {
  const problems: string[] = []
  if (!/^[a-z][A-Za-z0-9]*$/.test(definition.id)) problems.push('id must be camelCase')
  if (!TIERS.includes(definition.tier)) problems.push(`tier must be one of ${TIERS.join(', ')}`)
  for (const key of ['present', 'absent', 'undetermined'] as const) {
    if (!definition.describe?.[key]?.trim()) problems.push(`describe.${key} is required`)
  }
  if (!definition.method?.trim()) problems.push('method is required')
  if (typeof definition.run !== 'function') problems.push('run must be a function')
  if (problems.length > 0) throw new Error(`check ${definition.id || '?'}: ${problems.join('; ')}`)
  return Object.freeze(definition)
}

/**
 * An engine's registry: one check for every name the contract's catalogue lists, keyed by that
 * name (a missing or extra check fails to compile), in the contract's report order, with the
 * group and meaning the contract gives it.
 */
export function checkRegistry<Facts, Name extends string>(
  catalogue: CheckCatalogue<Name>,
  checks: { [K in Name]: CheckSpec<Facts> },
): readonly CheckDefinition<Facts, Name>[] {
  const out: CheckDefinition<Facts, Name>[] = []
  for (const group of ['ownershipChecks', 'otherChecks'] as const) {
    for (const [name, meaning] of Object.entries(catalogue[group]) as [Name, string][]) {
      const spec = checks[name]
      if (spec.id !== name) throw new Error(`check registry: ${name} holds the check ${spec.id}`)
      out.push(Object.freeze({ ...spec, id: name, group, meaning }))
    }
  }
  return Object.freeze(out)
}

export interface RenderedCheck {
  description: string
  risk: RiskLabel
  status: CheckFlag
  comment: string
}

/** A check's status in the report: "1" present, "0" measured and absent, "" not determinable. */
export type CheckFlag = '0' | '1' | ''

/** The report's status of a check result. */
export function statusFlag(status: CheckStatus): CheckFlag {
  return status === 'present' ? '1' : status === 'absent' ? '0' : ''
}

/**
 * Turns a check's result into the contract's `{description, risk, status, comment}`: `risk` is
 * the token's assessment (`checkRisk`). A check that could not be decided is `status` "" and
 * `risk` "", its comment `not determinable: <reason>`.
 */
export function renderCheck<F>(definition: CheckDefinition<F>, result: CheckResult): RenderedCheck {
  const evidence = result.evidence || (result.status === 'undetermined' ? 'the facts it needs are unknown' : '')
  const comment = evidence ? `${result.method}: ${evidence}` : result.method
  return {
    description: definition.describe[result.status],
    risk: checkRisk(definition, result),
    status: statusFlag(result.status),
    comment,
  }
}

/**
 * Runs a check, turning an exception inside it into an undetermined result rather than a failed
 * report: a check is pure, so a throw means facts it did not expect.
 */
export function runCheck<F>(definition: CheckDefinition<F>, facts: F): CheckResult {
  try {
    return definition.run(facts)
  } catch (error) {
    return { status: 'undetermined', method: 'not determinable', evidence: `check failed: ${(error as Error).message}` }
  }
}
