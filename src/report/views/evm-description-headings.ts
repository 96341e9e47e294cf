import type { EvmCheckName } from '../../contract/checks.ts'
import type { Heading } from './description-parts.ts'

/**
 * The description shape for EVM tokens: which check each item is, in which section and order, and
 * its heading in each state. The first four items of `ownershipPermissionsDescription` are the
 * ones clients read by index and by text (docs/compat.md, as on Solana): minting, freezing chosen
 * holders (an EVM blacklist does what a Solana freeze authority does), metadata mutability, and a
 * modifiable fee. Only those four headings hold "Minting Authority" + "Disabled" and
 * "Transfer Fee" + "not Modifiable", the words one client searches every item for.
 */

/** The metadata item: not a check of the contract's report, told from `isProxy` (an upgradeable proxy's name can change). */
export const METADATA_ITEM = 'metadataMutable'

export type EvmItemName = EvmCheckName | typeof METADATA_ITEM

export const EVM_DESCRIPTION_HEADINGS: Record<EvmItemName, Heading> = {
  isMintable: { present: 'Token Minting Authority is Enabled', absent: 'Token Minting Authority is Disabled', subject: 'Token Minting Authority' },
  isBlacklisted: { present: 'Token Freezing Authority is Enabled', absent: 'Token Freezing Authority is Disabled', subject: 'Token Freezing Authority' },
  metadataMutable: { present: 'Token Metadata is Mutable', absent: 'Token Metadata is Immutable', subject: 'Token Metadata Mutability' },
  slippageModifiable: { present: 'Transfer Fee is Modifiable', absent: 'Transfer Fee is not Modifiable', subject: 'Transfer Fee Modifiability' },
  ownerChangeBalance: { present: 'Balance Changing Authority is Enabled', absent: 'Balance Changing Authority is Disabled', subject: 'Balance Changing Authority' },
  hiddenOwner: { present: 'Hidden Owner is Present', absent: 'No Hidden Owner', subject: 'Hidden Owner' },
  transferPausable: { present: 'Token Pausing Authority is Enabled', absent: 'Token Pausing Authority is Disabled', subject: 'Token Pausing Authority' },
  selfDestruct: { present: 'Self-Destruct is Possible', absent: 'No Self-Destruct', subject: 'Self-Destruct' },
  isWhitelisted: { present: 'Whitelist Authority is Enabled', absent: 'Whitelist Authority is Disabled', subject: 'Whitelist Authority' },
  antiwhaleModifiable: { present: 'Anti-Whale Limit is Modifiable', absent: 'Anti-Whale Limit is not Modifiable', subject: 'Anti-Whale Limit Modifiability' },
  personalSlippageModifiable: { present: 'Per-Address Fee is Modifiable', absent: 'Per-Address Fee is not Modifiable', subject: 'Per-Address Fee Modifiability' },
  externalCall: { present: 'External Contract is Called on Transfers', absent: 'No External Contract is Called on Transfers', subject: 'External Calls' },
  isProxy: { present: 'Contract is a Proxy', absent: 'Contract is not a Proxy', subject: 'Proxy' },
  cannotBuy: { present: 'Buying is Blocked', absent: 'Buying is Possible', subject: 'Buying' },
  cannotSellAll: { present: 'Selling All Tokens is Blocked', absent: 'Selling All Tokens is Possible', subject: 'Selling All Tokens' },
  tradingCooldown: { present: 'Trading Cooldown is Enabled', absent: 'No Trading Cooldown', subject: 'Trading Cooldown' },
  isAntiWhale: { present: 'Anti-Whale Limit is Enabled', absent: 'No Anti-Whale Limit', subject: 'Anti-Whale Limit' },
}

/** The sections of `codeCheckDescription`, each item in its place; the first four in the order clients read by index. */
export const EVM_DESCRIPTION_SECTIONS = {
  ownershipPermissionsDescription: [
    'isMintable',
    'isBlacklisted',
    METADATA_ITEM,
    'slippageModifiable',
    'ownerChangeBalance',
    'hiddenOwner',
    'transferPausable',
    'selfDestruct',
    'isWhitelisted',
    'antiwhaleModifiable',
    'personalSlippageModifiable',
  ],
  externalContractDescription: ['externalCall', 'isProxy'],
  transactionLimitersDescription: ['cannotBuy', 'cannotSellAll', 'tradingCooldown', 'isAntiWhale'],
} as const satisfies Record<string, readonly EvmItemName[]>
