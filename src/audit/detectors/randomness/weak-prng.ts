import { fundsMoveIn } from '../../analyses/owner-variables.ts'
import type { Origin, ValueSource } from '../../analyses/dataflow.ts'
import { namedCall } from '../../analyses/syntax.ts'
import { decidedStake } from '../../analyses/stakes.ts'
import type { FunctionIr, SourceNode } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])

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
    'Block values (timestamp, number, prevrandao/difficulty, coinbase, blockhash) are known to or chosen by block producers and visible to any contract in the same block, so an attacker can predict the "random" outcome or only play when they win. The values are followed to what they decide: a remainder (`block.number % 2`, `now % players.length`), an entry picked from a list of players, a guess compared, a recipient or amount paid, an account stored, or a branch deciding a payout, through locals, state stored by one function and used in another, internal calls and their returns, conversions and hashes mixing them with other data (`keccak256(abi.encodePacked(block.difficulty, now, msg.sender)) % n`). Not reported: the clock modulo a time or a word size (`now % 1 days`, `% PERIOD`, `% 2**32`), numbers from a commit-reveal of secrets or from an oracle\'s VRF callback.',
  recommendation: 'Use a verifiable randomness source (e.g. a VRF oracle) or a commit-reveal scheme; never derive winners or prices from block data.',
  detect({ analyses, functions, report }) {
    const entropy = analyses.blockData.entropy
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
      const decisions = analyses.blockData.decisions(fn)
      // Remainders and equalities, in the order the body evaluates them (a value reported once is reported at its first use).
      const uses = [
        ...decisions.filter((d) => d.role === 'modulus').map((d) => ({ node: d.node, remainder: d, comparison: null })),
        ...fn.facts.comparisons.filter((c) => c.operator === '==' || c.operator === '!=').map((c) => ({ node: c.node, remainder: null, comparison: c })),
      ].sort((x, y) => (x.node.range?.[0] ?? 0) - (y.node.range?.[0] ?? 0) || (y.node.range?.[1] ?? 0) - (x.node.range?.[1] ?? 0))
      for (const { node: op, remainder, comparison } of uses) {
        if (remainder) {
          // `block.timestamp % 2`, `block.number % players.length`, a stored `seed = now` taken
          // modulo: a draw on the clock; `block.timestamp % 1 days` or `% PERIOD` is time arithmetic.
          const origins = [...remainder.entropy, ...(remainder.timeDivisor ? [] : remainder.clock)]
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
      // written by another function, helpers, hashes, casts, arithmetic): an element of a list of
      // players, the recipient or amount of a payout, an account stored in state, or a branch deciding a payout.
      for (const d of decisions) {
        if (d.entropy.length === 0) continue
        const at = code(fn.file, d.node)
        if (d.role === 'index') found(fn, d.node, d.entropy, `${functionLabel(fn)} picks an entry by block data: ${at}.`)
        else if (d.role === 'account') found(fn, d.node, d.entropy, `${functionLabel(fn)} picks an account from block data: ${at}.`)
        else if (d.role === 'recipient') found(fn, d.node, d.entropy, `${functionLabel(fn)} pays a recipient picked from block data: ${at}.`)
        else if (d.role === 'amount') found(fn, d.node, d.entropy, `${functionLabel(fn)} pays an amount drawn from block data: ${at}.`)
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
