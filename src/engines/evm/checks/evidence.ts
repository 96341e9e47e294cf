import type { CheckResult } from '../../../report/define-check.ts'
import type { EvmFacts, PowerKind, TradeFact } from '../facts.ts'

/** Powers a contract the token's trades run beside it (a pool's hook) can hold too: over trading, not over balances or the supply. */
const TRADING_KINDS = new Set<PowerKind>(['pause', 'feeAll', 'feePersonal', 'blacklist', 'whitelist', 'limit'])

/**
 * Shared reasoning of the EVM checks: a finding of the owner-power simulation, or why there is
 * none. Pure functions of the facts.
 */
export function fromPowers(facts: EvmFacts, kind: PowerKind, what: string, needsHolders: boolean): CheckResult {
  const p = facts.powers
  const found = p.findings.filter((f) => f.kind === kind)
  if (found.length > 0) {
    // The gravest finding first: its severity is the result's.
    const ordered = [...found.filter((f) => f.tier), ...found.filter((f) => !f.tier)]
    return { status: 'present', method: 'simulated', evidence: ordered.map((f) => f.evidence).slice(0, 3).join('; '), ...(ordered[0].tier ? { tier: ordered[0].tier } : {}) }
  }
  if (p.status !== 'tested') return { status: 'undetermined', method: 'not determinable', evidence: p.reason || 'owner powers were not simulated' }
  // A contract every trade runs (a pool's hook) whose functions were not tried may hold a power over trading.
  if (p.unmeasuredContracts && TRADING_KINDS.has(kind)) return { status: 'undetermined', method: 'not determinable', evidence: p.unmeasuredContracts }
  if (p.candidates.length === 0 || p.functionsTried.length === 0 && p.functionsFailed.length === 0) {
    return { status: 'absent', method: 'simulated', evidence: p.reason }
  }
  if (needsHolders && !p.funded) {
    return { status: 'undetermined', method: 'not determinable', evidence: 'no holder could be given tokens to measure the effect' }
  }
  if (p.functionsFailed.length > 0) {
    return {
      status: 'undetermined',
      method: 'not determinable',
      evidence: `the simulation of ${p.functionsFailed.length} function(s) failed (${p.functionsFailed.slice(0, 3).join(', ')})`,
    }
  }
  const who = p.candidates.map((c) => `${c.address} (${c.source})`).join(', ')
  // A "0" needs every account that could hold the effect measured: where a call went through and
  // the accounts only its Transfer events name were not, a mint or a taking may have landed there.
  if (p.eventsUnread && (kind === 'mint' || kind === 'changeBalance')) {
    return {
      status: 'undetermined',
      method: 'not determinable',
      evidence: `${p.functionsTried.length} candidate function(s) called as ${who}: none ${what} among the accounts measured; ${p.eventsUnread}`,
    }
  }
  // A role holder the token lists but that could not be read may hold the power: not a "0".
  if (p.rolesUnread) {
    return { status: 'undetermined', method: 'not determinable', evidence: `${p.functionsTried.length} candidate function(s) called as ${who}: none ${what}; ${p.rolesUnread}` }
  }
  return {
    status: 'absent',
    method: 'simulated',
    evidence: `${p.functionsTried.length} candidate function(s) called as ${who}: none ${what}`,
  }
}

/** Why no pool could answer a trade check: `what`, and the simulation's own reason when it did not run. */
export function noTradeEvidence(facts: EvmFacts, what: string): string {
  const errors = [...new Set(facts.trades.filter((t) => !t.simulated && t.error).map((t) => t.error))]
  return withSearchNote(facts, errors.length > 0 ? `${what}: ${errors.slice(0, 2).join('; ')}` : what)
}

/** `text`, and what the search for the token's pools could not cover, when it could not cover everything. */
export function withSearchNote(facts: EvmFacts, text: string): string {
  const note = facts.markets?.searchNote
  // A pool row's own reason may carry the note already: said once.
  return note && !text.includes(note) ? `${text} (the pool search: ${note})` : text
}

/** Pools the probe could trade on. */
export function simulatedTrades(facts: EvmFacts): TradeFact[] {
  return facts.trades.filter((t) => t.simulated)
}

export function poolName(t: TradeFact): string {
  return `${t.pool.dex} ${t.pool.quoteSymbol || 'pool'} ${t.pool.address}`
}
