import type * as AST from '../parse/ast.ts'
import type { ArithmeticIr, ArithmeticOperator, FunctionFacts, TermIr } from './types.ts'
import { stripParentheses } from './comparisons.ts'
import { isAssignment } from './walk-function.ts'

/*
 * The arithmetic facts of a function: each arithmetic operation as a tree of terms (literals with
 * their value and unit, nested operations, locals standing for the one operation they were
 * declared with), computed once the walk is done, so that detectors read "a product whose factor
 * is a division" or "a timestamp plus 30 seconds" instead of walking syntax themselves.
 */

const ARITHMETIC_OPERATORS: ReadonlySet<string> = new Set<ArithmeticOperator>(['+', '-', '*', '/', '%', '**', '+=', '-=', '*=', '/=', '%='])

/** Makes the terms of one function: `termOf` gives any body expression as a term. */
export interface ArithmeticTerms {
  termOf(node: AST.Expression): TermIr
}

/** Fills `facts.arithmetic` from the walked nodes; `source` is the function's file text. */
export function addArithmeticFacts(facts: FunctionFacts, source: string): ArithmeticTerms {
  const binaries = (facts.nodes.get('BinaryOperation') ?? []) as AST.BinaryOperation[]
  const byNode = new Map<AST.BaseASTNode, ArithmeticIr>()
  const pending: { operation: ArithmeticIr; left: AST.Expression; right: AST.Expression }[] = []
  const placeholder = null as unknown as TermIr
  for (const node of binaries) {
    if (!ARITHMETIC_OPERATORS.has(node.operator)) continue
    const operation: ArithmeticIr = { node, operator: node.operator as ArithmeticOperator, left: placeholder, right: placeholder }
    byNode.set(node, operation)
    pending.push({ operation, left: node.left, right: node.right })
    facts.arithmetic.push(operation)
  }
  const definitions = singleDefinitions(facts, binaries, byNode)
  const termOf = (node: AST.Expression): TermIr => {
    const expression = stripParentheses(node)
    const name = expression.type === 'Identifier' ? expression.name : null
    return new Term(node, expression, source, numberOf(expression), byNode.get(expression) ?? null, name !== null ? (definitions.get(name) ?? null) : null)
  }
  for (const { operation, left, right } of pending) {
    operation.left = termOf(left)
    operation.right = termOf(right)
  }
  return { termOf }
}

/**
 * A term whose text is made when first asked for: made eagerly, the texts of a long chain
 * (`a + b + c + …`, each operation's left term holding all before it) add up to the square of
 * its length, the largest part of the IR of expression-heavy code.
 */
class Term implements TermIr {
  private madeText: string | null = null

  constructor(
    readonly node: AST.Expression,
    readonly expression: AST.Expression,
    private readonly source: string,
    readonly number: TermIr['number'],
    public operation: ArithmeticIr | null,
    readonly definition: ArithmeticIr | null,
  ) {}

  get text(): string {
    if (this.madeText === null) {
      const range = this.expression.range
      this.madeText = range ? this.source.slice(range[0], range[1] + 1).replace(/\s+/g, '') : ''
    }
    return this.madeText
  }
}

/**
 * The arithmetic operation each local holds when its only assignment is its declaration
 * (`uint share = a / b;`, not assigned again anywhere in the body).
 */
function singleDefinitions(facts: FunctionFacts, binaries: readonly AST.BinaryOperation[], byNode: ReadonlyMap<AST.BaseASTNode, ArithmeticIr>): Map<string, ArithmeticIr> {
  const declared = new Map<string, ArithmeticIr | null>()
  const assigned = new Map<string, number>()
  for (const statement of (facts.nodes.get('VariableDeclarationStatement') ?? []) as AST.VariableDeclarationStatement[]) {
    const variable = statement.variables[0] as AST.VariableDeclaration | null
    if (statement.variables.length !== 1 || !variable?.name || !statement.initialValue) continue
    declared.set(variable.name, byNode.get(stripParentheses(statement.initialValue)) ?? null)
    assigned.set(variable.name, 1)
  }
  for (const node of binaries) {
    const left = stripParentheses(node.left)
    if (isAssignment(node.operator) && left.type === 'Identifier') assigned.set(left.name, (assigned.get(left.name) ?? 0) + 1)
  }
  const result = new Map<string, ArithmeticIr>()
  for (const [name, operation] of declared) if (operation && assigned.get(name) === 1) result.set(name, operation)
  return result
}

function numberOf(node: AST.Expression): TermIr['number'] {
  if (node.type !== 'NumberLiteral') return null
  const value = Number(node.number.replace(/_/g, ''))
  return Number.isFinite(value) ? { digits: node.number, value, unit: node.subdenomination ?? null } : null
}
