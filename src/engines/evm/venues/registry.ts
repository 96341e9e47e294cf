import type { DexType } from '../../../config/chains.ts'
import { pancakeV3 } from './pancake-v3.ts'
import { uniswapV2 } from './uniswap-v2.ts'
import { uniswapV3 } from './uniswap-v3.ts'
import { uniswapV4 } from './uniswap-v4.ts'
import { solidly } from './solidly.ts'
import { slipstream } from './slipstream.ts'
import { launchpad } from './launchpad.ts'
import { fourMeme } from './four-meme.ts'
import type { Venue } from './venue.ts'

/** Every venue tokenrisk trades, by the chain entry's DEX type. */
export const VENUES: Record<DexType, Venue> = {
  'uniswap-v2': uniswapV2,
  'uniswap-v3': uniswapV3,
  'pancake-v3': pancakeV3,
  'uniswap-v4': uniswapV4,
  solidly,
  slipstream,
  launchpad,
  'four-meme': fourMeme,
}

/** The venue of a DEX type. */
export function venueOf(type: DexType): Venue {
  return VENUES[type]
}
