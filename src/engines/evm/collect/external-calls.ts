import { getAddress } from 'viem/utils'
import type { Address, Hex } from 'viem'
import type { CodeAnalysis } from '../chain/bytecode.ts'
import { SimulationError } from '../../../errors.ts'
import { RpcError } from '../chain/rpc.ts'
import { NO_ROUTE, PROBE_ADDRESSES, encodePowers, poolState, probeOverride } from '../chain/probe.ts'
import type { ExternalCallFact, PoolFact } from '../facts.ts'
import { sameAddress, type CollectContext } from './context.ts'
import type { Discovery } from './discovery.ts'
import { probePool, quoteRoute } from './trades.ts'

interface TraceFrame {
  type: string
  from: string
  to?: string
  input?: string
  output?: string
  error?: string
  calls?: TraceFrame[]
}

/** The trace of the probe is not one (the node ignored the overrides, or failed the call). */
class UnusableTrace extends Error {}

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
  const traded = pool && route ? probePool(ctx, pool) : undefined
  const data = encodePowers({
    token: ctx.token,
    weth: ctx.chain.wrappedNative,
    pool: traded,
    route: route ?? NO_ROUTE,
    candidates: [],
    donors,
    watch: [],
    variants: [],
    grants: [],
  })
  const override = { ...poolState(traded), ...probeOverride([PROBE_ADDRESSES.a, PROBE_ADDRESSES.b, ...donors], ctx.rpc.capabilities?.evm.version) }
  try {
    // A node known not to trace is not asked (its refusal is permanent): the code is read instead.
    if (ctx.rpc.capabilities?.callTracer === 'no') throw new UnusableTrace('the node cannot trace calls (debug_traceCall)')
    const trace = await ctx.rpc.request<TraceFrame>('debug_traceCall', [
      { to: PROBE_ADDRESSES.main, data, gas: `0x${ctx.gasCap.toString(16)}` },
      block,
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: false, withLog: false }, stateOverrides: override },
    ])
    // The probe never fails at its top and always calls the token: a trace without either is the
    // node's failure, or a node that ignored the overrides (then the code is read instead).
    if (trace.error) throw new SimulationError(`the node failed the traced simulation: ${String(trace.error).slice(0, 120)}`)
    if (!trace.calls?.length && (!trace.output || trace.output === '0x')) throw new UnusableTrace('the node ignored the state overrides of the traced call')
    const calls: ExternalCallFact['calls'] = []
    const walk = (f: TraceFrame) => {
      const type = (f.type ?? '').toUpperCase()
      if (
        (type === 'CALL' || type === 'CALLCODE' || type === 'STATICCALL') &&
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
    // Only a node without tracing (or without overrides in its tracer) falls back to the code;
    // a node that fails the trace fails the report.
    const unsupported = error instanceof UnusableTrace || (error instanceof RpcError && error.kind === 'unsupported')
    if (!unsupported) {
      if (error instanceof RpcError) throw new SimulationError(`the node failed the traced simulation: ${error.message.slice(0, 160)}`, { cause: error })
      throw error
    }
    const logic = await logicPromise
    if (!logic) return { method: 'none', calls: [], note: `no trace (${error.message.slice(0, 80)}) and no code to read` }
    const r = logic.reachable
    return {
      method: 'bytecode',
      calls: [],
      note:
        r.call || r.callCode
          ? 'the node cannot trace calls; the code has a reachable CALL, so an external call is possible'
          : r.staticCall
            ? 'the node cannot trace calls; the code has a reachable STATICCALL: it may ask another contract for an answer, or only a precompile (ecrecover), which the code alone does not tell'
            : 'the node cannot trace calls; the code has no reachable CALL nor STATICCALL',
    }
  }
}
