import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import type { ComparisonIr, FunctionIr, LogicIr, OperandIr, ValueReads } from '../src/audit/ir/types.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * The comparison and condition facts of the IR (ir/comparisons.ts): every comparison with its
 * operator, its two sides (literal, block/msg/tx value, what each reads) and the condition it is
 * part of; every condition of require / assert / if / loops / ?: with the values it reads. And the
 * facts detectors read instead of the syntax (Facts.sol): arithmetic as trees of terms
 * (ir/arithmetic.ts), assignments, loops' initialisation and increment, guards' boolean
 * structure (ir/logic.ts), index keys and array lengths.
 */
const FOLDER = path.join(import.meta.dirname, 'fixtures', 'audit', 'ir-facts')

async function functionNamed(name: string): Promise<FunctionIr> {
  const { ir } = buildIr(await loadProject(FOLDER, { includePaths: [NODE_MODULES] }))
  const found = ir.contracts.find((c) => c.name === 'Comparisons')?.functions.find((f) => f.name === name)
  if (!found) throw new Error(`no function ${name}`)
  return found
}

function text(fn: FunctionIr, node: { range?: [number, number] }): string {
  const [from, to] = node.range ?? [0, -1]
  return fn.file.source.slice(from, to + 1)
}

/** The reads as names: state, params, locals, environment, and `own-balance` when it reads it. */
function reads(r: ValueReads): string[] {
  return [
    ...r.state.map((v) => `state:${v.name}`),
    ...r.params.map((v) => `param:${v.name}`),
    ...r.locals.map((v) => `local:${v.name}`),
    ...r.environment.map((e) => `env:${e}`),
    ...(r.ownBalance ? ['own-balance'] : []),
  ]
}

function side(fn: FunctionIr, o: OperandIr): unknown {
  return { text: text(fn, o.expression), literal: o.literal, environment: o.environment, reads: reads(o.reads) }
}

function summary(fn: FunctionIr, c: ComparisonIr): unknown {
  return { text: text(fn, c.node), operator: c.operator, condition: c.condition?.kind ?? null, left: side(fn, c.left), right: side(fn, c.right) }
}

describe('IR comparison facts', () => {
  it('records each comparison with its operands, what each side reads, and the condition it sits in', async () => {
    const fn = await functionNamed('gate')
    expect(fn.facts.comparisons.map((c) => summary(fn, c))).toEqual([
      {
        text: 'msg.sender == owner',
        operator: '==',
        condition: 'require',
        left: { text: 'msg.sender', literal: null, environment: 'msg.sender', reads: ['env:msg.sender'] },
        right: { text: 'owner', literal: null, environment: null, reads: ['state:owner'] },
      },
      {
        text: '(amount) > limit',
        operator: '>',
        condition: 'if',
        left: { text: 'amount', literal: null, environment: null, reads: ['param:amount'] },
        right: { text: 'limit', literal: null, environment: null, reads: ['local:limit'] },
      },
      {
        text: 'block.timestamp >= deadline',
        operator: '>=',
        condition: null,
        left: { text: 'block.timestamp', literal: null, environment: 'block.timestamp', reads: ['env:block.timestamp'] },
        right: { text: 'deadline', literal: null, environment: null, reads: ['state:deadline'] },
      },
      {
        text: 'late != true',
        operator: '!=',
        condition: null,
        left: { text: 'late', literal: null, environment: null, reads: ['local:late'] },
        right: { text: 'true', literal: { kind: 'bool', value: true }, environment: null, reads: [] },
      },
    ])
  })

  it('records the conditions of require, if, loops, assert and ?: with the values they read', async () => {
    const gate = await functionNamed('gate')
    expect(gate.facts.conditions.map((c) => [c.kind, text(gate, c.node), reads(c.reads)])).toEqual([
      ['require', 'msg.sender == owner', ['state:owner', 'env:msg.sender']],
      ['if', '(amount) > limit', ['param:amount', 'local:limit']],
    ])
    const loops = await functionNamed('loops')
    expect(loops.facts.conditions.map((c) => [c.kind, text(loops, c.node), reads(c.reads)])).toEqual([
      ['for', 'i < n', ['param:n', 'local:i']],
      ['while', 'sum > 100', ['local:sum']],
      ['assert', 'address(this).balance == total', ['state:total', 'own-balance']],
      ['ternary', 'token.balanceOf(address(this)) != 0', ['state:token', 'own-balance']],
      ['ternary', 'n >= 0', ['param:n']],
    ])
  })

  it('gives a comparison the innermost condition around it and reads literals and own balances', async () => {
    const fn = await functionNamed('loops')
    const byText = new Map(fn.facts.comparisons.map((c) => [text(fn, c.node), c]))
    expect(byText.get('n >= 0')?.condition?.kind).toBe('ternary')
    expect(byText.get('n >= 0')?.right.literal).toEqual({ kind: 'number', value: 0n })
    expect(byText.get('sum > 100')?.condition?.kind).toBe('while')
    expect(byText.get('address(this).balance == total')?.left.reads.ownBalance).toBe(true)
    expect(byText.get('address(this).balance == total')?.right.reads.ownBalance).toBe(false)
    expect(byText.get('token.balanceOf(address(this)) != 0')?.left.reads.ownBalance).toBe(true)
    expect(byText.get('token.balanceOf(address(this)) != 0')?.right.zero).toBe(true)
    expect(byText.get('n >= 0')?.left.zero).toBe(false)
  })

  it('lists in a condition every comparison inside it, nested ones included', async () => {
    const fn = await functionNamed('loops')
    const outer = fn.facts.conditions.find((c) => c.kind === 'ternary' && text(fn, c.node).startsWith('token'))
    expect(outer?.comparisons.map((c) => text(fn, c.node))).toEqual(['token.balanceOf(address(this)) != 0'])
    const gate = await functionNamed('gate')
    expect(gate.facts.conditions.map((c) => c.comparisons.length)).toEqual([1, 1])
    const nested = await functionNamed('nested')
    expect(nested.facts.conditions.map((c) => [c.kind, c.comparisons.map((x) => text(nested, x.node))])).toEqual([
      ['require', ['a > 0', 'a < 10', 'a == 0']],
      ['ternary', ['a > 0']],
    ])
    expect(nested.facts.comparisons.map((c) => [text(nested, c.node), c.condition?.kind])).toEqual([
      ['a > 0', 'ternary'],
      ['a < 10', 'require'],
      ['a == 0', 'require'],
    ])
  })
  it('tells the parts of a condition joined by &&, || and ! from comparisons nested in calls or ?:', async () => {
    const joined = await functionNamed('joined')
    expect(joined.facts.comparisons.map((c) => [text(joined, c.node), c.condition?.kind, c.direct, c.right.zero])).toEqual([
      ['to != address(0)', 'require', true, true],
      ['a < 1', 'require', true, false],
      ['a == 2', 'require', false, false],
    ])
    const nested = await functionNamed('nested')
    expect(nested.facts.comparisons.map((c) => c.direct)).toEqual([true, false, false])
  })
})

describe('IR arithmetic, assignment and guard facts', () => {
  async function factsOf(name: string): Promise<FunctionIr> {
    const { ir } = buildIr(await loadProject(path.join(FOLDER, 'Facts.sol'), { includePaths: [NODE_MODULES] }))
    const found = ir.contracts.find((c) => c.name === 'Facts')?.functions.find((f) => f.name === name)
    if (!found) throw new Error(`no function ${name}`)
    return found
  }

  it('records arithmetic as trees of terms: literals with their unit, nested operations, a local standing for the operation it was declared with', async () => {
    const fn = await factsOf('share')
    expect(fn.facts.arithmetic.map((a) => `${text(fn, a.node)} [${a.operator}]`)).toEqual(['a / b [/]', 'total += part * c [+=]', 'part * c [*]', '(block.timestamp + 30 minutes) % 2 [%]', 'block.timestamp + 30 minutes [+]'])
    const product = fn.facts.arithmetic.find((a) => a.operator === '*')
    expect(product?.left.text).toBe('part')
    expect(product?.left.definition && text(fn, product.left.definition.node)).toBe('a / b')
    const remainder = fn.facts.arithmetic.find((a) => a.operator === '%')
    expect(remainder?.left.operation?.right.number).toEqual({ digits: '30', value: 30, unit: 'minutes' })
    expect(remainder?.right.number).toEqual({ digits: '2', value: 2, unit: null })
  })

  it('records every assignment and update, and each state write names the one that makes it', async () => {
    const fn = await factsOf('guarded')
    expect(fn.facts.assignments.map((a) => `${text(fn, a.node)} [${a.operator}]`)).toEqual(['items[i] = 0 [=]', 'i++ [++]', 'delete items [delete]', 'owner = who [=]'])
    const write = fn.facts.stateWrites.find((w) => w.variable.name === 'owner')
    expect(write?.assignment && text(fn, write.assignment.target)).toBe('owner')
    expect(write?.assignment?.value && text(fn, write.assignment.value)).toBe('who')
    expect(fn.facts.loops[0].init && text(fn, fn.facts.loops[0].init)).toBe('uint256 i = 0;')
    expect(fn.facts.loops[0].increment && text(fn, fn.facts.loops[0].increment)).toBe('i++')
  })

  it("gives each guard its polarity and boolean structure, and conditions the keys and array lengths they read", async () => {
    const fn = await factsOf('guarded')
    const shape = (l: LogicIr): string =>
      l.kind === 'not' ? `not(${shape(l.operand)})` : l.kind === 'part' ? text(fn, l.node) : `${l.kind}(${shape(l.left)}, ${shape(l.right)})`
    expect(fn.facts.guards.map((g) => ({ negated: g.negated, logic: shape(g.logic) }))).toEqual([
      { negated: false, logic: 'not(or(msg.sender != owner, allowed[tx.origin]))' },
      { negated: true, logic: 'and(who == address(0), items.length > 0)' },
    ])
    expect(fn.facts.conditions.map((c) => ({ kind: c.kind, keys: c.reads.keys, lengths: c.reads.lengths.map((v) => v.name) }))).toEqual([
      { kind: 'require', keys: ['tx.origin'], lengths: [] },
      { kind: 'if', keys: [], lengths: ['items'] },
      { kind: 'for', keys: [], lengths: ['items'] },
    ])
  })
})
