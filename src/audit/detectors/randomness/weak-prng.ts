import { fundsMoveIn } from '../../analyses/owner-variables.ts'
import type { Analyses } from '../../analyses/analyses.ts'
import type { Origin, ValueSource } from '../../analyses/dataflow.ts'
import { blockValue, namedCall } from '../../analyses/syntax.ts'
import { decidedStake, movesFunds, paymentParts } from '../../analyses/stakes.ts'
import type { FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])
/** Block values nobody should treat as unpredictable on their own. */
const ENTROPY_VALUES: ReadonlySet<string> = new Set(['difficulty', 'blockhash', 'coinbase', 'gaslimit'])

/** Any block value (`block.timestamp`, `now`, `block.number`, `blockhash(…)`, …), however transformed. */
const BLOCK_DATA: ValueSource = { key: 'block-data', matches: (node) => blockValue(node) !== null }

/** The current timestamp itself, copied unchanged (`uint t = now;` then `t % 2`). */
const TIMESTAMP_COPY: ValueSource = { key: 'timestamp-copy', matches: (node) => blockValue(node) === 'timestamp', copiesOnly: true }

/**
 * Block data used as a source of randomness: a value producers choose or everyone sees
 * (`block.prevrandao`, `blockhash`, `block.coinbase`), or a hash of any block value.
 */
function entropySource(analyses: Analyses): ValueSource {
  return {
    key: 'block-entropy',
    matches(node, fn) {
      const kind = blockValue(node)
      if (kind) return ENTROPY_VALUES.has(kind)
      const hash = namedCall(node)
      return hash !== null && HASHES.has(hash.name) && hash.args.some((a) => analyses.dataflow.reaches(a, fn, BLOCK_DATA))
    },
  }
}

/** A hash (`keccak256(…)`), kept as it is: in a local, converted (`uint256(keccak256(…))`) or returned. */
const HASH_COPY: ValueSource = {
  key: 'hash-copy',
  matches: (node) => HASHES.has(namedCall(node)?.name ?? ''),
  copiesOnly: true,
}

export const weakPrng = defineDetector({
  id: 'weak-prng',
  title: 'Weak randomness from block values',
  category: 'randomness',
  severity: 'high',
  lowered: 'High when the function using the number sends ETH, moves tokens or self-destructs, or hands the number to a caller that decides a payout with it (the finding names the line): an attacker plays only when they win; medium otherwise.',
  confidence: 'medium',
  explanation:
    'Block values (timestamp, number, prevrandao/difficulty, coinbase, blockhash) are known to or chosen by block producers and visible to any contract in the same block, so an attacker can predict the "random" outcome or only play when they win.',
  recommendation: 'Use a verifiable randomness source (e.g. a VRF oracle) or a commit-reveal scheme; never derive winners or prices from block data.',
  detect({ analyses, functions, report }) {
    const entropy = entropySource(analyses)
    /** Reads already reported (a value stored once and used in several places is one finding). */
    const reported = new Set<SourceNode>()
    /**
     * Reports a use of block data as randomness: at the use when the block value is read in the same
     * function, else at each read in another function (a value stored in state by an earlier
     * transaction, or returned by a helper), naming the use.
     */
    const found = (fn: FunctionIr, use: SourceNode, origins: Origin[], message: string): void => {
      // One finding per read of block data: a number drawn once and used twice is one weakness.
      if (origins.every((o) => reported.has(o.node))) return
      // What is at stake: high when the function using the number moves funds, or hands it to a
      // caller that decides a payout with it (an attacker plays only when they win).
      const decided = decidedStake(analyses, fn, use)
      const own = fundsMoveIn(analyses, fn, fn.contract)
      const payout = own ?? (decided.kind === 'payout' && decided.node && decided.file ? { node: decided.node, file: decided.file } : null)
      const stakes = payout ? { severity: 'high' as const, evidence: [payout] } : { severity: 'medium' as const, evidence: [] }
      const moves = own
        ? ` ${functionLabel(fn)} moves funds (${code(own.file, own.node)}).`
        : payout
          ? ` Its outcome decides a payout (${code(payout.file, payout.node)}).`
          : ''
      const elsewhere = origins.filter((o) => o.fn !== fn && o.fn.file.own)
      if (elsewhere.length === 0) {
        for (const o of origins) reported.add(o.node)
        report(use, fn.file, `${message}${moves}`, stakes)
        return
      }
      for (const origin of elsewhere) {
        if (reported.has(origin.node)) continue
        reported.add(origin.node)
        report(
          origin.node,
          origin.fn.file,
          `${functionLabel(origin.fn)} reads block data, ${code(origin.fn.file, origin.node)}, that ${functionLabel(fn)} uses as randomness (line ${use.loc?.start.line ?? '?'}): ${code(fn.file, use)}.${moves}`,
          stakes,
        )
      }
    }
    for (const fn of functions) {
      // Remainders and equalities, in the order the body evaluates them (a value reported once is reported at its first use).
      const uses = [
        ...fn.facts.arithmetic.filter((o) => o.operator === '%').map((o) => ({ node: o.node, remainder: o, comparison: null })),
        ...fn.facts.comparisons.filter((c) => c.operator === '==' || c.operator === '!=').map((c) => ({ node: c.node, remainder: null, comparison: c })),
      ].sort((x, y) => (x.node.range?.[0] ?? 0) - (y.node.range?.[0] ?? 0) || (y.node.range?.[1] ?? 0) - (x.node.range?.[1] ?? 0))
      for (const { node: op, remainder, comparison } of uses) {
        if (remainder) {
          const left = remainder.left.expression
          const right = remainder.right.number
          // `block.timestamp % 2`: a coin flip on the clock; `block.timestamp % 1 days` is time arithmetic.
          const plainNumber = right !== null && right.unit === null
          const origins = [...analyses.dataflow.origins(left, fn, entropy), ...(plainNumber ? analyses.dataflow.origins(left, fn, TIMESTAMP_COPY) : [])]
          if (origins.length > 0) found(fn, op, origins, `${functionLabel(fn)} draws a number from block data: ${code(fn.file, op)}.`)
        } else if (comparison) {
          const [a, b] = [comparison.left.expression, comparison.right.expression]
          // A hash of the caller's data compared with a block hash verifies a preimage (a block
          // header against `blockhash`); a guess is a number the caller picks.
          const isGuess = (side: SourceNode): boolean => analyses.taint.dependsOnParameters(side, fn) && !analyses.dataflow.reaches(side, fn, HASH_COPY)
          // Block data from another function is followed where the comparison can pay out (the
          // function changes state); a view checking a value against a block hash verifies it.
          const acts = fn.mutability !== 'view' && fn.mutability !== 'pure'
          const origins = [...(isGuess(b) ? analyses.dataflow.origins(a, fn, entropy) : []), ...(isGuess(a) ? analyses.dataflow.origins(b, fn, entropy) : [])].filter(
            (o) => acts || o.fn === fn,
          )
          if (origins.length > 0) found(fn, op, origins, `${functionLabel(fn)} compares a caller's guess with block data: ${code(fn.file, op)}.`)
        }
      }
      // A winner or an amount picked from block entropy, however far it travelled (locals, state
      // written by another function, helpers, hashes, casts, arithmetic): the recipient or amount
      // of a payout, an account stored in state, or a branch deciding a payout.
      for (const write of fn.facts.stateWrites) {
        const value = write.assignment?.operator === '=' ? write.assignment.value : null
        if (!value || !isAccount(write.variable)) continue
        const at = write.statement ?? write.node
        const origins = analyses.dataflow.origins(value, fn, entropy)
        if (origins.length > 0) found(fn, at, origins, `${functionLabel(fn)} picks \`${write.variable.name}\` from block data: ${code(fn.file, at)}.`)
      }
      for (const call of fn.facts.calls) {
        if (!movesFunds(call) || call.assembly) continue
        const { recipient, amount } = paymentParts(call)
        const to = recipient.flatMap((e) => analyses.dataflow.origins(e, fn, entropy))
        if (to.length > 0) found(fn, call.node, to, `${functionLabel(fn)} pays a recipient picked from block data: ${code(fn.file, call.node)}.`)
        const much = amount.flatMap((e) => analyses.dataflow.origins(e, fn, entropy))
        if (much.length > 0) found(fn, call.node, much, `${functionLabel(fn)} pays an amount drawn from block data: ${code(fn.file, call.node)}.`)
      }
      for (const comparison of fn.facts.comparisons) {
        const origins = [...analyses.dataflow.origins(comparison.left.expression, fn, entropy), ...analyses.dataflow.origins(comparison.right.expression, fn, entropy)]
        if (origins.length === 0) continue
        const stake = decidedStake(analyses, fn, comparison.node)
        if (stake.kind !== 'payout' && stake.kind !== 'ownership') continue
        found(fn, comparison.node, origins, `${functionLabel(fn)} decides a payout on block data: ${code(fn.file, comparison.node)}.`)
      }
    }
  },
})

/** An address (or payable address) in state: an account that can be paid or given control. */
function isAccount(variable: StateVariableIr): boolean {
  return variable.type.kind === 'elementary' && /^address( payable)?$/.test(variable.type.name)
}
