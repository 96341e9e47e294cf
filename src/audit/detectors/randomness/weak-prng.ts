import { fundsMoveIn } from '../../analyses/owner-variables.ts'
import { unwrap, walkNodes } from '../../analyses/syntax.ts'
import type { FunctionIr } from '../../ir/types.ts'
import type * as AST from '../../parse/ast.ts'
import { defineDetector } from '../define-detector.ts'
import { blockValue, code, functionLabel } from '../helpers.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])
/** Block values nobody should treat as unpredictable on their own. */
const ENTROPY_VALUES: ReadonlySet<string> = new Set(['difficulty', 'blockhash', 'coinbase', 'gaslimit'])

/** Whether an expression is (derived from) block data used as a source of randomness. */
function isEntropy(node: AST.BaseASTNode, derived: ReadonlySet<string>): boolean {
  let found = false
  walkNodes(node, (n) => {
    if (found) return false
    const kind = blockValue(n)
    if (kind && ENTROPY_VALUES.has(kind)) found = true
    else if (n.type === 'Identifier' && derived.has((n as AST.Identifier).name)) found = true
    else if (n.type === 'FunctionCall') {
      const callee = (n as AST.FunctionCall).expression
      if (callee.type === 'Identifier' && HASHES.has(callee.name)) {
        let hashesBlock = false
        walkNodes(n, (m) => {
          if (blockValue(m)) hashesBlock = true
          return !hashesBlock
        })
        if (hashesBlock) found = true
      }
    }
    return !found
  })
  return found
}

/** Locals assigned from block-derived entropy. */
function entropyLocals(fn: FunctionIr): Set<string> {
  const derived = new Set<string>()
  for (let pass = 0; pass < 2; pass++) {
    for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
      const v = d.variables[0] as AST.VariableDeclaration | null
      if (d.variables.length === 1 && v?.name && d.initialValue && isEntropy(d.initialValue, derived)) derived.add(v.name)
    }
    for (const a of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
      const left = unwrap(a.left)
      if (a.operator === '=' && left.type === 'Identifier' && fn.facts.locals.has((left as AST.Identifier).name) && isEntropy(a.right, derived)) derived.add((left as AST.Identifier).name)
    }
  }
  return derived
}

export const weakPrng = defineDetector({
  id: 'weak-prng',
  title: 'Weak randomness from block values',
  category: 'randomness',
  severity: 'high',
  lowered: 'High when the function drawing the number sends ETH, moves tokens or self-destructs (the finding names the line): an attacker plays only when they win; medium otherwise.',
  confidence: 'medium',
  explanation:
    'Block values (timestamp, number, prevrandao/difficulty, coinbase, blockhash) are known to or chosen by block producers and visible to any contract in the same block, so an attacker can predict the "random" outcome or only play when they win.',
  recommendation: 'Use a verifiable randomness source (e.g. a VRF oracle) or a commit-reveal scheme; never derive winners or prices from block data.',
  detect({ analyses, functions, report }) {
    for (const fn of functions) {
      const derived = entropyLocals(fn)
      // What is at stake, asked only when there is a finding.
      const stakesOf = (): { severity: 'high' | 'medium'; evidence: { node: AST.BaseASTNode; file: FunctionIr['file'] }[]; suffix: string } => {
        const payout = fundsMoveIn(analyses, fn, fn.contract)
        return payout ? { severity: 'high', evidence: [payout], suffix: ` and moves funds (${code(payout.file, payout.node)})` } : { severity: 'medium', evidence: [], suffix: '' }
      }
      for (const op of (fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]) {
        if (op.operator === '%') {
          const left = unwrap(op.left)
          const right = unwrap(op.right)
          // `block.timestamp % 2`: a coin flip on the clock; `block.timestamp % 1 days` is time arithmetic.
          const clockFlip = blockValue(left) === 'timestamp' && right.type === 'NumberLiteral' && (right as AST.NumberLiteral).subdenomination === null
          const stakes = isEntropy(left, derived) || clockFlip ? stakesOf() : null
          if (stakes) report(op, fn.file, `${functionLabel(fn)} draws a number from block data: ${code(fn.file, op)}${stakes.suffix}.`, { severity: stakes.severity, evidence: stakes.evidence })
        } else if (op.operator === '==' || op.operator === '!=') {
          const [a, b] = [unwrap(op.left), unwrap(op.right)]
          const guessed = (isEntropy(a, derived) && analyses.taint.dependsOnParameters(b, fn)) || (isEntropy(b, derived) && analyses.taint.dependsOnParameters(a, fn))
          const stakes = guessed ? stakesOf() : null
          if (stakes) report(op, fn.file, `${functionLabel(fn)} compares a caller's guess with block data: ${code(fn.file, op)}${stakes.suffix}.`, { severity: stakes.severity, evidence: stakes.evidence })
        }
      }
    }
  },
})
