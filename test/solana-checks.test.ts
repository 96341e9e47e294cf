import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from '@solana/kit'
import { runCheck, renderCheck } from '../src/report/define-check.ts'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import { SOLANA_OTHER_CHECKS, SOLANA_OWNERSHIP_CHECKS } from '../src/contract/checks.ts'
import { SOLANA_CHECKS } from '../src/engines/solana/checks/registry.ts'
import { collectSolanaFacts } from '../src/engines/solana/collect/collect.ts'
import { DEFAULT_COLLECT_LIMITS } from '../src/engines/solana/collect/context.ts'
import { unknown, type SolanaFacts } from '../src/engines/solana/collect/facts.ts'
import { createAccountLoader } from '../src/engines/solana/rpc/account-loader.ts'
import { createSolanaRpcClient } from '../src/engines/solana/rpc/client.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { PRESENT_RISK_PENALTY } from '../src/report/score-model.ts'
import { renderSolanaReport } from '../src/engines/solana/render.ts'
import { scoreSolana } from '../src/engines/solana/score.ts'
import { runChecks } from '../src/report/pipeline.ts'
import { transferFeeSchedule } from '../src/engines/solana/transfer-fee.ts'

/**
 * Checks are pure functions of collected facts: here they run on facts collected from the local
 * world, then on the same facts with one piece made unknown or changed, to show what each check
 * does when the facts do not allow an answer.
 */

let world: StartedSolanaWorld
let dataDir: string
const facts = new Map<string, SolanaFacts>()

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-checks-'))
  world = await startSolanaWorld({ dataDir })
  const client = createSolanaRpcClient({ urls: [world.rpcUrl] })
  for (const m of world.manifest.mints) {
    const ctx = { client, loader: createAccountLoader(client, undefined), signal: undefined, logger: silentLogger, pricing: world.manifest.pricing, limits: DEFAULT_COLLECT_LIMITS }
    facts.set(m.key, await collectSolanaFacts(ctx, m.address as Address, { cluster: 'unknown', optionalBudgetMs: 5_000 }))
  }
})

afterAll(async () => {
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const check = (id: string) => SOLANA_CHECKS.find((c) => c.id === id)!
const run = (id: string, f: SolanaFacts) => runCheck(check(id), f)

describe('the registry', () => {
  it('holds unique, valid checks, exactly the ones the report schema lists', () => {
    const ids = SOLANA_CHECKS.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(SOLANA_CHECKS.filter((c) => c.group === 'ownershipChecks').map((c) => c.id)).toEqual([...SOLANA_OWNERSHIP_CHECKS])
    expect(SOLANA_CHECKS.filter((c) => c.group === 'otherChecks').map((c) => c.id)).toEqual([...SOLANA_OTHER_CHECKS])
  })
})

describe('checks on collected facts', () => {
  it('decide every check of every demo mint as the world built it, with evidence', () => {
    for (const m of world.manifest.mints) {
      for (const definition of SOLANA_CHECKS) {
        const result = runCheck(definition, facts.get(m.key)!)
        const expected = m.codeChecks[definition.id as keyof typeof m.codeChecks] === '1' ? 'present' : 'absent'
        expect(result.status, `${m.key}.${definition.id}: ${result.evidence}`).toBe(expected)
        expect(result.evidence, `${m.key}.${definition.id}`).not.toBe('')
      }
    }
  })

  it('name the authority that holds the power in the evidence', () => {
    const mintable = world.manifest.mints.find((m) => m.key === 'mintable-spl')!
    expect(run('isMintable', facts.get('mintable-spl')!).evidence).toContain(mintable.creator)
    expect(run('transferHookUpgradeable', facts.get('t22-hook-upgradeable')!).evidence).toMatch(/is upgradeable by /)
    expect(run('transferHookUpgradeable', facts.get('t22-hook-immutable')!).evidence).toMatch(/is immutable/)
  })
})

describe('when facts are missing', () => {
  it('metadataMutable is undetermined when the Metaplex account could not be read and nothing else decides', () => {
    const f = { ...facts.get('clean-spl')!, metaplex: unknown('the metadata account is malformed') }
    const result = run('metadataMutable', f)
    expect(result).toMatchObject({ status: 'undetermined', method: 'not determinable' })
    expect(renderCheck(check('metadataMutable'), result)).toEqual({
      description: check('metadataMutable').describe.undetermined,
      risk: '',
      status: '',
      comment: 'not determinable: the metadata account is malformed',
    })
  })

  it('an undetermined check is left out of the code score', () => {
    const f = { ...facts.get('clean-spl')!, metaplex: unknown('unreadable') }
    const render = (x: SolanaFacts) => renderSolanaReport(x, scoreSolana(x, runChecks(SOLANA_CHECKS, x)))
    const full = render(facts.get('clean-spl')!).codeChecks
    const partial = render(f).codeChecks
    expect(Number(partial.maxCodeCheckScore)).toBe(Number(full.maxCodeCheckScore) - 3) // metadataMutable is "Medium Risk": weight 3
    expect(Number(partial.minCodeCheckScore)).toBe(-PRESENT_RISK_PENALTY * Number(partial.maxCodeCheckScore))
    expect(partial.checksPerformed).toBe(full.checksPerformed - 1)
    // Its item says so: a heading that names neither state, no label, the neutral risk number.
    expect(partial.codeCheckDescription.ownershipPermissionsDescription[2]).toMatchObject({ check: 'metadataMutable', heading: 'Token Metadata Mutability is Unknown', risk: 3, riskStatus: '', status: '' })
  })

  it('transferHookUpgradeable is undetermined when the hook program could not be read', () => {
    const f = { ...facts.get('t22-hook-upgradeable')!, hookProgram: unknown('transfer-hook program: timeout') }
    expect(run('transferHookUpgradeable', f).status).toBe('undetermined')
    expect(run('externalCall', f).status).toBe('present')
  })

  it('a hook pointing at an address with no program counts as upgradeable (anyone with the key can deploy)', () => {
    const f = facts.get('t22-hook-immutable')!
    const hook = f.hookProgram!
    if (!hook.ok) throw new Error('hook program not read')
    const missing = { ...f, hookProgram: { ok: true as const, value: { ...hook.value, exists: false, executable: false } } }
    expect(run('transferHookUpgradeable', missing)).toMatchObject({ status: 'present' })
  })

  it('a check that throws on facts it did not expect is undetermined, not a failed report', () => {
    const broken = { ...facts.get('clean-spl')!, mint: { ...facts.get('clean-spl')!.mint, extensions: null as never } }
    expect(run('ownerChangeBalance', broken)).toMatchObject({ status: 'undetermined', evidence: expect.stringContaining('check failed') })
  })
})

describe('the transfer fee in force', () => {
  const taxed = () => facts.get('t22-transfer-fee')!
  it('is the older fee before the newer one’s epoch, with the newer one scheduled', () => {
    const s = transferFeeSchedule(taxed())!
    expect([s.current.basisPoints, s.scheduled?.basisPoints, s.epochUnknown]).toEqual([250, 1000, false])
  })
  it('is the newer fee from its epoch on', () => {
    const f = { ...taxed(), epoch: { ok: true as const, value: BigInt(world.manifest.epoch) + 2n } }
    const s = transferFeeSchedule(f)!
    expect([s.current.basisPoints, s.scheduled]).toEqual([1000, null])
  })
  it('is the larger of both when the epoch is unknown', () => {
    const f = { ...taxed(), epoch: unknown<bigint>('epoch: refused') }
    const s = transferFeeSchedule(f)!
    expect([s.current.basisPoints, s.epochUnknown]).toEqual([1000, true])
    expect(run('hasTransferFee', f).evidence).toContain('current epoch unknown')
  })
  it('does not exist without the extension', () => {
    expect(transferFeeSchedule(facts.get('t22-clean')!)).toBeNull()
    expect(run('hasTransferFee', facts.get('t22-clean')!).status).toBe('absent')
  })
})
