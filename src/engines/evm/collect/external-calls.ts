import { getAddress, type Address, type Hex } from 'viem'
import type { CodeAnalysis } from '../chain/bytecode.ts'
import { RpcError } from '../chain/rpc.ts'
import { NO_ROUTE, PROBE_ADDRESSES, encodePowers, probeOverride } from '../chain/probe.ts'
import type { ExternalCallFact, PoolFact } from '../facts.ts'
import { sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { probePool, quoteRoute } from './trades.ts'

interface TraceFrame {
  type: string
  from: string
  to?: string
  input?: string
  calls?: TraceFrame[]
}

/** Addresses below this are precompiles (ecrecover, sha256, ...), not contracts. */
const PRECOMPILE_LIMIT = 0x100n

/**
 * Whether a transfer makes the token call another contract. Where the node offers
 * `debug_traceCall` (callTracer), the probe's buys, transfers and sells are traced and every CALL
 * the token itself makes is listed; otherwise the bytecode says whether a CALL is reachable.
 */
export async function collectExternalCalls(
  ctx: CollectContext,
  d: Discovery,
  pool: PoolFact | undefined,
  donors: Address[],
  logicPromise: Promise<CodeAnalysis | undefined>,
  block: Hex,
): Promise<ExternalCallFact> {
  const route = pool ? quoteRoute(ctx, d, pool.quote) : undefined
  const data = encodePowers({
    token: ctx.token,
    weth: ctx.chain.wrappedNative,
    pool: pool && route ? probePool(ctx, pool) : undefined,
    route: route ?? NO_ROUTE,
    candidates: [],
    donors,
    variants: [],
  })
  const override = probeOverride([PROBE_ADDRESSES.a, PROBE_ADDRESSES.b, ...donors])
  try {
    const trace = await ctx.rpc.request<TraceFrame>('debug_traceCall', [
      { to: PROBE_ADDRESSES.main, data, gas: `0x${ctx.gasCap.toString(16)}` },
      block,
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: false, withLog: false }, stateOverrides: override },
    ])
    const calls: ExternalCallFact['calls'] = []
    const walk = (f: TraceFrame) => {
      const type = (f.type ?? '').toUpperCase()
      if (
        (type === 'CALL' || type === 'CALLCODE') &&
        sameAddress(f.from, ctx.token) &&
        f.to &&
        !sameAddress(f.to, ctx.token) &&
        BigInt(f.to) >= PRECOMPILE_LIMIT
      ) {
        const selector = f.input && f.input.length >= 10 ? f.input.slice(0, 10) : 'ether transfer'
        if (!calls.some((c) => sameAddress(c.to, f.to) && c.selector === selector)) calls.push({ to: getAddress(f.to), selector, type })
      }
      for (const c of f.calls ?? []) walk(c)
    }
    walk(trace)
    return { method: 'trace', calls, note: pool ? 'traced a buy, transfers and sells' : 'traced transfers between holders' }
  } catch (error) {
    if (!(error instanceof RpcError)) throw error
    const logic = await logicPromise
    if (!logic) return { method: 'none', calls: [], note: `no trace (${error.message.slice(0, 80)}) and no code to read` }
    return {
      method: 'bytecode',
      calls: [],
      note: logic.reachable.call
        ? 'the node cannot trace calls; the code has a reachable CALL, so an external call is possible'
        : 'the node cannot trace calls; the code has no reachable CALL',
    }
  }
}
