import { checkRegistry } from '../../../report/define-check.ts'
import { EVM_CHECK_CATALOGUE, type EvmCheckName } from '../../../contract/checks.ts'
import type { EvmFacts } from '../facts.ts'
import { cannotBuy } from './cannot-buy.ts'
import { cannotSellAll } from './cannot-sell-all.ts'
import { externalCall } from './external-call.ts'
import { isAntiWhale } from './is-anti-whale.ts'
import { isMintable } from './is-mintable.ts'
import { isProxy } from './is-proxy.ts'
import { ownerChangeBalance } from './owner-change-balance.ts'
import { personalSlippageModifiable } from './personal-slippage-modifiable.ts'
import { selfDestruct } from './self-destruct.ts'
import { slippageModifiable } from './slippage-modifiable.ts'
import { tradingCooldown } from './trading-cooldown.ts'
import { transferPausable } from './transfer-pausable.ts'
import { antiwhaleModifiable } from './antiwhale-modifiable.ts'
import { hiddenOwner } from './hidden-owner.ts'
import { isBlacklisted } from './is-blacklisted.ts'
import { isWhitelisted } from './is-whitelisted.ts'

/** Every EVM code check, in the contract's report order. docs/checks.md is generated from it. */
export const EVM_CHECKS = checkRegistry<EvmFacts, EvmCheckName>(EVM_CHECK_CATALOGUE, {
  ownerChangeBalance,
  isMintable,
  selfDestruct,
  transferPausable,
  slippageModifiable,
  personalSlippageModifiable,
  isBlacklisted,
  isWhitelisted,
  hiddenOwner,
  antiwhaleModifiable,
  externalCall,
  isProxy,
  tradingCooldown,
  cannotBuy,
  cannotSellAll,
  isAntiWhale,
})
