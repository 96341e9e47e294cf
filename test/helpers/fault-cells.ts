import { expect } from 'vitest'
import type { FaultCell } from '../fixtures/fault-matrix.ts'

/**
 * What every answer under a node fault must be, EVM and Solana alike: a report or an honest 503
 * (with Retry-After and a message), never a safer verdict or a higher score, within the deadline,
 * and the same answer as without the fault once the fault clears.
 */
export function expectHonestUnderFault(cells: FaultCell[], deadlineMs: number): void {
  for (const c of cells) {
    const where = `${c.token} (HTTP ${c.status} ${c.message})`
    expect([200, 503], where).toContain(c.status)
    expect(c.flips, where).toEqual([])
    if (c.scoreChange !== undefined) expect(c.scoreChange, where).toBeLessThanOrEqual(0)
    if (c.status === 503) {
      expect(c.retryAfter, where).toMatch(/^\d+$/)
      expect(c.message, where).not.toBe('')
    }
    expect(c.ms, where).toBeLessThan(deadlineMs * 1.1)
    expect(c.recovered, where).toBe(true)
  }
}
