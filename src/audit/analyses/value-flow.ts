import type { Analyses } from './analyses.ts'
import { MAX_CALL_DEPTH, type DispatchContext } from './dispatch.ts'
import type { FlatEffect } from './effects.ts'
import type { CallIr, FunctionIr } from '../ir/types.ts'
import { isAssignment } from '../ir/walk-function.ts'
import type * as AST from '../parse/ast.ts'

/*
 * Where the value of a state read goes: up through the expressions around it, into locals and
 * out of helpers through their returns, until something decides on it (a condition, a state
 * write, a call that moves value) or it is dropped. The cross-function reentrancy detector asks
 * this of reads in other functions.
 */

/**
 * Whether the value `read` reads (as `context` runs its function) is decided on: it feeds a
 * `require`, `if`, loop or `?:` condition (when `acts`: the function writes state or moves value
 * at all), a state write or an index of one, a call `movesValue` says moves value, or a helper
 * that writes state or moves value; followed through locals and through returns to the callers
 * on the read's call chain.
 */
export function readIsDecidedOn(analyses: Analyses, context: DispatchContext, read: FlatEffect, acts: boolean, movesValue: (call: CallIr) => boolean): boolean {
  return new ValueFlow(analyses, context, read, acts, movesValue).fromRead()
}

/** Follows the value of one state read upwards through expressions, locals and helper returns. */
class ValueFlow {
  private readonly visitedLocals = new Map<FunctionIr, Set<string>>()

  constructor(
    private readonly analyses: Analyses,
    private readonly context: DispatchContext,
    private readonly read: FlatEffect,
    /** Whether the function the read belongs to writes state or moves value at all (for conditions). */
    private readonly acts: boolean,
    private readonly movesValue: (call: CallIr) => boolean,
  ) {}

  fromRead(): boolean {
    if (this.read.effect.kind !== 'read') return false
    return this.follow(this.read.effect.access.node, this.read.owner, this.read.via.length - 1, 0)
  }

  /**
   * Whether the value of `node` (inside `fn`) is decided on. `viaIndex` is the internal call that
   * led into `fn` (in the read's call chain), so a `return` continues at that call.
   */
  private follow(node: AST.BaseASTNode, fn: FunctionIr, viaIndex: number, depth: number): boolean {
    if (depth > MAX_CALL_DEPTH * 4) return false
    const { ir } = this.analyses
    let child = node
    for (let parent = ir.info(node)?.parent ?? null; parent; child = parent, parent = ir.info(parent)?.parent ?? null) {
      switch (parent.type) {
        case 'FunctionCall': {
          const call = this.analyses.dispatch.callOf(parent)
          if (!call || child === parent.expression) {
            // `s.transfer(x)`, `token.transfer(…)`: the value picks the callee or the receiver.
            if (call && call.target && this.movesValue(call)) return true
            continue
          }
          if (call.kind === 'builtin' && (call.name === 'require' || call.name === 'assert')) return this.acts
          if (this.movesValue(call)) return true
          if (call.kind === 'internal' || call.kind === 'library') {
            const callee = this.analyses.dispatch.calleeIn(call, fn, this.context)
            if (callee && this.helperActs(callee)) return true
          }
          continue
        }
        case 'IfStatement':
        case 'WhileStatement':
        case 'DoWhileStatement':
          if (child === parent.condition) return this.acts
          return false
        case 'ForStatement':
          if (child === parent.conditionExpression) return this.acts
          return false
        case 'Conditional':
          if (child === parent.condition) return this.acts
          continue
        case 'BinaryOperation': {
          const op = parent
          if (!isAssignment(op.operator)) continue
          if (child === op.left) return true // an index of the written location: `a[s] = …`
          return this.assigned(op.left, fn, viaIndex, depth)
        }
        case 'VariableDeclarationStatement': {
          const declaration = parent
          return declaration.variables.some((v) => v !== null && (v as AST.VariableDeclaration).name !== null && this.local((v as AST.VariableDeclaration).name as string, parent, fn, viaIndex, depth))
        }
        case 'ReturnStatement': {
          if (viaIndex < 0) return false
          const call = this.read.via[viaIndex]
          const caller = ir.info(call.node)?.function
          return caller !== undefined && this.follow(call.node, caller, viaIndex - 1, depth + 1)
        }
        case 'EmitStatement':
        case 'ExpressionStatement':
        case 'Block':
          return false
        default:
          continue
      }
    }
    return false
  }

  /**
   * The value is assigned to `target`: another state variable decides on it (updating the read
   * variable itself, `s = s + x`, is no more a decision than `s += x`); a local passes it on.
   */
  private assigned(target: AST.BaseASTNode, fn: FunctionIr, viaIndex: number, depth: number): boolean {
    let root = target
    while (root.type === 'IndexAccess' || root.type === 'MemberAccess') root = root.type === 'IndexAccess' ? (root as AST.IndexAccess).base : (root as AST.MemberAccess).expression
    if (root.type === 'TupleExpression') return (root as AST.TupleExpression).components.some((c) => c !== null && this.assigned(c, fn, viaIndex, depth))
    if (root.type !== 'Identifier') return false
    const name = (root as AST.Identifier).name
    const written = fn.facts.stateWrites.find((w) => w.node === root)?.variable ?? fn.facts.storageAliases.get(name)
    if (written) return this.read.effect.kind === 'read' && written !== this.read.effect.access.variable
    return fn.facts.locals.has(name) && this.local(name, target, fn, viaIndex, depth)
  }

  /** A local holding the value: whether any later use of it is decided on. */
  private local(name: string, after: AST.BaseASTNode, fn: FunctionIr, viaIndex: number, depth: number): boolean {
    const visited = this.visitedLocals.get(fn) ?? new Set<string>()
    this.visitedLocals.set(fn, visited)
    if (visited.has(name)) return false
    visited.add(name)
    const end = after.range?.[1] ?? -1
    return (fn.facts.identifiers.get(name) ?? []).some((use) => (use.range?.[0] ?? 0) > end && this.follow(use, fn, viaIndex, depth + 1))
  }

  /** Whether a helper the value is passed to writes state or moves value. */
  private helperActs(callee: FunctionIr): boolean {
    return this.analyses.effects
      .flatEffects(callee, this.context)
      .some((e) => (e.effect.kind === 'write' && e.owner.kind !== 'modifier') || (e.effect.kind === 'call' && this.movesValue(e.effect.call)))
  }
}
