import type { SolanaCheckName } from '../../contract/checks.ts'
import type { Heading } from '../../report/views/description-parts.ts'

/**
 * The heading of every Solana code check in each state, as the published Solana body writes it.
 * Clients match the first four by text (docs/compat.md): "Token Minting Authority is Enabled",
 * "Token Freezing Authority is Enabled", "Token Metadata is Mutable", and the safe states must
 * contain "Minting Authority" + "Disabled" and "Transfer Fee" + "not Modifiable". A check that
 * could not be decided reads "… is Unknown": a client that searches for the safe words does not
 * take it for the safe state (one that compares with the risky heading does; docs/compat.md).
 */
export const SOLANA_HEADINGS: Record<SolanaCheckName, Heading> = {
  isMintable: { present: 'Token Minting Authority is Enabled', absent: 'Token Minting Authority is Disabled', subject: 'Token Minting Authority' },
  isFreezable: { present: 'Token Freezing Authority is Enabled', absent: 'Token Freezing Authority is Disabled', subject: 'Token Freezing Authority' },
  metadataMutable: { present: 'Token Metadata is Mutable', absent: 'Token Metadata is Immutable', subject: 'Token Metadata Mutability' },
  transferFeeModifiable: { present: 'Transfer Fee is Modifiable', absent: 'Transfer Fee is not Modifiable', subject: 'Transfer Fee Modifiability' },
  ownerChangeBalance: { present: 'Permanent Delegate is Enabled', absent: 'Permanent Delegate is Disabled', subject: 'Permanent Delegate' },
  transferPausable: { present: 'Token Pausing Authority is Enabled', absent: 'Token Pausing Authority is Disabled', subject: 'Token Pausing Authority' },
  transferHookModifiable: { present: 'Transfer Hook is Modifiable', absent: 'Transfer Hook is not Modifiable', subject: 'Transfer Hook Modifiability' },
  defaultAccountFrozen: { present: 'New Token Accounts Start Frozen', absent: 'New Token Accounts Start Unfrozen', subject: 'Default Account State' },
  mintClosable: { present: 'Mint Close Authority is Enabled', absent: 'Mint Close Authority is Disabled', subject: 'Mint Close Authority' },
  balanceDisplayModifiable: { present: 'Balance Display is Modifiable', absent: 'Balance Display is not Modifiable', subject: 'Balance Display Modifiability' },
  externalCall: { present: 'Transfer Hook Program is Called on Every Transfer', absent: 'No Program is Called on Transfers', subject: 'Transfer Hook Program' },
  transferHookUpgradeable: { present: 'Transfer Hook Program is Upgradeable', absent: 'No Upgradeable Transfer Hook Program', subject: 'Transfer Hook Upgradeability' },
  nonTransferable: { present: 'Token is Non-Transferable', absent: 'Token is Transferable', subject: 'Transferability' },
  hasTransferFee: { present: 'Transfer Fee is Charged', absent: 'No Transfer Fee is Charged', subject: 'Transfer Fee' },
  isPaused: { present: 'Transfers are Paused', absent: 'Transfers are not Paused', subject: 'Pause State' },
  confidentialTransfers: { present: 'Confidential Transfers are Enabled', absent: 'Confidential Transfers are Disabled', subject: 'Confidential Transfers' },
  frozenHolders: { present: 'Holder Accounts are Frozen', absent: 'No Holder Account is Frozen', subject: 'Frozen Holder Accounts' },
  bundledLaunch: { present: 'Launch was Bundled or Bought by Insiders', absent: 'No Bundle or Insider Buys at Launch', subject: 'Launch Bundle' },
  snipedLaunch: { present: 'Launch was Sniped', absent: 'No Snipers at Launch', subject: 'Launch Snipers' },
  creatorRugHistory: { present: 'Creator Pulled Liquidity Before', absent: 'No Pulled Liquidity in the Creator\'s History', subject: 'Creator History' },
  lookAlike: { present: 'Token Imitates a Well-Known Token', absent: 'No Well-Known Token is Imitated', subject: 'Look-Alike' },
}

/** The sections of `codeCheckDescription`, each check in its place; the first four in the order clients read by index. */
export const SOLANA_CHECK_SECTIONS = {
  ownershipPermissionsDescription: [
    'isMintable',
    'isFreezable',
    'metadataMutable',
    'transferFeeModifiable',
    'ownerChangeBalance',
    'transferPausable',
    'transferHookModifiable',
    'defaultAccountFrozen',
    'mintClosable',
    'balanceDisplayModifiable',
  ],
  externalContractDescription: ['externalCall', 'transferHookUpgradeable'],
  transactionLimitersDescription: ['nonTransferable', 'isPaused', 'hasTransferFee', 'confidentialTransfers', 'frozenHolders', 'bundledLaunch', 'snipedLaunch', 'creatorRugHistory', 'lookAlike'],
} as const satisfies Record<string, readonly SolanaCheckName[]>
