// Block-data provenance: where a finding of weak randomness or timestamp dependence is reported
// and how severe it is follow what the value decides (a payout, an ownership change, other state,
// an event), through helpers, callers, state written elsewhere, hashing and casts, in 0.4 and 0.8
// syntax; transaction-order dependence names the account a payout reads and who can change it. The lines themselves are held by the fixtures (audit-detectors.test.ts); this holds
// their severity and what they name.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeWithFindings } from '../src/audit/analyze.ts'
import { DETECTORS } from '../src/audit/detectors/registry.ts'
import { NODE_MODULES } from './helpers/paths.ts'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'audit', 'detectors')

async function findingsOf(id: string): Promise<Map<string, { severity: string; explanation: string }>> {
  const { findings } = await analyzeWithFindings(path.join(FIXTURES, id), { includePaths: [NODE_MODULES], detectors: DETECTORS.filter((d) => d.id === id) })
  return new Map(findings.map((f) => [`${f.file}:${f.lineNumbers[0]}`, { severity: f.severity, explanation: f.explanation }]))
}

describe('timestamp dependence by what it decides', () => {
  it('is medium where it decides a payout or an ownership change, low elsewhere', async () => {
    const found = await findingsOf('timestamp')
    expect(found.get('Stakes.sol:28')).toMatchObject({ severity: 'medium', explanation: expect.stringContaining('It decides a payout: `payable(msg.sender).transfer(amount)`') })
    expect(found.get('Stakes.sol:43')).toMatchObject({ severity: 'medium', explanation: expect.stringContaining('It decides an ownership change: `owner = msg.sender`') })
    expect(found.get('Legacy.sol:23')?.severity).toBe('medium')
    expect(found.get('Legacy.sol:29')).toMatchObject({ severity: 'medium', explanation: expect.stringContaining('Evidence: lines 29 and 34.') })
    // A window guarding a state write, a view's answer: low.
    expect(found.get('Sale.sol:14')?.severity).toBe('low')
    expect(found.get('Sale.sol:10')?.severity).toBe('low')
  })
})

describe('weak randomness followed to the payout', () => {
  it('is high where the number decides a payout, here or in a caller, and names how it got there', async () => {
    const found = await findingsOf('weak-prng')
    // Stored by enter(), read through a library in draw(), the winner paid.
    expect(found.get('Provenance.sol:42')).toMatchObject({ severity: 'high', explanation: expect.stringContaining('that `Raffle.draw()` uses as randomness (line 49): `winner = players[pick]`') })
    expect(found.get('Provenance.sol:56')).toMatchObject({ severity: 'high', explanation: expect.stringContaining('pays an amount drawn from block data') })
    expect(found.get('Provenance.sol:67')).toMatchObject({ severity: 'high', explanation: expect.stringContaining('Its outcome decides a payout (`payable(msg.sender).transfer(2 ether)`)') })
    expect(found.get('Legacy.sol:35')).toMatchObject({ severity: 'high', explanation: expect.stringContaining('that `OldLottery.bonus()` uses as randomness (line 41)') })
    // A view handing a number to whoever calls it: medium.
    expect(found.get('Lottery.sol:10')?.severity).toBe('medium')
  })
})

describe('transaction-order dependence on who is paid', () => {
  it('names the account variable a payout reads, through a local, a getter and a paying helper, and the public function that lets anyone change it', async () => {
    const found = await findingsOf('transaction-order-dependence')
    expect(found.get('Payees.sol:26')?.explanation).toContain('`OpenEscrow.release()` pays the account held in `payee` (`payable(payee).transfer(address(this).balance)`), which `OpenEscrow.setPayee()` lets any caller change')
    // Read by a getter into a local in draw(), paid by the helper pay(): reported where it is paid.
    expect(found.get('Payees.sol:57')?.explanation).toContain('`LastIn.draw()` pays the account held in `winner` (`to.call{value: amount}("")`), which `LastIn.enter()` lets any caller change')
    expect(found.get('Payees.sol:77')?.explanation).toContain('pays the account held in `beneficiary` (`token.transfer(beneficiary, GRANT)`), which `Nominated.nominate()`')
    expect(found.get('OldPayees.sol:34')?.explanation).toContain('`OldInheritance.settleHalf()` pays the account held in `heir`')
    // Look-alikes: set by the owner, at construction, immutable, the caller, the caller pinned by a guard, a commit-reveal.
    for (const line of [109, 114, 119, 126, 138, 152]) expect(found.has(`Payees.sol:${line}`), `Payees.sol:${line}`).toBe(false)
    for (const line of [44, 49, 56, 71]) expect(found.has(`OldPayees.sol:${line}`), `OldPayees.sol:${line}`).toBe(false)
  })
})
