import { describe, expect, it } from 'vitest'
import { defineCheck, type CheckDefinition } from './define-check.ts'
import { REPORT_STAGES, runChecks, runReport, type CheckOutcome, type ReportStages, type ScoredReport } from './pipeline.ts'

interface Facts {
  supply: number
}

const capped: CheckDefinition<Facts> = {
  ...defineCheck<Facts>({
    id: 'isCapped',
    tier: 'Critical',
    describe: { present: 'The supply is capped.', absent: 'The supply is not capped.', undetermined: 'Whether the supply is capped could not be determined.' },
    method: 'supply read from state',
    run: (f) => (f.supply < 0 ? { status: 'undetermined', method: 'not determinable', evidence: 'no supply' } : { status: f.supply <= 100 ? 'present' : 'absent', method: 'state', evidence: `supply ${f.supply}` }),
  }),
  group: 'otherChecks',
  meaning: 'the supply is capped',
}

const score = (_: Facts, checks: CheckOutcome<Facts>[]): ScoredReport<Facts> => ({
  checks,
  values: {},
  code: { achievedScore: checks.filter((c) => c.result.status === 'absent').length, maxScore: checks.length, minScore: 0 },
  market: { achievedScore: 0, maxScore: 0, minScore: 0 },
})

/** A toy engine whose stages write down the order they ran in and what they were given. */
function engine(calls: string[], failAt?: string): ReportStages<number, Facts, ScoredReport<Facts>, string> {
  const step = <T>(name: string, value: () => T): T => {
    calls.push(name)
    if (name === failAt) throw new Error(`${name} failed`)
    return value()
  }
  return {
    collect: async (supply) => step('collect', () => ({ supply })),
    checks: (facts) => step('checks', () => runChecks([capped], facts)),
    score: (facts, checks) => step('score', () => score(facts, checks)),
    render: (facts, scored) => step('render', () => `${facts.supply}: ${scored.checks[0].result.status}, ${scored.code.achievedScore}/${scored.code.maxScore}`),
  }
}

describe('report pipeline', () => {
  it('runs collect, checks, score and render in order, each given what the ones before made, and times each', async () => {
    const calls: string[] = []
    const run = await runReport(engine(calls), 1_000)
    expect(calls).toEqual([...REPORT_STAGES])
    expect(run.facts).toEqual({ supply: 1_000 })
    expect(run.scored.checks.map((c) => [c.definition.id, c.result.status])).toEqual([['isCapped', 'absent']])
    expect(run.body).toBe('1000: absent, 1/1')
    expect(Object.keys(run.timings)).toEqual([...REPORT_STAGES])
    for (const ms of Object.values(run.timings)) expect(ms).toBeGreaterThanOrEqual(0)
  })

  it('stops at a failing stage: its error, and no later stage runs', async () => {
    for (const failAt of ['collect', 'checks', 'score', 'render']) {
      const calls: string[] = []
      await expect(runReport(engine(calls, failAt), 1)).rejects.toThrow(`${failAt} failed`)
      expect(calls).toEqual(REPORT_STAGES.slice(0, REPORT_STAGES.indexOf(failAt as (typeof REPORT_STAGES)[number]) + 1))
    }
  })

  it('runs no stage after its signal aborted, and fails with the signal\'s reason', async () => {
    const calls: string[] = []
    const controller = new AbortController()
    const stages = engine(calls)
    // The report is abandoned while its facts are collected.
    const collect = async (supply: number) => {
      const facts = await stages.collect(supply)
      controller.abort(new Error('abandoned'))
      return facts
    }
    const abandoned = runReport({ ...stages, collect }, 1, { signal: controller.signal })
    await expect(abandoned).rejects.toThrow('abandoned')
    expect(calls).toEqual(['collect'])
    await expect(runReport(engine(calls), 1, { signal: controller.signal })).rejects.toThrow('abandoned')
    expect(calls).toEqual(['collect'])
  })

  it('checks run their own registry, in order, as pure functions of the facts', () => {
    expect(runChecks([capped, capped], { supply: 50 }).map((c) => c.result)).toEqual([
      { status: 'present', method: 'state', evidence: 'supply 50' },
      { status: 'present', method: 'state', evidence: 'supply 50' },
    ])
    expect(runChecks([capped], { supply: -1 })[0].result.status).toBe('undetermined')
  })
})
