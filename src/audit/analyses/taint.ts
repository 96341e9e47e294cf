import type * as AST from '../parse/ast.ts'
import { mentionsAny, unwrap } from './syntax.ts'
import type { FunctionIr } from '../ir/types.ts'

/** Which values of a function depend on its parameters (what a caller chooses). */
export class TaintAnalysis {
  private readonly taintMemo = new Map<FunctionIr, Set<string>>()

  /** Names of locals whose value is derived from a parameter of `fn`. */
  taintedLocals(fn: FunctionIr): Set<string> {
    const known = this.taintMemo.get(fn)
    if (known) return known
    const tainted = new Set<string>()
    for (const local of fn.facts.locals.values()) if (local.isParameter) tainted.add(local.name)
    this.taintMemo.set(fn, tainted)
    return derivedLocals(fn, tainted, () => false)
  }

  /** Whether an expression depends on a parameter of `fn` (directly or through locals). */
  dependsOnParameters(expression: AST.BaseASTNode, fn: FunctionIr): boolean {
    return mentionsAny(expression, this.taintedLocals(fn))
  }
}

/**
 * Adds to `names` (and returns it) the locals of `fn` whose value comes from an expression that
 * `isSource` accepts or that mentions a name already in `names`, through declarations and
 * assignments, until nothing changes.
 */
export function derivedLocals(fn: FunctionIr, names: Set<string>, isSource: (e: AST.BaseASTNode) => boolean): Set<string> {
  const declarations = (fn.facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]
  const assignments = ((fn.facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]).filter((b) => b.operator === '=')
  const derived = (e: AST.BaseASTNode): boolean => isSource(e) || mentionsAny(e, names)
  let changed = true
  while (changed) {
    changed = false
    for (const d of declarations) {
      if (!d.initialValue || !derived(d.initialValue)) continue
      for (const v of d.variables) {
        const name = (v as AST.VariableDeclaration | null)?.name
        if (name && !names.has(name)) {
          names.add(name)
          changed = true
        }
      }
    }
    for (const a of assignments) {
      const target = unwrap(a.left)
      if (target.type === 'Identifier' && !names.has((target as AST.Identifier).name) && fn.facts.locals.has((target as AST.Identifier).name) && derived(a.right)) {
        names.add((target as AST.Identifier).name)
        changed = true
      }
    }
  }
  return names
}
