import { ByteReader, MalformedAccountError } from './reader.ts'
import { decodeMintExtensions, readTlvEntries, type AccountStateName, type MintExtensions } from './extensions.ts'
import type { TokenProgramName } from '../programs.ts'

/** Sizes fixed by the token programs' state layouts. */
export const MINT_SIZE = 82
export const TOKEN_ACCOUNT_SIZE = 165
export const MULTISIG_SIZE = 355
/** Token-2022 writes the account type right after the 165-byte base, then the TLV area. */
const ACCOUNT_TYPE_OFFSET = TOKEN_ACCOUNT_SIZE
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2

export interface DecodedMint {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
  /** Tags of the Token-2022 extensions present, in account order (empty for SPL Token). */
  extensionTypes: number[]
  extensions: MintExtensions
}

export interface DecodedTokenAccount {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: AccountStateName
  isNative: boolean
  delegatedAmount: bigint
  closeAuthority: string | null
}

export type TokenProgramAccount =
  | { kind: 'mint'; mint: DecodedMint }
  | { kind: 'token-account'; account: DecodedTokenAccount }
  | { kind: 'multisig' }

/**
 * Classifies and decodes an account owned by SPL Token or Token-2022 the way the program does:
 * by size (82 mint, 165 token account, 355 multisig) and, past 165 bytes, by Token-2022's account
 * type byte. Throws `MalformedAccountError` for data neither program could have written.
 */
export function decodeTokenProgramAccount(data: Uint8Array, program: TokenProgramName): TokenProgramAccount {
  if (data.length === MINT_SIZE) return { kind: 'mint', mint: decodeMintBase(data, [], {}) }
  if (data.length === TOKEN_ACCOUNT_SIZE) return { kind: 'token-account', account: decodeTokenAccountBase(data) }
  if (data.length === MULTISIG_SIZE) return { kind: 'multisig' }
  if (program === 'spl-token' || data.length <= ACCOUNT_TYPE_OFFSET) {
    throw new MalformedAccountError(`a ${program} account of ${data.length} bytes is neither a mint (${MINT_SIZE}), a token account (${TOKEN_ACCOUNT_SIZE}) nor a multisig (${MULTISIG_SIZE})`)
  }
  const accountType = data[ACCOUNT_TYPE_OFFSET]
  const tlv = data.subarray(ACCOUNT_TYPE_OFFSET + 1)
  if (accountType === ACCOUNT_TYPE_MINT) {
    if (data.subarray(MINT_SIZE, ACCOUNT_TYPE_OFFSET).some((b) => b !== 0)) {
      throw new MalformedAccountError('Token-2022 mint: the padding between the mint and its extensions is not zero')
    }
    const entries = readTlvEntries(tlv, 'Token-2022 mint')
    return { kind: 'mint', mint: decodeMintBase(data.subarray(0, MINT_SIZE), entries.map((e) => e.type), decodeMintExtensions(entries)) }
  }
  if (accountType === ACCOUNT_TYPE_ACCOUNT) {
    readTlvEntries(tlv, 'Token-2022 token account')
    return { kind: 'token-account', account: decodeTokenAccountBase(data.subarray(0, TOKEN_ACCOUNT_SIZE)) }
  }
  throw new MalformedAccountError(`Token-2022 account type byte is ${accountType}, not 1 (mint) or 2 (account)`)
}

function decodeMintBase(data: Uint8Array, extensionTypes: number[], extensions: MintExtensions): DecodedMint {
  const r = new ByteReader(data, 0, 'mint')
  const mintAuthority = r.cOptionAddress('mint authority')
  const supply = r.u64('supply')
  const decimals = r.u8('decimals')
  const isInitialized = r.bool('is_initialized')
  const freezeAuthority = r.cOptionAddress('freeze authority')
  return { mintAuthority, supply, decimals, isInitialized, freezeAuthority, extensionTypes, extensions }
}

const ACCOUNT_STATES: readonly AccountStateName[] = ['uninitialized', 'initialized', 'frozen']

/** Decodes the 165-byte base of a token account (SPL Token and Token-2022 share it). */
export function decodeTokenAccountBase(data: Uint8Array): DecodedTokenAccount {
  if (data.length < TOKEN_ACCOUNT_SIZE) throw new MalformedAccountError(`token account data is ${data.length} bytes, expected at least ${TOKEN_ACCOUNT_SIZE}`)
  const r = new ByteReader(data, 0, 'token account')
  const mint = r.address('mint')
  const owner = r.address('owner')
  const amount = r.u64('amount')
  const delegate = r.cOptionAddress('delegate')
  const stateByte = r.u8('state')
  const state = ACCOUNT_STATES[stateByte]
  if (!state) throw new MalformedAccountError(`token account state is ${stateByte}, not 0, 1 or 2`)
  const isNative = r.cOptionU64('is_native') !== null
  const delegatedAmount = r.u64('delegated amount')
  const closeAuthority = r.cOptionAddress('close authority')
  return { mint, owner, amount, delegate, state, isNative, delegatedAmount, closeAuthority }
}
