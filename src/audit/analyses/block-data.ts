import type * as AST from '../parse/ast.ts'
import type { FunctionIr, SourceNode, StateVariableIr } from '../ir/types.ts'
import type { DataFlowAnalysis, Origin, ValueSource } from './dataflow.ts'
import type { DispatchAnalysis } from './dispatch.ts'
import type { EffectAnalysis } from './effects.ts'
import { movesFunds, paymentParts } from './stakes.ts'
import { blockValue, namedCall, unwrap } from './syntax.ts'

const HASHES: ReadonlySet<string> = new Set(['keccak256', 'sha3', 'sha256'])
/** Block values nobody should treat as unpredictable on their own. */
const ENTROPY_VALUES: ReadonlySet<string> = new Set(['difficulty', 'blockhash', 'coinbase', 'gaslimit'])

const UNIT_SECONDS: Readonly<Record<string, number>> = { seconds: 1, minutes: 60, hours: 3600, days: 86400, weeks: 604800, years: 31536000 }

/** Names of divisors that measure time (`now % period`, `block.number % EPOCH`): time arithmetic, not a draw. */
const TIME_NAMES = /period|interval|duration|epoch|day|week|hour|minute|month|year|cycle|round|window|span|length_?of|seconds|blocks_?per/i

/** How deep a time quantity is followed through constants, locals and stored deadlines. */
const MAX_WINDOW_DEPTH = 4

/** What a value decided by block data is used as. */
export type BlockDecisionRole = 'modulus' | 'index' | 'condition' | 'recipient' | 'amount' | 'account'

/**
 * A place where block data decides something: the left side of a remainder (a number drawn), an
 * index into a state array or mapping (a player picked), a comparison's operand, a payment's
 * recipient or amount, or an account stored in state. `entropy`: the reads of block data used
 * as a source of unpredictability reaching it (`blockhash`, `prevrandao`, `coinbase`, a hash of
 * any block value); `clock`: reads of the current time or block number reaching it unchanged
 * (copied through locals, state written by another function, helpers' returns, conversions).
 */
export interface BlockDecision {
  node: SourceNode
  role: BlockDecisionRole
  entropy: Origin[]
  clock: Origin[]
  /** For a remainder: whether its divisor measures time (`% 1 days`, `% PERIOD`) or a word size (`% 2**32`, a timestamp truncated to fit): time arithmetic, not a draw. */
  timeDivisor?: boolean
}

/**
 * "Decided by block data": which remainders, indexes, conditions, payment recipients and amounts
 * and stored accounts of a function take their value from block data, followed through locals,
 * state written in any function of the project and read in another, internal calls and their
 * returns, conversions and hashes (`keccak256(abi.encodePacked(block.difficulty, now, msg.sender)) % n`);
 * and the tolerance a comparison with the current time allows, followed into the stored deadline
 * it reads (`deadline = now + 5 minutes` in one function, `now <= deadline` in another) and the
 * constants it is written with.
 */
export class BlockDataAnalysis {
  /** Any block value, however transformed. */
  readonly blockData: ValueSource = { key: 'block-data', matches: (node) => blockValue(node) !== null }
  /** Block data used for unpredictability: producers' values, block hashes, and hashes of any block value. */
  readonly entropy: ValueSource
  /** The current time or block number, copied unchanged (through state too: a time stored by an earlier call). */
  readonly clock: ValueSource = { key: 'block-clock', matches: (node) => { const kind = blockValue(node); return kind === 'timestamp' || kind === 'number' }, copiesOnly: true }
  /** The current timestamp, copied unchanged through locals and helpers (not state: a stored time is a past time). */
  readonly currentTime: ValueSource = { key: 'current-timestamp', matches: (node) => blockValue(node) === 'timestamp', copiesOnly: true, currentOnly: true }
  private readonly memo = new Map<FunctionIr, BlockDecision[]>()

  constructor(
    private readonly dispatch: DispatchAnalysis,
    private readonly effects: EffectAnalysis,
    private readonly dataflow: DataFlowAnalysis,
  ) {
    this.entropy = {
      key: 'block-entropy',
      matches: (node, fn) => {
        const kind = blockValue(node)
        if (kind) return ENTROPY_VALUES.has(kind)
        const hash = namedCall(node)
        return hash !== null && HASHES.has(hash.name) && hash.args.some((a) => this.dataflow.reaches(a, fn, this.blockData))
      },
    }
  }

  /** The places of `fn` decided by block data (see `BlockDecision`), in source order. */
  decisions(fn: FunctionIr): BlockDecision[] {
    const known = this.memo.get(fn)
    if (known) return known
    const result: BlockDecision[] = []
    this.memo.set(fn, result)
    const add = (node: SourceNode, role: BlockDecisionRole, expressions: SourceNode[], extra: Partial<BlockDecision> = {}): void => {
      const entropy = expressions.flatMap((e) => this.dataflow.origins(e, fn, this.entropy))
      const clock = expressions.flatMap((e) => this.dataflow.origins(e, fn, this.clock))
      if (entropy.length > 0 || clock.length > 0) result.push({ node, role, entropy, clock, ...extra })
    }
    for (const o of fn.facts.arithmetic) if (o.operator === '%') add(o.node, 'modulus', [o.left.expression], { timeDivisor: this.measuresTime(o.right.expression, fn) || wordSize(o.right.expression) })
    for (const index of (fn.facts.nodes.get('IndexAccess') ?? []) as AST.IndexAccess[]) {
      if (!index.index || !this.isStateCollection(index.base, fn)) continue
      const at = unwrap(index.index)
      // A remainder as index is decided by the remainder already.
      if (at.type === 'BinaryOperation' && (at as AST.BinaryOperation).operator === '%') continue
      add(index, 'index', [at])
    }
    for (const c of fn.facts.comparisons) add(c.node, 'condition', [c.left.expression, c.right.expression])
    for (const call of fn.facts.calls) {
      if (!movesFunds(call) || call.assembly) continue
      const { recipient, amount } = paymentParts(call)
      add(call.node, 'recipient', recipient)
      add(call.node, 'amount', amount)
    }
    for (const write of fn.facts.stateWrites) {
      const value = write.assignment?.operator === '=' ? write.assignment.value : null
      if (value && isAccount(write.variable)) add(write.statement ?? write.node, 'account', [value])
    }
    result.sort((x, y) => (x.node.range?.[0] ?? 0) - (y.node.range?.[0] ?? 0) || (y.node.range?.[1] ?? 0) - (x.node.range?.[1] ?? 0))
    return result
  }

  /** Whether `expression` in `fn` is the current timestamp (itself, or a copy in a local or a helper's return). */
  isCurrentTime(expression: SourceNode, fn: FunctionIr): boolean {
    return blockValue(expression) === 'timestamp' || this.dataflow.reaches(expression, fn, this.currentTime)
  }

  /**
   * The smallest positive number of seconds added to or subtracted from a time in `expression`
   * (`start + 30 seconds` → 30), with constants resolved (`lastPlay + ONE_MINUTE`) and followed
   * into what the state variables it reads were set to (`deadline`, set to `now + 5 minutes`
   * elsewhere → 300) and the locals it reads; null when there is none.
   */
  timeWindow(expression: SourceNode, fn: FunctionIr, depth = 0): number | null {
    if (depth > MAX_WINDOW_DEPTH) return null
    const n = unwrap(expression)
    const candidates: number[] = []
    const consider = (value: number | null): void => {
      if (value !== null && value > 0) candidates.push(value)
    }
    if (n.type === 'BinaryOperation' && ['+', '-'].includes((n as AST.BinaryOperation).operator)) {
      const { left, right } = n as AST.BinaryOperation
      for (const side of [left, right]) {
        consider(this.seconds(side, fn))
        consider(this.timeWindow(side, fn, depth + 1))
      }
    } else if (n.type === 'FunctionCall' && this.dispatch.callOf(n as AST.FunctionCall)?.kind === 'conversion') {
      const [arg] = (n as AST.FunctionCall).arguments
      if (arg) consider(this.timeWindow(arg, fn, depth + 1))
    } else {
      const variable = this.stateVariableOf(n, fn)
      if (variable && !variable.isConstant) {
        // A stored deadline: the windows of what it was set to (`deadline = now + 5 minutes`).
        for (const writer of this.effects.writersOf(variable))
          for (const write of writer.facts.stateWrites) {
            const value = write.assignment?.operator === '=' ? write.assignment.value : null
            if (write.variable === variable && value) consider(this.timeWindow(value, writer, depth + 1))
          }
      } else if (n.type === 'Identifier' && fn.facts.locals.has((n as AST.Identifier).name)) {
        for (const d of (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[])
          if (d.initialValue && d.variables.length === 1 && (d.variables[0] as AST.VariableDeclaration | null)?.name === (n as AST.Identifier).name) consider(this.timeWindow(d.initialValue, fn, depth + 1))
      }
    }
    return candidates.length > 0 ? Math.min(...candidates) : null
  }

  /** The seconds a time quantity stands for: a literal (`30 minutes`), a product of them (`5 * 1 minutes`) or a constant set to one; else null. */
  seconds(expression: SourceNode, fn: FunctionIr, depth = 0): number | null {
    if (depth > MAX_WINDOW_DEPTH) return null
    const n = unwrap(expression)
    if (n.type === 'NumberLiteral') {
      const literal = n as AST.NumberLiteral
      const value = Number(literal.number.replace(/_/g, ''))
      if (!Number.isFinite(value)) return null
      return value * (literal.subdenomination ? (UNIT_SECONDS[literal.subdenomination] ?? 1) : 1)
    }
    if (n.type === 'BinaryOperation' && (n as AST.BinaryOperation).operator === '*') {
      const a = this.seconds((n as AST.BinaryOperation).left, fn, depth + 1)
      const b = this.seconds((n as AST.BinaryOperation).right, fn, depth + 1)
      return a !== null && b !== null ? a * b : null
    }
    const variable = this.stateVariableOf(n, fn)
    if (variable && (variable.isConstant || variable.isImmutable) && variable.initialValue) return this.seconds(variable.initialValue, fn, depth + 1)
    return null
  }

  /** Whether a divisor measures time: a literal with a time unit, a constant set to one, or a name saying so (`period`, `EPOCH`). */
  measuresTime(divisor: SourceNode, fn: FunctionIr): boolean {
    const n = unwrap(divisor)
    if (n.type === 'NumberLiteral') {
      const unit = (n as AST.NumberLiteral).subdenomination
      return typeof unit === 'string' && unit in UNIT_SECONDS
    }
    if (n.type === 'BinaryOperation') return this.measuresTime((n as AST.BinaryOperation).left, fn) || this.measuresTime((n as AST.BinaryOperation).right, fn)
    const variable = this.stateVariableOf(n, fn)
    if (variable?.initialValue && (variable.isConstant || variable.isImmutable) && this.measuresTime(variable.initialValue, fn)) return true
    const name = n.type === 'Identifier' ? (n as AST.Identifier).name : n.type === 'MemberAccess' ? (n as AST.MemberAccess).memberName : ''
    return TIME_NAMES.test(name) && !/length$/i.test(name)
  }

  private stateVariableOf(node: AST.BaseASTNode, fn: FunctionIr): StateVariableIr | null {
    let n = unwrap(node)
    while (n.type === 'IndexAccess' || n.type === 'MemberAccess') {
      if (n.type === 'MemberAccess' && unwrap((n as AST.MemberAccess).expression).type === 'Identifier' && ['this', 'block', 'msg', 'tx'].includes(((n as AST.MemberAccess).expression as AST.Identifier).name)) return null
      n = unwrap(n.type === 'IndexAccess' ? (n as AST.IndexAccess).base : (n as AST.MemberAccess).expression)
    }
    if (n.type !== 'Identifier' || fn.facts.locals.has((n as AST.Identifier).name) || !fn.contract) return null
    return this.dispatch.scope.stateVariable(fn.contract, (n as AST.Identifier).name)
  }

  /** Whether `base` is a state array or mapping (or an element of one), or a storage pointer to one. */
  private isStateCollection(base: AST.BaseASTNode, fn: FunctionIr): boolean {
    const n = unwrap(base)
    if (n.type === 'Identifier' && fn.facts.storageAliases.has((n as AST.Identifier).name)) return true
    return this.stateVariableOf(n, fn) !== null
  }
}

/** Whether a divisor is a word size: `2**32`, or a literal of 2^32 or more (a value truncated to fit, not drawn). */
function wordSize(divisor: AST.BaseASTNode): boolean {
  const n = unwrap(divisor)
  if (n.type === 'BinaryOperation' && (n as AST.BinaryOperation).operator === '**') {
    const base = unwrap((n as AST.BinaryOperation).left)
    return base.type === 'NumberLiteral' && (base as AST.NumberLiteral).number === '2'
  }
  if (n.type === 'NumberLiteral') {
    try {
      return BigInt((n as AST.NumberLiteral).number.replace(/_/g, '')) >= 2n ** 32n
    } catch {
      return false
    }
  }
  return false
}

/** An address (or payable address) in state: an account that can be paid or given control. */
export function isAccount(variable: StateVariableIr): boolean {
  return variable.type.kind === 'elementary' && /^address( payable)?$/.test(variable.type.name)
}
