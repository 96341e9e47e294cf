// Every Uniswap V4 pool of a token stands at its PoolManager's address: the page and the MCP
// answer tell two of them apart by their ids (`poolId`), each with its own pair and liquidity.
import { describe, expect, it } from 'vitest'
import { TokenReport } from '../src/contract/token-report.ts'
import { evmConcise } from '../src/mcp/tools/token-answer.ts'
import { evmVerdict } from '../src/report/verdict.ts'
import { evmModel } from '../src/web/client/model.ts'
import { blankOf } from './helpers/blank-report.ts'

const MANAGER = '0x498581fF718922c3f8e6A244956aF099B2652b2b'
const WETH_POOL = `0x${'a1'.repeat(32)}`
const USDC_POOL = `0x${'b2'.repeat(32)}`

/** A token with two V4 pools (WETH, then USDC) whose markets are listed the other way round. */
function twoV4Pools(): TokenReport {
  const report = blankOf(TokenReport) as TokenReport
  const row = blankOf(TokenReport.properties.honeypotDetails.items) as TokenReport['honeypotDetails'][number]
  const dex = blankOf(TokenReport.properties.marketChecks.properties.exchangabilityChecks.properties.availableDex.items) as TokenReport['marketChecks']['exchangabilityChecks']['availableDex'][number]
  report.honeypotDetails = [
    { ...row, dex: 'Uniswap V4', pairAddress: MANAGER, poolId: WETH_POOL, isPairHoneypot: '0' },
    { ...row, dex: 'Uniswap V4', pairAddress: MANAGER, poolId: USDC_POOL, isPairHoneypot: '1', honeypotReason: 'the hook refuses sells' },
  ]
  report.marketChecks.exchangabilityChecks.availableDex = [
    { ...dex, name: 'Uniswap V4', pair: MANAGER, poolId: USDC_POOL, liquidity: '2000', token0Symbol: 'USDC', token1Symbol: 'TKN' },
    { ...dex, name: 'Uniswap V4', pair: MANAGER, poolId: WETH_POOL, liquidity: '9000', token0Symbol: 'WETH', token1Symbol: 'TKN' },
  ]
  return report
}

describe('two Uniswap V4 pools of one token', () => {
  it('are two rows on the page, each with its own pair and liquidity', () => {
    const model = evmModel(twoV4Pools(), undefined, '8453')
    expect(model.pools.map((p) => [p.poolId, p.pair, p.liquidityUsd, p.honeypot])).toEqual([
      [WETH_POOL, 'WETH / TKN', '9000', '0'],
      [USDC_POOL, 'USDC / TKN', '2000', '1'],
    ])
  })

  it('are named apart in the verdict: the pool whose sells fail by its id', () => {
    const verdict = evmVerdict(twoV4Pools())
    expect(verdict.kind).toBe('honeypot')
    expect(verdict.headline).toContain(`cannot sell on Uniswap V4 ${MANAGER} pool ${USDC_POOL.slice(0, 10)}…${USDC_POOL.slice(-4)} — the hook refuses sells`)
  })

  it('are two pools of the MCP answer, each with its own liquidity', () => {
    const report = twoV4Pools()
    const pools = evmConcise(report, evmVerdict(report), 8453, undefined).pools as { poolId?: string; liquidityUsd: string }[]
    expect(pools.map((p) => [p.poolId, p.liquidityUsd])).toEqual([
      [WETH_POOL, '9000'],
      [USDC_POOL, '2000'],
    ])
  })
})
