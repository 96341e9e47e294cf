/*
 * The probe's readers on a node that refuses state overrides: the readers' code cannot be placed
 * at an address, so it is deployed inside the call. An `eth_call` without `to` runs creation code,
 * which every node accepts; that code (`runnerCode`) creates the readers with CREATE, calls them
 * with the read's calldata and returns their answer: the same code answers the same reads, in one
 * call, on any node. Simulations that need the probe's code at chosen addresses (trades, owner
 * powers) cannot run this way: they fail with `OverridesRefusedError`, which the collectors turn
 * into "" with its reason, never into a failed report.
 */
import type { Hex } from 'viem'
import { SimulationError } from '../../../errors.ts'
import { NO_OVERRIDE_REASON } from './capabilities.ts'

/** The node refuses state overrides: the simulation cannot run on it, for good (never retried). */
export class OverridesRefusedError extends SimulationError {
  override name = 'OverridesRefusedError'
  constructor(what: string) {
    super(`the ${what} simulation did not run: ${NO_OVERRIDE_REASON}`)
  }
}

const hex3 = (n: number): string => {
  if (n >= 1 << 24) throw new Error('code too large for a creation call')
  return n.toString(16).padStart(6, '0')
}

/** Creation code that deploys `runtime` as it is (copy it to memory, return it). */
export function deployCode(runtime: Hex): Hex {
  const code = runtime.slice(2)
  const length = code.length / 2
  // PUSH3 len DUP1 PUSH1 13 PUSH1 0 CODECOPY PUSH1 0 RETURN: 13 bytes, then the runtime.
  return `0x62${hex3(length)}80600d6000396000f3${code}` as Hex
}

/** Bytes of the runner's own code, before the readers' creation code and the calldata. */
const RUNNER_SIZE = 52

/**
 * Creation code that runs `calldata` against `runtime` without any override: CREATE the runtime,
 * STATICCALL it with the calldata, return what it returned. No PUSH0: it runs on any EVM.
 *
 * @example
 * await rpc.request('eth_call', [{ data: runnerCode(readerBytecode, encodeReads(calls)) }, 'latest'])
 */
export function runnerCode(runtime: Hex, calldata: Hex): Hex {
  const init = deployCode(runtime).slice(2)
  const data = calldata.slice(2)
  const L = init.length / 2
  const D = data.length / 2
  const code = [
    `62${hex3(L)}`, '80', `62${hex3(RUNNER_SIZE)}`, '6000', '39', // CODECOPY(0, R, L)
    '6000', '6000', 'f0', // CREATE(0, 0, L) → reader
    `62${hex3(D)}`, `62${hex3(RUNNER_SIZE + L)}`, '6000', '39', // CODECOPY(0, R + L, D)
    '6000', '6000', `62${hex3(D)}`, '6000', '84', '5a', 'fa', '50', // STATICCALL(gas, reader, 0, D, 0, 0)
    '3d', '6000', '6000', '3e', // RETURNDATACOPY(0, 0, size)
    '3d', '6000', 'f3', // RETURN(0, size)
  ].join('')
  if (code.length / 2 !== RUNNER_SIZE) throw new Error('runner size mismatch')
  return `0x${code}${init}${data}` as Hex
}
