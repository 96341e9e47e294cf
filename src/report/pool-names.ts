/**
 * How an EVM pool is named across the report's surfaces. A Uniswap V4 pool has no address of its
 * own: every one of them stands at its PoolManager's address, told apart by its id (`poolId`).
 */

/** The key that finds a pool of `honeypotDetails` among `availableDex`: its address, and a V4 pool's id ("" or absent for other pools). */
export function poolKey(pair: string, poolId: string | undefined): string {
  return `${pair.toLowerCase()}:${poolId?.toLowerCase() ?? ''}`
}

/** A V4 pool's id shortened for reading ("0x3e65dd59…8dca"): the full id is in the report. */
export function shortPoolId(poolId: string): string {
  return `${poolId.slice(0, 10)}…${poolId.slice(-4)}`
}
