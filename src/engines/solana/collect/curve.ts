import { associatedTokenAddress, decodePumpCurve, decodePumpInitialRealTokens, pumpCurveAddress, pumpGlobalAddress, PUMP_CURVE_NAME, PUMP_PROGRAM } from '../venues/pump-curve.ts'
import { known, unknown, type CurveFacts, type Known } from './facts.ts'
import type { CollectContext } from './context.ts'
import { PUMPSWAP } from '../venues/pumpswap.ts'

/**
 * The pump.fun bonding curve of `mint`, derived from the mint (no search): its reserves, how
 * much of it is sold, whether it is complete (graduated) and who launched it. Read with the mint
 * itself (the same getMultipleAccounts). null when the mint has no curve.
 */
export async function readPumpCurve(ctx: CollectContext, mint: string): Promise<Known<CurveFacts | null>> {
  const [curveAddress, globalAddress] = await Promise.all([pumpCurveAddress(mint), pumpGlobalAddress()])
  const [curve, global, mintAccount] = await ctx.loader.loadMany([curveAddress, globalAddress, mint])
  if (!curve) return known(null)
  if (curve.owner !== PUMP_PROGRAM) return unknown(`the curve address ${curveAddress} is not owned by the pump.fun program`)
  if (!mintAccount) return unknown('the mint does not exist')
  const decoded = decodePumpCurve(curve.data)
  const initial = global && global.owner === PUMP_PROGRAM ? decodePumpInitialRealTokens(global.data) : undefined
  const progressPercent = decoded.complete ? 100 : initial && initial > 0n ? Number(((initial - decoded.realTokenReserve) * 10_000n) / initial) / 100 : undefined
  return known({
    venue: PUMP_CURVE_NAME,
    address: curveAddress,
    tokenVault: await associatedTokenAddress(curveAddress, mint, mintAccount.owner),
    complete: decoded.complete,
    creator: decoded.creator,
    quoteMint: decoded.quoteMint,
    virtualTokenReserve: decoded.virtualTokenReserve,
    virtualQuoteReserve: decoded.virtualQuoteReserve,
    realTokenReserve: decoded.realTokenReserve,
    realQuoteReserve: decoded.realQuoteReserve,
    progressPercent: progressPercent === undefined ? undefined : Math.max(0, Math.min(100, progressPercent)),
    // A pump.fun curve that completes moves its liquidity to PumpSwap.
    graduatesTo: [PUMPSWAP.name],
  })
}
