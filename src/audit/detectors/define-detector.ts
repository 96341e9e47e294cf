import { AUDIT_LIMITS, CONFIDENCES, DETECTOR_ID_PATTERN, SEVERITIES, type Confidence, type Severity } from '../../contract/audit-history.ts'
import type { Analyses } from '../analyses/analyses.ts'
import type { DispatchContext, EntryPoint } from '../analyses/dispatch.ts'
import type { ContractIr, FunctionIr, ProjectIr, SourceFileIr, SourceNode } from '../ir/types.ts'

/** Groups of detectors; each is a folder of src/audit/detectors and a section of docs/detectors.md. */
export const DETECTOR_CATEGORIES = [
  'reentrancy',
  'calls',
  'access-control',
  'cryptography',
  'randomness',
  'arithmetic',
  'state',
  'denial-of-service',
  'ordering',
  'events',
  'deprecated',
  'compiler',
  'style',
  'optimization',
] as const
export type DetectorCategory = (typeof DETECTOR_CATEGORIES)[number]

export interface ReportOptions {
  /** Show only a function's or contract's signature, not its whole body. */
  header?: boolean
  /**
   * The functions the finding was found through, each with the deployed contract it ran in.
   * The same finding reported through several contracts is one finding; when none of them ran
   * in its own contract (the finding comes from overrides), the finding names the contracts.
   */
  foundIn?: readonly { fn: FunctionIr; context: DispatchContext }[]
  /**
   * This finding's severity when it is lower than the detector's (see `DetectorDefinition.lowered`):
   * a finding is `high` only when it states how an attacker gains or a victim loses funds. A value
   * above the detector's severity is ignored.
   */
  severity?: Severity
  /**
   * The other lines the finding rests on (the write that follows a call, the check that is
   * missing its counterpart, the function that grows an array). Every finding names its evidence
   * after the message, starting with the line it is reported at: `Evidence: lines 12 and 18.`;
   * lines of another file name it.
   */
  evidence?: readonly { node: SourceNode; file: SourceFileIr }[]
}

export interface DetectorContext {
  ir: ProjectIr
  analyses: Analyses
  /** Contracts, abstract contracts, libraries and interfaces declared in the project's own files. */
  contracts: readonly ContractIr[]
  /** Functions and modifiers declared in the project's own files (free functions included). */
  functions: readonly FunctionIr[]
  /** The project's own source files. */
  files: readonly SourceFileIr[]
  /**
   * What attackers can call: the entry points of every contract the analysis deploys (inherited
   * ones included), each once per distinct way a deployed contract runs it, with the contract to
   * pass as `context` to the analyses that follow internal calls (virtual dispatch). A detector
   * about who can call what, or what a call leads to, iterates these rather than `functions`.
   */
  readonly entryPoints: readonly EntryPoint[]
  /**
   * Records a finding at `node` of `file`. `message` says what is wrong here, naming the
   * function or variable; the detector's general explanation follows it in the report.
   */
  report(node: SourceNode, file: SourceFileIr, message: string, options?: ReportOptions): void
}

export interface DetectorDefinition {
  /** Stable kebab-case identifier (`reentrancy-eth`). */
  id: string
  /** The finding's name in reports. */
  title: string
  category: DetectorCategory
  /** The highest severity of its findings. */
  severity: Severity
  /**
   * When some findings are reported at a lower severity, which and why, as a sentence
   * (`Medium when no function the owner alone can run moves funds.`); shown in docs/detectors.md.
   */
  lowered?: string
  confidence: Confidence
  /** Why this matters, in general terms. */
  explanation: string
  /** What to do about it. */
  recommendation: string
  /** Pure: reads the IR and calls `report`. */
  detect(context: DetectorContext): void
}

const ID_PATTERN = new RegExp(DETECTOR_ID_PATTERN)

/**
 * Declares a detector, validating its metadata once when the module loads.
 *
 * @example
 * export const txOrigin = defineDetector({
 *   id: 'tx-origin', title: 'Authorization through tx.origin', category: 'access-control',
 *   severity: 'medium', confidence: 'high',
 *   explanation: '…', recommendation: 'Use msg.sender for authorization.',
 *   detect({ functions, report }) { … },
 * })
 */
export function defineDetector(definition: DetectorDefinition): DetectorDefinition {
  const problems: string[] = []
  if (!ID_PATTERN.test(definition.id ?? '') || definition.id.length > AUDIT_LIMITS.detector) problems.push(`id must be kebab-case, at most ${AUDIT_LIMITS.detector} characters`)
  if (!definition.title?.trim()) problems.push('title is required')
  if (!(DETECTOR_CATEGORIES as readonly string[]).includes(definition.category)) problems.push(`category must be one of ${DETECTOR_CATEGORIES.join(', ')}`)
  if (!(SEVERITIES as readonly string[]).includes(definition.severity)) problems.push(`severity must be one of ${SEVERITIES.join(', ')}`)
  if (!(CONFIDENCES as readonly string[]).includes(definition.confidence)) problems.push(`confidence must be one of ${CONFIDENCES.join(', ')}`)
  if (!definition.explanation?.trim() || !/[.!?]$/.test(definition.explanation.trim())) problems.push('explanation must be a sentence')
  if (!definition.recommendation?.trim() || !/[.!?]$/.test(definition.recommendation.trim())) problems.push('recommendation must be a sentence')
  if (definition.lowered !== undefined && (!definition.lowered.trim() || !/[.!?]$/.test(definition.lowered.trim()))) problems.push('lowered must be a sentence')
  if (typeof definition.detect !== 'function') problems.push('detect must be a function')
  if (problems.length > 0) throw new Error(`detector ${definition.id || '?'}: ${problems.join('; ')}`)
  return Object.freeze({ ...definition })
}
