import type { Kysely } from 'kysely'
import type { Audit } from '../../contract/audit-history.ts'
import { serializeAudit } from '../repositories/audits.ts'
import type { Migration } from './index.ts'

/**
 * The name every detector's findings carried when this migration was written, with its id: an
 * audit recorded before findings kept their detector gets it back from the name (a Slither import
 * of an equivalent check carries the same name). Frozen here; later renames do not apply to it.
 */
const DETECTOR_BY_TITLE: ReadonlyMap<string, string> = new Map([
  ["Reentrancy with ETH transfer", 'reentrancy-eth'],
  ["Reentrancy without ETH transfer", 'reentrancy-no-eth'],
  ["Cross-function reentrancy", 'reentrancy-cross-function'],
  ["State settled after send or transfer", 'reentrancy-stipend'],
  ["State written after an external call", 'reentrancy-benign'],
  ["Event emitted after an external call", 'reentrancy-events'],
  ["Unchecked ERC-20 transfer", 'unchecked-transfer'],
  ["ETH sent to an arbitrary address", 'arbitrary-send-eth'],
  ["Tokens pulled from an arbitrary address", 'arbitrary-send-erc20'],
  ["msg.value used in a loop", 'msg-value-loop'],
  ["delegatecall in a loop of a payable function", 'delegatecall-loop'],
  ["Unchecked low-level call", 'unchecked-lowlevel'],
  ["Unchecked send", 'unchecked-send'],
  ["Unused return value of an external call", 'unused-return'],
  ["Low-level call", 'low-level-calls'],
  ["Unprotected selfdestruct", 'unprotected-selfdestruct'],
  ["Anyone can withdraw ETH", 'unprotected-ether-withdrawal'],
  ["Delegatecall to a caller-chosen address", 'controlled-delegatecall'],
  ["Every call forwarded by delegatecall", 'delegatecall-forwarding'],
  ["Unprotected initializer", 'unprotected-initializer'],
  ["Unprotected upgrade", 'unprotected-upgrade'],
  ["Misspelled constructor", 'constructor-name'],
  ["Anyone can set the owner", 'unprotected-owner-change'],
  ["Authorization through tx.origin", 'tx-origin'],
  ["Missing zero-address check", 'missing-zero-check'],
  ["Modifier that can skip the function silently", 'incorrect-modifier'],
  ["Hash collision with abi.encodePacked", 'encode-packed-collision'],
  ["ecrecover result not checked against zero", 'ecrecover-zero'],
  ["Weak randomness from block values", 'weak-prng'],
  ["blockhash of the current or a future block", 'blockhash-current'],
  ["Timestamp dependence", 'timestamp'],
  ["Integer overflow or underflow", 'integer-overflow'],
  ["Division before multiplication", 'divide-before-multiply'],
  ["Comparison that is always true or always false", 'tautology'],
  ["Uninitialized storage pointer", 'uninitialized-storage'],
  ["State variable never assigned", 'uninitialized-state'],
  ["State variable shadows a base contract variable", 'shadowing-state'],
  ["Storage array length changed directly", 'array-length-assignment'],
  ["Contract locks ETH", 'locked-ether'],
  ["Strict equality on a balance", 'incorrect-equality'],
  ["View or constant function that changes state", 'constant-function-state'],
  ["Local variable read before assignment", 'uninitialized-local'],
  ["Local variable shadows a state variable", 'shadowing-local'],
  ["Loop over an array anyone can grow", 'unbounded-loop'],
  ["Payment pushed to the account being replaced", 'push-payment-to-leader'],
  ["External call inside a loop", 'calls-loop'],
  ["Price or reward a pending transaction cannot pin", 'transaction-order-dependence'],
  ["Front-runnable reward for a secret", 'front-running-reward'],
  ["ERC-20 approve race condition", 'erc20-approve-race'],
  ["Access control change without an event", 'events-access'],
  ["Parameter change without an event", 'events-maths'],
  ["Outdated compiler version", 'pragma-outdated'],
  ["Deprecated Solidity construct", 'deprecated-constructs'],
  ["Floating compiler version", 'pragma-floating'],
  ["Inline assembly", 'assembly'],
  ["Unused internal function", 'dead-code'],
  ["Unused state variable", 'unused-state'],
  ["Comparison with a boolean literal", 'boolean-equality'],
  ["Number literal with many digits", 'too-many-digits'],
  ["Naming convention not followed", 'naming-convention'],
  ["State variable could be constant", 'constable-states'],
  ["State variable could be immutable", 'immutable-states'],
  ["Public function could be external", 'external-function'],
  ["Storage array length read on every iteration", 'cache-array-length'],
  ["Storage variable read on every loop iteration", 'storage-read-in-loop'],
  ["State variable written on every loop iteration", 'costly-loop'],
])

/** Audits rewritten per batch (each body at most `AUDIT_LIMITS.auditBytes`). */
const BATCH = 50

interface Tables {
  audits: { id: number; body_json: string; body_cuts: string | null }
  vulnerabilities: { name: string; detector: string | null }
}

/**
 * Each finding's detector id (stable, kebab-case, docs/detectors.md): a `detector` column on
 * `vulnerabilities`, and the key in each audit's served JSON. Findings recorded before get the id
 * their name stands for; a name no detector had (an imported audit's own) stays without one.
 */
export const findingDetector: Migration = {
  name: '0500_finding_detector',
  async up(raw: Kysely<unknown>) {
    await raw.schema.alterTable('vulnerabilities').addColumn('detector', 'text').execute()
    const db = raw as unknown as Kysely<Tables>
    for (const [title, id] of DETECTOR_BY_TITLE) {
      await db.updateTable('vulnerabilities').set({ detector: id }).where('name', '=', title).where('detector', 'is', null).execute()
    }
    let after = 0
    for (;;) {
      const rows = await db.selectFrom('audits').select(['id', 'body_json', 'body_cuts']).where('id', '>', after).orderBy('id').limit(BATCH).execute()
      if (rows.length === 0) break
      for (const row of rows) {
        after = Number(row.id)
        const audit = JSON.parse(row.body_json) as Omit<Audit, 'projectReportLink'>
        let changed = false
        for (const v of audit.vulnerabilities) {
          const id = v.detector === undefined ? DETECTOR_BY_TITLE.get(v.name) : undefined
          if (id === undefined) continue
          v.detector = id
          changed = true
        }
        if (!changed) continue
        const body = serializeAudit(audit)
        // An audit recorded before its cut points were kept keeps none (the history finds them when it needs them).
        await db
          .updateTable('audits')
          .set({ body_json: body.json, body_cuts: row.body_cuts === null ? null : body.cuts.join(',') })
          .where('id', '=', row.id)
          .execute()
      }
    }
  },
}
