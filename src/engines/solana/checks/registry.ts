import { SOLANA_CHECK_CATALOGUE, type SolanaCheckName } from '../../../contract/checks.ts'
import { checkRegistry } from '../../../report/define-check.ts'
import type { SolanaFacts } from '../collect/facts.ts'
import { isMintable } from './is-mintable.ts'
import { isFreezable } from './is-freezable.ts'
import { ownerChangeBalance } from './owner-change-balance.ts'
import { transferPausable } from './transfer-pausable.ts'
import { transferFeeModifiable } from './transfer-fee-modifiable.ts'
import { transferHookModifiable } from './transfer-hook-modifiable.ts'
import { defaultAccountFrozen } from './default-account-frozen.ts'
import { mintClosable } from './mint-closable.ts'
import { metadataMutable } from './metadata-mutable.ts'
import { balanceDisplayModifiable } from './balance-display-modifiable.ts'
import { externalCall } from './external-call.ts'
import { transferHookUpgradeable } from './transfer-hook-upgradeable.ts'
import { nonTransferable } from './non-transferable.ts'
import { hasTransferFee } from './has-transfer-fee.ts'
import { isPaused } from './is-paused.ts'
import { confidentialTransfers } from './confidential-transfers.ts'
import { frozenHolders } from './frozen-holders.ts'
import { lookAlike } from './look-alike.ts'
import { bundledLaunch } from './bundled-launch.ts'
import { snipedLaunch } from './sniped-launch.ts'
import { creatorRugHistory } from './creator-rug-history.ts'

/** Every Solana code check, in the contract's report order. docs/checks.md is generated from this list. */
export const SOLANA_CHECKS = checkRegistry<SolanaFacts, SolanaCheckName>(SOLANA_CHECK_CATALOGUE, {
  isMintable,
  isFreezable,
  ownerChangeBalance,
  transferPausable,
  transferFeeModifiable,
  transferHookModifiable,
  defaultAccountFrozen,
  mintClosable,
  metadataMutable,
  balanceDisplayModifiable,
  externalCall,
  transferHookUpgradeable,
  nonTransferable,
  hasTransferFee,
  isPaused,
  confidentialTransfers,
  frozenHolders,
  bundledLaunch,
  snipedLaunch,
  creatorRugHistory,
  lookAlike,
})
