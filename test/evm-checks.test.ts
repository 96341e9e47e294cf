// The EVM checks' metadata and the pure reasoning behind them: docs/checks.md generated from the
// metadata, the sentence of every check (EVM and Solana) for each of its statuses, owner-power
// effects read from measurements, calldata variants, revert reasons.
import { readFileSync } from 'node:fs'
import { encodeErrorResult, parseAbi, toFunctionSelector, type Address, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { CHECKS_DOC, checksDocSections } from '../scripts/gen-docs.ts'
import type { CodeAnalysis } from '../src/engines/evm/chain/bytecode.ts'
import { AMOUNT_PLACEHOLDER, PROBE_ADDRESSES, type Measure, type Outcome, type PowerResult } from '../src/engines/evm/chain/probe.ts'
import { decodeRevert, isProbeReason } from '../src/engines/evm/chain/revert.ts'
import { OTHER_CHECKS, OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { EVM_CHECKS } from '../src/engines/evm/checks/registry.ts'
import { candidateFunctions, effectsOf, functionVariants, interpretPowers } from '../src/engines/evm/collect/powers.ts'
import { renderChecksDoc } from '../src/report/checks-doc.ts'
import { renderCheck, type CheckDefinition } from '../src/report/define-check.ts'
import { SOLANA_CHECKS } from '../src/engines/solana/checks/registry.ts'
import { statusWord } from '../src/cli/scan.ts'

describe('metadata', () => {
  it('docs/checks.md is generated from the checks and up to date (npm run docs)', async () => {
    expect(readFileSync(CHECKS_DOC, 'utf8')).toBe(renderChecksDoc(await checksDocSections()))
  })

  it('the registry has the contract\'s twelve checks, in its groups and order', () => {
    expect(EVM_CHECKS.map((c) => c.id)).toEqual([...OWNERSHIP_CHECKS, ...OTHER_CHECKS])
    for (const c of EVM_CHECKS) expect(c.group).toBe((OWNERSHIP_CHECKS as readonly string[]).includes(c.id) ? 'ownershipChecks' : 'otherChecks')
  })
})

describe('words agree with status', () => {
  const all = [...EVM_CHECKS.map((c) => ['EVM', c] as const), ...SOLANA_CHECKS.map((c) => ['Solana', c] as const)]
  it.each(all.map(([engine, c]) => [`${engine} ${c.id}`, c] as const))('%s says one thing per status, in the API, the comment and the CLI', (_name, check) => {
    const definition = check as CheckDefinition<unknown>
    const cases = [
      { status: 'present', method: 'simulated', evidence: 'the evidence', flag: '1', word: 'RISK' },
      { status: 'absent', method: 'simulated', evidence: 'the evidence', flag: '0', word: 'ok' },
      { status: 'undetermined', method: 'not determinable', evidence: 'the reason', flag: '', word: 'unknown' },
    ] as const
    for (const c of cases) {
      const rendered = renderCheck(definition, { status: c.status, method: c.method, evidence: c.evidence })
      expect(rendered.description).toBe(definition.describe[c.status])
      expect(rendered.status).toBe(c.flag)
      expect(statusWord(rendered.status)).toBe(c.word)
      expect(rendered.risk).toBe(c.status === 'undetermined' ? '' : definition.tier)
      if (c.status === 'undetermined') expect(rendered.comment).toBe('not determinable: the reason')
      else expect(rendered.comment).toBe('simulated: the evidence')
    }
    // Three different sentences; only the undetermined one says that nothing is known.
    const { present, absent, undetermined } = definition.describe
    expect(new Set([present, absent, undetermined]).size).toBe(3)
    expect(undetermined).toMatch(/could not be determined/)
    expect(present).not.toMatch(/could not be determined/)
    expect(absent).not.toMatch(/could not be determined/)
    // An undetermined check without evidence still says why it is unknown.
    expect(renderCheck(definition, { status: 'undetermined', method: 'not determinable', evidence: '' }).comment).toMatch(/^not determinable: ./)
  })
})

const ok = (sent: bigint, received: bigint): Outcome => ({ ok: true, err: '0x', sent, received })
const fail: Outcome = { ok: false, err: '0x', sent: 10n, received: 0n }

function measure(over: Partial<Measure> = {}): Measure {
  return {
    supply: 1_000_000n,
    balA: 1_000n,
    balB: 1_000n,
    aTransfer: ok(10n, 10n),
    bTransfer: ok(10n, 10n),
    aSell: ok(100n, 93n),
    bSell: ok(100n, 93n),
    bBuy: ok(100n, 97n),
    ...over,
  }
}

describe('owner-power effects', () => {
  const base = measure()
  const kinds = (m: Measure) => effectsOf(base, m, true, true).map((e) => e.kind)

  it('minting to a holder is minting only; taking from a holder is changing its balance', () => {
    expect(kinds(measure({ supply: 1_000_020n, balA: 1_020n }))).toEqual(['mint'])
    expect(kinds(measure({ balA: 500n }))).toEqual(['changeBalance'])
    expect(kinds(measure({ balB: 1_500n }))).toEqual(['changeBalance'])
  })

  it('a bystander blocked is a pause; a bystander taxed differently is a tax change for everyone', () => {
    expect(kinds(measure({ bTransfer: fail, aTransfer: fail, bSell: fail, aSell: fail }))).toEqual(['pause'])
    expect(kinds(measure({ bSell: ok(100n, 80n), aSell: ok(100n, 80n) }))).toEqual(['feeAll'])
    expect(kinds(measure({ bBuy: ok(100n, 90n) }))).toEqual(['feeAll'])
  })

  it('only the named holder blocked or taxed is personal', () => {
    expect(kinds(measure({ aTransfer: fail, aSell: fail }))).toEqual(['feePersonal'])
    expect(kinds(measure({ aSell: ok(100n, 92n) }))).toEqual(['feePersonal'])
    expect(kinds(measure())).toEqual([])
  })

  it('without funded holders only the supply is judged', () => {
    expect(effectsOf(base, measure({ balA: 0n, supply: 2_000_000n }), false, true).map((e) => e.kind)).toEqual(['mint'])
  })

  it('a numeric setter that blocks at some values only is a limit, not a pause', () => {
    const owner = { address: '0x00000000000000000000000000000000000000aa' as Address, source: 'owner()' }
    const result = (blocked: boolean[]): PowerResult => ({
      startGas: 30_000_000n,
      funded: true,
      measured: true,
      baseline: base,
      attempts: blocked.map((b, i) => ({ candidate: owner.address, variant: BigInt(i), called: true, err: '0x', m: b ? measure({ bTransfer: fail, aTransfer: fail }) : measure() })),
    })
    const setter = { selector: toFunctionSelector('setMaxTxAmount(uint256)'), arguments: 'uint256', stateMutability: 'nonpayable' as const }
    expect(interpretPowers(setter, [owner], result([true, true, false]), true)).toEqual([])
    const pauser = { selector: toFunctionSelector('setPaused(bool)'), arguments: 'bool', stateMutability: 'nonpayable' as const }
    const found = interpretPowers(pauser, [owner], result([true, false]), true)
    expect(found.map((f) => f.kind)).toEqual(['pause'])
    expect(found[0].evidence).toContain('setPaused(bool)')
    expect(found[0].evidence).toContain(owner.address)
  })
})

describe('candidate functions and their calldata', () => {
  it('leaves out views and standard ERC-20 / ownership functions', () => {
    const fn = (sig: string, m: 'view' | 'nonpayable') => ({ selector: toFunctionSelector(sig), arguments: sig.slice(sig.indexOf('(') + 1, -1), stateMutability: m })
    const analysis = {
      functions: [fn('transfer(address,uint256)', 'nonpayable'), fn('balanceOf(address)', 'view'), fn('renounceOwnership()', 'nonpayable'), fn('mint(address,uint256)', 'nonpayable'), fn('f00()', 'nonpayable')],
    } as unknown as CodeAnalysis
    expect(candidateFunctions(analysis).map((f) => f.selector)).toEqual([toFunctionSelector('mint(address,uint256)'), toFunctionSelector('f00()')])
  })

  it('targets holder A, sends elsewhere to the fresh account, and spans numbers and booleans', () => {
    const pad = (a: string) => a.slice(2).toLowerCase().padStart(64, '0')
    const sel = toFunctionSelector('adminTransfer(address,address,uint256)')
    const variants = functionVariants({ selector: sel, arguments: 'address,address,uint256', stateMutability: 'nonpayable' })
    expect(variants).toHaveLength(3)
    for (const v of variants) expect(v.slice(10, 138)).toBe(pad(PROBE_ADDRESSES.a) + pad(PROBE_ADDRESSES.f))
    expect(variants.some((v) => v.endsWith(AMOUNT_PLACEHOLDER.slice(2)))).toBe(true)
    expect(functionVariants({ selector: '0x12345678', arguments: 'bool', stateMutability: 'nonpayable' })).toHaveLength(2)
    expect(functionVariants({ selector: '0x12345678', arguments: '', stateMutability: 'nonpayable' })).toEqual(['0x12345678'])
    expect(functionVariants({ selector: '0x12345678', arguments: 'address[],bool', stateMutability: 'nonpayable' })).toHaveLength(2)
    expect(functionVariants({ selector: '0x12345678', arguments: '(uint256,address),uint8', stateMutability: 'nonpayable' }).length).toBeGreaterThan(1)
  })
})

describe('revert reasons', () => {
  it('reads Error(string), Panic(uint256), custom errors and empty data', () => {
    const data = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['ZooHoneypot: selling is disabled'] })
    expect(decodeRevert(data)).toBe('ZooHoneypot: selling is disabled')
    expect(decodeRevert('0x4e487b710000000000000000000000000000000000000000000000000000000000000011')).toBe('panic 0x11 (arithmetic overflow or underflow)')
    expect(decodeRevert('0xdeadbeef')).toBe('custom error 0xdeadbeef')
    expect(decodeRevert('0x')).toBe('reverted without a reason')
    const probe = encodeErrorResult({ abi: parseAbi(['error ProbeFailure(string)']), errorName: 'ProbeFailure', args: ['no route'] })
    expect(decodeRevert(probe)).toBe('tokenrisk-probe: no route')
    expect(isProbeReason(decodeRevert(probe))).toBe(true)
    // A token cannot pass its own revert off as the probe's by wording it like one.
    const mimic = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['tokenrisk-probe: no route'] })
    expect(isProbeReason(decodeRevert(mimic))).toBe(false)
    const long = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['x'.repeat(5_000)] }) as Hex
    expect(decodeRevert(long).length).toBeLessThanOrEqual(201)
  })
})
