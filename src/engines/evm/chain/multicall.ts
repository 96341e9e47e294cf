import { decodeFunctionResult, encodeFunctionData } from 'viem/utils'
import type { Address, Hex } from 'viem'
import { multicall3Abi } from './abis.ts'
import { RpcError, type RpcSession } from './rpc.ts'

/** Calls packed into one Multicall3 `aggregate3` at most (larger lists are split, same round trip). */
export const MULTICALL_MAX_CALLS = 250

export interface ReadCall {
  target: Address
  data: Hex
}

export interface ReadResult {
  success: boolean
  returnData: Hex
}

export type BlockRef = Hex | 'latest'

/** `eth_call` of `data` on `to` at `block`, with an optional gas cap; reverts throw `RpcError`. */
export function ethCall(rpc: RpcSession, call: { to: Address; data: Hex; from?: Address; gas?: bigint }, block: BlockRef, stateOverride?: Record<string, unknown>): Promise<Hex> {
  const tx: Record<string, string> = { to: call.to, data: call.data }
  if (call.from) tx.from = call.from
  if (call.gas !== undefined) tx.gas = `0x${call.gas.toString(16)}`
  const params: unknown[] = [tx, block]
  if (stateOverride) params.push(stateOverride)
  return rpc.request<Hex>('eth_call', params)
}

/**
 * Reads many view calls in one round trip through Multicall3 `aggregate3` (each call may fail on
 * its own). When the chain has no Multicall3, the calls go out as separate `eth_call`s in the same
 * JSON-RPC batch instead.
 *
 * @example
 * const [name, supply] = await multicall(rpc, chain.multicall3, [
 *   { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'name' }) },
 *   { target: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' }) },
 * ], 'latest', 50_000_000n)
 */
export async function multicall(
  rpc: RpcSession,
  multicall3: Address | undefined,
  calls: ReadCall[],
  block: BlockRef,
  gasCap: bigint,
): Promise<ReadResult[]> {
  if (calls.length === 0) return []
  if (!multicall3) return Promise.all(calls.map((c) => single(rpc, c, block, gasCap)))
  const chunks: ReadCall[][] = []
  for (let i = 0; i < calls.length; i += MULTICALL_MAX_CALLS) chunks.push(calls.slice(i, i + MULTICALL_MAX_CALLS))
  const results = await Promise.all(
    chunks.map(async (chunk) => {
      const data = encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [chunk.map((c) => ({ target: c.target, allowFailure: true, callData: c.data }))],
      })
      try {
        const raw = await ethCall(rpc, { to: multicall3, data, gas: gasCap }, block)
        if (raw === '0x') throw new Error('no Multicall3 at this address')
        const decoded = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: raw })
        return decoded.map((r) => ({ success: r.success, returnData: r.returnData }))
      } catch (error) {
        // No Multicall3, or it failed as a whole (out of gas, ...): fall back to single calls.
        if (!(error instanceof RpcError) && !(error instanceof Error && /Multicall3|decode|Data size/i.test(error.message))) throw error
        return Promise.all(chunk.map((c) => single(rpc, c, block, gasCap)))
      }
    }),
  )
  return results.flat()
}

async function single(rpc: RpcSession, call: ReadCall, block: BlockRef, gasCap: bigint): Promise<ReadResult> {
  try {
    return { success: true, returnData: await ethCall(rpc, { to: call.target, data: call.data, gas: gasCap }, block) }
  } catch (error) {
    if (error instanceof RpcError) return { success: false, returnData: '0x' }
    throw error
  }
}
