import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildIr } from '../src/audit/ir/build-ir.ts'
import { createAnalyses } from '../src/audit/analyses/analyses.ts'
import type { ContractIr } from '../src/audit/ir/types.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import { NODE_MODULES } from './helpers/paths.ts'

/**
 * A function is access-restricted only when a guard decides on who the caller is (directly, in a
 * modifier, in an internal helper or a hook the deployed contract overrides); a guard on the
 * amount, a pause flag or the success of a transfer only makes it revert, and anyone can call it.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'audit', 'access')

async function restricted(contractName: string, context: string): Promise<Record<string, boolean>> {
  const { ir, scope } = buildIr(await loadProject(FIXTURE, { includePaths: [NODE_MODULES] }))
  const analyses = createAnalyses(ir, scope)
  const find = (name: string): ContractIr => {
    const found = ir.contracts.find((c) => c.name === name)
    if (!found) throw new Error(`fixture contract ${name} missing`)
    return found
  }
  const deployed = find(context)
  return Object.fromEntries(find(contractName).functions.filter((f) => analyses.dispatch.isEntryPoint(f)).map((f) => [f.name, analyses.access.isProtected(f, deployed)]))
}

describe('access restriction', () => {
  it('is a guard on the caller, not any guard that can revert', async () => {
    const classes = await restricted('GuardedVault', 'Vault')
    expect(classes).toEqual({
      deposit: false,
      poke: false,
      pull: false,
      settle: false,
      maxDeposit: false,
      setCap: true,
      pause: true,
      setKeeper: true,
      sweep: true,
      bridgeMint: true,
      memberBonus: true,
    })
  })

  it('follows the hooks the deployed contract runs', async () => {
    // In its own (abstract) contract the empty `_checkOwner()` checks nothing; the unimplemented
    // `_checkBridge(msg.sender)` is still where an implementation checks the caller.
    const classes = await restricted('GuardedVault', 'GuardedVault')
    expect(classes.sweep).toBe(false)
    expect(classes.bridgeMint).toBe(true)
    expect(classes.settle).toBe(false)
  })

  it('is an allow-list, not a deny-list that lets every other caller in', async () => {
    const classes = await restricted('ListGuards', 'ListGuards')
    expect(classes).toEqual({
      // `!blacklisted[msg.sender]`, `msg.sender != pair`, `if (msg.sender == x) revert`, and the like
      denyMapping: false,
      denyPair: false,
      denySelf: false,
      denyBot: false,
      denyModifier: false,
      denyFlagFalse: false,
      ownerOrUnlisted: false,
      denyThroughLocal: false,
      denyThroughHelper: false,
      denyBanned: false,
      denyOwner: false,
      // `msg.sender == owner`, `isAdmin[msg.sender]`, `if (msg.sender != owner) revert`, and the like
      allowOwner: true,
      allowAdmin: true,
      allowOwnerOrOperator: true,
      allowIfNotOwnerRevert: true,
      allowDoubleNegation: true,
      allowFlagTrue: true,
      ownerAndUnlisted: true,
      allowMember: true,
      allowThroughLocal: true,
      allowThroughHelper: true,
      allowModifier: true,
      allowOwnerCheck: true,
    })
  })
})
