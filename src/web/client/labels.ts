import type { EvmCheckName, SolanaCheckName } from '../../contract/checks.ts'

/**
 * The short title of each check on the page: the power or behaviour it is about, whatever its
 * status. The sentence of its finding is the report's own (`description`), its evidence the
 * check's `comment`. Typed against the contract's names: a check added there and not here fails
 * to compile.
 */
export const EVM_CHECK_TITLES: Record<EvmCheckName, string> = {
  ownerChangeBalance: "Take or change holders' balances",
  isMintable: 'Mint new tokens',
  selfDestruct: 'Self-destruct the contract',
  transferPausable: 'Stop all transfers',
  slippageModifiable: 'Change the taxes',
  personalSlippageModifiable: 'Single out an address',
  isBlacklisted: 'Block chosen addresses',
  isWhitelisted: 'Favour chosen addresses',
  hiddenOwner: 'Powers held by another account',
  antiwhaleModifiable: 'Change transaction or wallet limits',
  externalCall: 'Calls other contracts on transfers',
  isProxy: 'Logic in another contract (proxy)',
  tradingCooldown: 'Waiting time between trades',
  cannotBuy: 'Buying fails',
  cannotSellAll: 'Selling everything fails',
  isAntiWhale: 'Transaction or wallet limit',
}

export const SOLANA_CHECK_TITLES: Record<SolanaCheckName, string> = {
  isMintable: 'Mint new tokens',
  isFreezable: "Freeze holders' accounts",
  ownerChangeBalance: "Move or burn anyone's tokens (permanent delegate)",
  transferPausable: 'Pause all transfers',
  transferFeeModifiable: 'Change the transfer fee',
  transferHookModifiable: 'Install or change a transfer hook',
  defaultAccountFrozen: 'New accounts start frozen',
  mintClosable: 'Close the mint',
  metadataMutable: 'Change the name, symbol or image',
  balanceDisplayModifiable: 'Change how balances are displayed',
  externalCall: 'A program runs on every transfer',
  transferHookUpgradeable: 'The transfer-hook program can change',
  nonTransferable: 'Cannot be transferred',
  hasTransferFee: 'Fee on every transfer',
  isPaused: 'Transfers are paused',
  confidentialTransfers: 'Confidential transfers',
  frozenHolders: 'Frozen holder accounts',
  bundledLaunch: 'Bundled or insider launch',
  snipedLaunch: 'Sniped launch',
  creatorRugHistory: 'Creator pulled liquidity before',
  lookAlike: 'Look-alike of a well-known token',
}

/** The Solana authorities, in the order the page lists them, with what each can do. */
export const SOLANA_AUTHORITY_ROLES = {
  mint: 'Mint authority: can create tokens',
  freeze: 'Freeze authority: can freeze any account',
  update: 'Metadata update authority',
  permanentDelegate: 'Permanent delegate: can move or burn any balance',
  close: 'Mint close authority',
  transferFeeConfig: 'Transfer-fee authority: can change the fee',
  withdrawWithheld: 'Withheld-fee authority: collects withheld fees',
  transferHook: 'Transfer-hook authority: can change the hook',
  pause: 'Pause authority',
  metadataPointer: 'Metadata-pointer authority',
  confidentialTransfer: 'Confidential-transfer authority',
  interestRate: 'Interest-rate authority',
  scaledUiAmount: 'UI-multiplier authority',
} as const
