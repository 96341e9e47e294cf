import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import { syntaxVersions } from '../src/audit/ir/syntax-versions.ts'
import type { FunctionIr, TypeRef } from '../src/audit/ir/types.ts'
import { encodeVersion } from '../src/audit/ir/version.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import { parseSource } from '../src/audit/parse/parse-source.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * Solidity 0.4/0.5 constructs the IR models: chained call options, `var` locals typed from their
 * initializer, and the compiler versions a file's syntax allows whatever its pragma says.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'audit', 'constructs')

async function legacy(name: string): Promise<FunctionIr> {
  const { ir } = buildIr(await loadProject(FIXTURE, { includePaths: [NODE_MODULES] }))
  const fn = ir.contracts.find((c) => c.name === 'Legacy')?.functions.find((f) => f.name === name)
  if (!fn) throw new Error(`no function ${name}`)
  return fn
}

function typeName(type: TypeRef | undefined): string {
  return type && 'name' in type ? type.name : (type?.kind ?? '')
}

function versions(source: string): { min: number; max: number } | null {
  const parsed = parseSource(source)
  if (!parsed.ok) throw new Error(parsed.message)
  const { range } = syntaxVersions(parsed.ast)
  return range && { min: range.min, max: range.max }
}

describe('0.4 call options', () => {
  it('are one call with its value and gas in either order; `.value(v)` without `()` calls nothing', async () => {
    const fn = await legacy('options')
    const calls = fn.facts.calls.filter((c) => c.kind !== 'option')
    expect(calls.map((c) => [c.kind, c.lowLevel, c.node.loc?.start.line])).toEqual([
      ['low-level', 'call', 5],
      ['low-level', 'call', 6],
    ])
    expect(calls.every((c) => c.value?.type === 'Identifier' && c.gas?.type === 'NumberLiteral')).toBe(true)
    expect(calls.map((c) => (c.gas?.type === 'NumberLiteral' ? c.gas.number : ''))).toEqual(['5000', '6000'])
    expect(fn.facts.calls.filter((c) => c.node.loc?.start.line === 7).map((c) => c.kind)).toEqual(['option'])
  })
})

describe('`var` locals', () => {
  it('take the type of their initializer, so calls through them are classified', async () => {
    const fn = await legacy('locals')
    const local = (name: string): string => typeName(fn.facts.locals.get(name)?.type)
    expect(local('payee')).toBe('address')
    expect(local('self')).toBe('Legacy')
    expect([local('count'), local('flag')]).toEqual(['uint16', 'bool'])
    expect(local('small')).toBe('uint8')
    expect([local('x'), local('y')]).toEqual(['uint256', 'bool'])
    expect(fn.facts.calls.map((c) => `${c.kind} ${c.name}`)).toEqual(expect.arrayContaining(['transfer transfer', 'external ping']))
  })
})

describe('compiler versions shown by syntax', () => {
  it('bounds old code from above and new code from below', () => {
    expect(versions('contract A { function f() { throw; } }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function A() public {} }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function f() public constant returns (uint) { return 1; } }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function f() public { var x = 1; x; } }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function f() public returns (bytes32) { return sha3(1); } }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function f() public { suicide(msg.sender); } }')?.max).toBe(encodeVersion(0, 5, 0))
    expect(versions('contract A { function () public payable {} }')?.max).toBe(encodeVersion(0, 6, 0))
    expect(versions('contract A { function f() public view returns (uint) { return now; } }')?.max).toBe(encodeVersion(0, 7, 0))
    expect(versions('contract A { function f(address a) public { a.call.value(1)(""); } }')?.max).toBe(encodeVersion(0, 7, 0))
    expect(versions('contract A { function f(uint x) public { unchecked { x++; } } }')?.min).toBe(encodeVersion(0, 8, 0))
    expect(versions('contract A { error E(); }')?.min).toBe(encodeVersion(0, 8, 4))
  })

  it('says nothing for code every version accepts, or a local named `now`', () => {
    expect(versions('contract A { uint x; function f() public { x = 1; } }')).toBeNull()
    expect(versions('contract A { function f(uint now) public pure returns (uint) { return now; } }')).toBeNull()
  })

  it('narrows an open-ended pragma', async () => {
    const { ir } = buildIr(await loadProject(path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors', 'integer-overflow'), { includePaths: [NODE_MODULES] }))
    const open = ir.files.find((f) => f.path === 'OpenPragma.sol')
    const modern = ir.files.find((f) => f.path === 'OpenPragmaModern.sol')
    expect(open?.compiler?.max).toBe(Infinity)
    expect(open?.versions).toMatchObject({ min: encodeVersion(0, 4, 18), max: encodeVersion(0, 5, 0) })
    expect(modern?.versions).toMatchObject({ min: encodeVersion(0, 8, 0), max: Infinity })
  })
})
