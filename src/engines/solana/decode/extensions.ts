import { ByteReader, MalformedAccountError } from './reader.ts'

/** Token-2022 extension types, by their u16 tag in the account's TLV area. */
export const EXTENSION_TYPES = {
  Uninitialized: 0,
  TransferFeeConfig: 1,
  TransferFeeAmount: 2,
  MintCloseAuthority: 3,
  ConfidentialTransferMint: 4,
  ConfidentialTransferAccount: 5,
  DefaultAccountState: 6,
  ImmutableOwner: 7,
  MemoTransfer: 8,
  NonTransferable: 9,
  InterestBearingConfig: 10,
  CpiGuard: 11,
  PermanentDelegate: 12,
  NonTransferableAccount: 13,
  TransferHook: 14,
  TransferHookAccount: 15,
  ConfidentialTransferFeeConfig: 16,
  ConfidentialTransferFeeAmount: 17,
  MetadataPointer: 18,
  TokenMetadata: 19,
  GroupPointer: 20,
  TokenGroup: 21,
  GroupMemberPointer: 22,
  TokenGroupMember: 23,
  ConfidentialMintBurn: 24,
  ScaledUiAmount: 25,
  Pausable: 26,
  PausableAccount: 27,
  PermissionedBurn: 28,
} as const

const NAMES = new Map<number, string>(Object.entries(EXTENSION_TYPES).map(([name, tag]) => [tag, name]))

/** The extension's name, or `Unknown(<tag>)` for a tag newer than this code. */
export function extensionName(tag: number): string {
  return NAMES.get(tag) ?? `Unknown(${tag})`
}

export interface TransferFee {
  epoch: bigint
  maximumFee: bigint
  basisPoints: number
}

export type AccountStateName = 'uninitialized' | 'initialized' | 'frozen'
const ACCOUNT_STATES: readonly AccountStateName[] = ['uninitialized', 'initialized', 'frozen']

/** The decoded mint extensions this engine reads; others are listed by name only. */
export interface MintExtensions {
  transferFeeConfig?: {
    configAuthority: string | null
    withdrawAuthority: string | null
    withheldAmount: bigint
    older: TransferFee
    newer: TransferFee
  }
  mintCloseAuthority?: { closeAuthority: string | null }
  confidentialTransferMint?: { authority: string | null; autoApproveNewAccounts: boolean; hasAuditor: boolean }
  defaultAccountState?: { state: AccountStateName }
  nonTransferable?: true
  interestBearingConfig?: { rateAuthority: string | null; currentRate: number }
  permanentDelegate?: { delegate: string | null }
  transferHook?: { authority: string | null; programId: string | null }
  confidentialTransferFeeConfig?: { authority: string | null }
  metadataPointer?: { authority: string | null; metadataAddress: string | null }
  tokenMetadata?: EmbeddedTokenMetadata
  groupPointer?: { authority: string | null; groupAddress: string | null }
  groupMemberPointer?: { authority: string | null; memberAddress: string | null }
  confidentialMintBurn?: true
  scaledUiAmount?: { authority: string | null; multiplier: number; newMultiplier: number; newMultiplierEffectiveTimestamp: bigint }
  pausable?: { authority: string | null; paused: boolean }
  permissionedBurn?: { authority: string | null }
}

export interface EmbeddedTokenMetadata {
  updateAuthority: string | null
  mint: string
  name: string
  symbol: string
  uri: string
  additionalMetadata: [string, string][]
}

export interface TlvEntry {
  type: number
  value: Uint8Array
}

/**
 * Splits a Token-2022 TLV area into entries. Stops at an `Uninitialized` tag or when fewer than
 * two bytes are left (the program may leave one spare byte); throws when an entry runs past the
 * end of the data.
 */
export function readTlvEntries(tlv: Uint8Array, what: string): TlvEntry[] {
  const entries: TlvEntry[] = []
  const reader = new ByteReader(tlv, 0, what)
  while (reader.remaining >= 2) {
    const type = reader.u16('extension type')
    if (type === EXTENSION_TYPES.Uninitialized) break
    const length = reader.u16('extension length')
    if (length > reader.remaining) {
      throw new MalformedAccountError(`${what}: extension ${extensionName(type)} claims ${length} bytes, only ${reader.remaining} left`)
    }
    entries.push({ type, value: reader.take(length, extensionName(type)) })
  }
  return entries
}

/** Decodes the mint extensions of a TLV list; unknown tags are kept by name only. */
export function decodeMintExtensions(entries: TlvEntry[]): MintExtensions {
  const ext: MintExtensions = {}
  for (const { type, value } of entries) {
    const r = new ByteReader(value, 0, `${extensionName(type)} extension`)
    switch (type) {
      case EXTENSION_TYPES.TransferFeeConfig: {
        const configAuthority = r.optionalNonZeroAddress('transfer fee config authority')
        const withdrawAuthority = r.optionalNonZeroAddress('withdraw withheld authority')
        const withheldAmount = r.u64('withheld amount')
        const fee = (): TransferFee => ({ epoch: r.u64('epoch'), maximumFee: r.u64('maximum fee'), basisPoints: r.u16('basis points') })
        const older = fee()
        const newer = fee()
        ext.transferFeeConfig = { configAuthority, withdrawAuthority, withheldAmount, older, newer }
        break
      }
      case EXTENSION_TYPES.MintCloseAuthority:
        ext.mintCloseAuthority = { closeAuthority: r.optionalNonZeroAddress('close authority') }
        break
      case EXTENSION_TYPES.ConfidentialTransferMint: {
        const authority = r.optionalNonZeroAddress('authority')
        const autoApproveNewAccounts = r.bool('auto approve')
        const auditor = r.take(32, 'auditor ElGamal key')
        ext.confidentialTransferMint = { authority, autoApproveNewAccounts, hasAuditor: auditor.some((b) => b !== 0) }
        break
      }
      case EXTENSION_TYPES.DefaultAccountState: {
        const state = r.u8('state')
        const name = ACCOUNT_STATES[state]
        if (!name) throw new MalformedAccountError(`DefaultAccountState extension: state ${state} is not 0, 1 or 2`)
        ext.defaultAccountState = { state: name }
        break
      }
      case EXTENSION_TYPES.NonTransferable:
        ext.nonTransferable = true
        break
      case EXTENSION_TYPES.InterestBearingConfig: {
        const rateAuthority = r.optionalNonZeroAddress('rate authority')
        r.i64('initialization timestamp')
        r.i16('pre-update average rate')
        r.i64('last update timestamp')
        ext.interestBearingConfig = { rateAuthority, currentRate: r.i16('current rate') }
        break
      }
      case EXTENSION_TYPES.PermanentDelegate:
        ext.permanentDelegate = { delegate: r.optionalNonZeroAddress('delegate') }
        break
      case EXTENSION_TYPES.TransferHook:
        ext.transferHook = { authority: r.optionalNonZeroAddress('authority'), programId: r.optionalNonZeroAddress('program id') }
        break
      case EXTENSION_TYPES.ConfidentialTransferFeeConfig:
        ext.confidentialTransferFeeConfig = { authority: r.optionalNonZeroAddress('authority') }
        break
      case EXTENSION_TYPES.MetadataPointer:
        ext.metadataPointer = { authority: r.optionalNonZeroAddress('authority'), metadataAddress: r.optionalNonZeroAddress('metadata address') }
        break
      case EXTENSION_TYPES.TokenMetadata:
        ext.tokenMetadata = decodeEmbeddedTokenMetadata(value)
        break
      case EXTENSION_TYPES.GroupPointer:
        ext.groupPointer = { authority: r.optionalNonZeroAddress('authority'), groupAddress: r.optionalNonZeroAddress('group address') }
        break
      case EXTENSION_TYPES.GroupMemberPointer:
        ext.groupMemberPointer = { authority: r.optionalNonZeroAddress('authority'), memberAddress: r.optionalNonZeroAddress('member address') }
        break
      case EXTENSION_TYPES.ConfidentialMintBurn:
        ext.confidentialMintBurn = true
        break
      case EXTENSION_TYPES.ScaledUiAmount: {
        const authority = r.optionalNonZeroAddress('authority')
        const multiplier = r.f64('multiplier')
        const newMultiplierEffectiveTimestamp = r.i64('new multiplier timestamp')
        const newMultiplier = r.f64('new multiplier')
        ext.scaledUiAmount = { authority, multiplier, newMultiplier, newMultiplierEffectiveTimestamp }
        break
      }
      case EXTENSION_TYPES.Pausable:
        ext.pausable = { authority: r.optionalNonZeroAddress('authority'), paused: r.bool('paused') }
        break
      case EXTENSION_TYPES.PermissionedBurn:
        ext.permissionedBurn = { authority: r.optionalNonZeroAddress('authority') }
        break
      default:
        break
    }
  }
  return ext
}

/** Token-2022 embedded metadata (the token-metadata interface's layout, Borsh). */
export function decodeEmbeddedTokenMetadata(value: Uint8Array): EmbeddedTokenMetadata {
  const r = new ByteReader(value, 0, 'TokenMetadata extension')
  const updateAuthority = r.optionalNonZeroAddress('update authority')
  const mint = r.address('mint')
  const name = r.borshString('name')
  const symbol = r.borshString('symbol')
  const uri = r.borshString('uri')
  const additionalMetadata: [string, string][] = []
  if (r.remaining >= 4) {
    const count = r.u32('additional metadata count')
    for (let i = 0; i < count; i++) additionalMetadata.push([r.borshString('key'), r.borshString('value')])
  }
  return { updateAuthority, mint, name, symbol, uri, additionalMetadata }
}
