/**
 * Every code check of a token report: its name, the group it appears in and what its status "1"
 * means. Part of the API contract: the response schemas, the OpenAPI document and docs/checks.md
 * take them from here, and the engines' registries are typed against them, so that a check missing
 * from a registry, or one the contract does not name, fails to compile.
 */

/** The groups of `codeChecks`. */
export type CheckGroup = 'ownershipChecks' | 'otherChecks'

/** A report's checks by group, in report order, each with what its status "1" means. */
export interface CheckCatalogue<Name extends string> {
  ownershipChecks: Readonly<Partial<Record<Name, string>>>
  otherChecks: Readonly<Partial<Record<Name, string>>>
}

/** The EVM report's checks. */
export const EVM_CHECK_CATALOGUE = {
  ownershipChecks: {
    ownerChangeBalance: 'a privileged account can change any holder\'s balance: set it, burn from it, or move tokens out of it without approval',
    isMintable: 'a privileged account can raise the total supply after deployment',
    selfDestruct: 'the token\'s code, or its implementation\'s, can execute SELFDESTRUCT',
    transferPausable: 'a privileged account can stop transfers (or trading) for every holder: a pause, a trading switch',
    slippageModifiable: 'a privileged account can change the buy, sell or transfer tax paid by every holder',
    personalSlippageModifiable: 'a privileged account can change one address\'s outcome: a per-address tax, a blacklist, an exemption that penalises others',
    isBlacklisted: 'a privileged account can stop chosen addresses from transferring or selling, while others still can (a blacklist, whatever its functions are called)',
    isWhitelisted: 'trading is limited to, or favours, an owner-chosen set: a privileged account can let chosen addresses trade when others cannot, or exempt them from taxes others pay',
    hiddenOwner: 'a power over the token stays with an account other than the one owner() names: a second admin in storage, a creator after a renounce, a role',
    antiwhaleModifiable: 'a privileged account can change the maximum transaction or wallet size, so that holders can be limited or stopped from trading',
  },
  otherChecks: {
    externalCall: 'a transfer makes the token call another contract (fees forwarded to a contract that is called, a swap through a router, a hook)',
    isProxy: 'the token delegates its logic to another contract (EIP-1967 transparent or UUPS, beacon, EIP-1822, EIP-1167 clone); the comment says whether it is upgradeable',
    tradingCooldown: 'an address cannot trade again within some time of its previous trade',
    cannotBuy: 'buying from a pool reverts for an ordinary address',
    cannotSellAll: 'a holder cannot sell its whole balance: selling 100 % reverts while 99 % works, or no amount can be sold at all (the pool is then a honeypot)',
    isAntiWhale: 'a maximum transaction amount or a maximum wallet balance is enforced',
  },
} as const

/** The Solana report's checks. */
export const SOLANA_CHECK_CATALOGUE = {
  ownershipChecks: {
    isMintable: 'the mint has a mint authority, so the supply can grow without limit',
    isFreezable: 'the mint has a freeze authority that can freeze any holder (the Solana form of a blacklist)',
    ownerChangeBalance: 'Token-2022 PermanentDelegate extension with a delegate: it can move or burn any balance',
    transferPausable: 'Token-2022 Pausable extension with a pause authority',
    transferFeeModifiable: 'Token-2022 TransferFeeConfig extension with a fee-config authority: the tax can be raised',
    transferHookModifiable: 'Token-2022 TransferHook extension with an authority: a program that may block transfers can be installed later',
    defaultAccountFrozen: 'Token-2022 DefaultAccountState extension set to Frozen',
    mintClosable: 'Token-2022 MintCloseAuthority extension with an authority',
    metadataMutable: 'Metaplex metadata marked mutable, Token-2022 embedded metadata with an update authority, or a metadata pointer that can be moved',
    balanceDisplayModifiable: 'Token-2022 InterestBearingConfig or ScaledUiAmount extension with an authority',
  },
  otherChecks: {
    externalCall: 'Token-2022 TransferHook extension naming a hook program: an external call on every transfer',
    transferHookUpgradeable: 'the transfer-hook program is upgradeable (upgrade authority set) or not deployed yet',
    nonTransferable: 'Token-2022 NonTransferable extension (soulbound token)',
    hasTransferFee: 'Token-2022 TransferFeeConfig extension with a non-zero fee, current or scheduled',
    isPaused: 'Token-2022 Pausable extension in the paused state',
    confidentialTransfers: 'Token-2022 ConfidentialTransferMint (or ConfidentialMintBurn) extension',
    frozenHolders: 'a token account among the largest holders is frozen: its owner cannot move or sell the balance',
    bundledLaunch: 'at launch, wallets other than the creator bought in the creation slot (a bundle), or buyers were funded by the creator (insiders)',
    snipedLaunch: 'wallets bought in the first seconds after the creation slot (snipers)',
    creatorRugHistory: 'the creator made earlier tokens and pulled the liquidity of at least one (took the token and the quote out of its pool in one transaction)',
    lookAlike: 'the mint carries the symbol or name of a well-known token (a reference token, the bundled lists, TOKEN_LIST) but is another mint',
  },
} as const

const names = <T extends object>(group: T) => Object.keys(group) as (keyof T & string)[]

/** EVM checks of `codeChecks.ownershipChecks`, in report order. */
export const OWNERSHIP_CHECKS = names(EVM_CHECK_CATALOGUE.ownershipChecks)
/** EVM checks of `codeChecks.otherChecks`, in report order. */
export const OTHER_CHECKS = names(EVM_CHECK_CATALOGUE.otherChecks)
export type EvmCheckName = (typeof OWNERSHIP_CHECKS)[number] | (typeof OTHER_CHECKS)[number]

/** Solana checks of `codeChecks.ownershipChecks`, in report order. */
export const SOLANA_OWNERSHIP_CHECKS = names(SOLANA_CHECK_CATALOGUE.ownershipChecks)
/** Solana checks of `codeChecks.otherChecks`, in report order. */
export const SOLANA_OTHER_CHECKS = names(SOLANA_CHECK_CATALOGUE.otherChecks)
export type SolanaCheckName = (typeof SOLANA_OWNERSHIP_CHECKS)[number] | (typeof SOLANA_OTHER_CHECKS)[number]

/** The schema properties of one group: one code check per name, described by what "1" means. */
export function checkGroupProperties<Name extends string, S>(group: Readonly<Partial<Record<Name, string>>>, schema: (meaning: string) => S): Record<Name, S> {
  return Object.fromEntries(Object.entries(group).map(([name, meaning]) => [name, schema(meaning as string)])) as Record<Name, S>
}
