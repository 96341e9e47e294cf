import { AccountRole, getAddressEncoder, getProgramDerivedAddress, type Address, type Instruction, type TransactionSigner } from '@solana/kit'
import { createHash } from 'node:crypto'
import {
  ASSOCIATED_TOKEN_PROGRAM,
  BPF_LOADER_UPGRADEABLE,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
} from 'tokenrisk/engines/solana/programs'

/**
 * Instructions of the System Program, the two token programs (with the Token-2022 extensions and
 * the token-metadata interface), the associated-token program and the upgradeable loader, encoded
 * by their published layouts. The local world sends them to the real programs inside LiteSVM,
 * which reject anything malformed, so every account the world holds is program-produced.
 */

const enc = getAddressEncoder()
const SYSVAR_RENT = 'SysvarRent111111111111111111111111111111111' as Address
const SYSVAR_CLOCK = 'SysvarC1ock11111111111111111111111111111111' as Address

type Meta = Instruction['accounts'] extends readonly (infer M)[] | undefined ? M : never

/** A writable or read-only account, signing when given a signer. */
export const w = (a: Address | TransactionSigner): Meta =>
  typeof a === 'string' ? { address: a, role: AccountRole.WRITABLE } : ({ address: a.address, role: AccountRole.WRITABLE_SIGNER, signer: a } as Meta)
export const r = (a: Address | TransactionSigner): Meta =>
  typeof a === 'string' ? { address: a, role: AccountRole.READONLY } : ({ address: a.address, role: AccountRole.READONLY_SIGNER, signer: a } as Meta)

/** Little-endian byte building. */
class Bytes {
  private parts: number[] = []
  u8(v: number) {
    this.parts.push(v & 0xff)
    return this
  }
  u16(v: number) {
    return this.raw(le(BigInt(v), 2))
  }
  i16(v: number) {
    return this.raw(le(BigInt.asUintN(16, BigInt(v)), 2))
  }
  u32(v: number) {
    return this.raw(le(BigInt(v), 4))
  }
  u64(v: bigint | number) {
    return this.raw(le(BigInt(v), 8))
  }
  f64(v: number) {
    const b = new Uint8Array(8)
    new DataView(b.buffer).setFloat64(0, v, true)
    return this.raw(b)
  }
  key(a: Address | string) {
    return this.raw(enc.encode(a as Address))
  }
  /** Token-2022 OptionalNonZeroPubkey: 32 bytes, zeroes for none. */
  optionalKey(a: Address | string | null) {
    return a ? this.key(a) : this.raw(new Uint8Array(32))
  }
  /** COption<Pubkey> in token instructions: one tag byte, then the key when present. */
  cOptionKey(a: Address | string | null) {
    return a ? this.u8(1).key(a) : this.u8(0)
  }
  str(s: string) {
    const b = new TextEncoder().encode(s)
    return this.u32(b.length).raw(b)
  }
  raw(b: ArrayLike<number> & Iterable<number>) {
    this.parts.push(...b)
    return this
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts)
  }
}
const bytes = () => new Bytes()

function le(v: bigint, n: number): Uint8Array {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = Number((v >> BigInt(8 * i)) & 0xffn)
  return out
}

const ix = (programAddress: string, accounts: Meta[], data: Uint8Array): Instruction =>
  ({ programAddress: programAddress as Address, accounts, data }) as Instruction

// ---------------------------------------------------------------- System Program

export function createAccount(payer: TransactionSigner, account: TransactionSigner, lamports: bigint, space: number, owner: string): Instruction {
  return ix(SYSTEM_PROGRAM, [w(payer), w(account)], bytes().u32(0).u64(lamports).u64(space).key(owner).done())
}

export function transferSol(from: TransactionSigner, to: Address, lamports: bigint): Instruction {
  return ix(SYSTEM_PROGRAM, [w(from), w(to)], bytes().u32(2).u64(lamports).done())
}

// ---------------------------------------------------------------- Token programs (shared)

export const AUTHORITY_TYPES = {
  MintTokens: 0,
  FreezeAccount: 1,
  AccountOwner: 2,
  CloseAccount: 3,
  TransferFeeConfig: 4,
  WithheldWithdraw: 5,
  CloseMint: 6,
  InterestRate: 7,
  PermanentDelegate: 8,
  ConfidentialTransferMint: 9,
  TransferHookProgramId: 10,
  ConfidentialTransferFeeConfig: 11,
  MetadataPointer: 12,
  GroupPointer: 13,
  GroupMemberPointer: 14,
  ScaledUiAmount: 15,
  Pause: 16,
} as const

export function initializeMint2(program: string, mint: Address, decimals: number, mintAuthority: Address, freezeAuthority: Address | null): Instruction {
  return ix(program, [w(mint)], bytes().u8(20).u8(decimals).key(mintAuthority).cOptionKey(freezeAuthority).done())
}

/** InitializeAccount3: a token account of `mint` at an address of its own (not an associated one), held by `owner`. */
export function initializeAccount3(program: string, account: Address, mint: Address, owner: Address): Instruction {
  return ix(program, [w(account), r(mint)], bytes().u8(18).key(owner).done())
}

export function mintTo(program: string, mint: Address, destination: Address, authority: TransactionSigner, amount: bigint): Instruction {
  return ix(program, [w(mint), w(destination), r(authority)], bytes().u8(7).u64(amount).done())
}

export function burn(program: string, account: Address, mint: Address, owner: TransactionSigner, amount: bigint): Instruction {
  return ix(program, [w(account), w(mint), r(owner)], bytes().u8(8).u64(amount).done())
}

export function transferChecked(program: string, source: Address, mint: Address, destination: Address, owner: TransactionSigner, amount: bigint, decimals: number): Instruction {
  return ix(program, [w(source), r(mint), w(destination), r(owner)], bytes().u8(12).u64(amount).u8(decimals).done())
}

export function setAuthority(program: string, account: Address, current: TransactionSigner, type: number, next: Address | null): Instruction {
  return ix(program, [w(account), r(current)], bytes().u8(6).u8(type).cOptionKey(next).done())
}

export function freezeAccount(program: string, account: Address, mint: Address, authority: TransactionSigner): Instruction {
  return ix(program, [w(account), r(mint), r(authority)], bytes().u8(10).done())
}

export function thawAccount(program: string, account: Address, mint: Address, authority: TransactionSigner): Instruction {
  return ix(program, [w(account), r(mint), r(authority)], bytes().u8(11).done())
}

export function syncNative(program: string, account: Address): Instruction {
  return ix(program, [w(account)], bytes().u8(17).done())
}

// ---------------------------------------------------------------- Token-2022 extensions (before InitializeMint2)

export function initializeTransferFeeConfig(mint: Address, configAuthority: Address | null, withdrawAuthority: Address | null, basisPoints: number, maximumFee: bigint): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(26).u8(0).cOptionKey(configAuthority).cOptionKey(withdrawAuthority).u16(basisPoints).u64(maximumFee).done())
}

export function setTransferFee(mint: Address, authority: TransactionSigner, basisPoints: number, maximumFee: bigint): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint), r(authority)], bytes().u8(26).u8(5).u16(basisPoints).u64(maximumFee).done())
}

export function initializeMintCloseAuthority(mint: Address, closeAuthority: Address | null): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(25).cOptionKey(closeAuthority).done())
}

export function initializeConfidentialTransferMint(mint: Address, authority: Address | null, autoApprove: boolean): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(27).u8(0).optionalKey(authority).u8(autoApprove ? 1 : 0).raw(new Uint8Array(32)).done())
}

export function initializeDefaultAccountState(mint: Address, state: 'initialized' | 'frozen'): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(28).u8(0).u8(state === 'frozen' ? 2 : 1).done())
}

export function initializeNonTransferableMint(mint: Address): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(32).done())
}

export function initializeInterestBearingMint(mint: Address, rateAuthority: Address | null, rateBasisPoints: number): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(33).u8(0).optionalKey(rateAuthority).i16(rateBasisPoints).done())
}

export function initializePermanentDelegate(mint: Address, delegate: Address): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(35).key(delegate).done())
}

export function initializeTransferHook(mint: Address, authority: Address | null, programId: Address | null): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(36).u8(0).optionalKey(authority).optionalKey(programId).done())
}

export function initializeMetadataPointer(mint: Address, authority: Address | null, metadataAddress: Address | null): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(39).u8(0).optionalKey(authority).optionalKey(metadataAddress).done())
}

export function initializeScaledUiAmount(mint: Address, authority: Address | null, multiplier: number): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(43).u8(0).optionalKey(authority).f64(multiplier).done())
}

export function initializePausable(mint: Address, authority: Address): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint)], bytes().u8(44).u8(0).key(authority).done())
}

export function pause(mint: Address, authority: TransactionSigner): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint), r(authority)], bytes().u8(44).u8(1).done())
}

/** Token-metadata interface instructions are tagged by the first 8 bytes of sha256("<namespace>:<name>"). */
function interfaceTag(name: string): Uint8Array {
  return createHash('sha256').update(`spl_token_metadata_interface:${name}`).digest().subarray(0, 8)
}

export function initializeTokenMetadata(mint: Address, updateAuthority: Address, mintAuthority: TransactionSigner, name: string, symbol: string, uri: string): Instruction {
  return ix(
    TOKEN_2022_PROGRAM,
    [w(mint), r(updateAuthority), r(mint), r(mintAuthority)],
    bytes().raw(interfaceTag('initialize_account')).str(name).str(symbol).str(uri).done(),
  )
}

export function updateTokenMetadataAuthority(mint: Address, current: TransactionSigner, next: Address | null): Instruction {
  return ix(TOKEN_2022_PROGRAM, [w(mint), r(current)], bytes().raw(interfaceTag('update_the_authority')).optionalKey(next).done())
}

/** Bytes each extension takes in the mint (its TLV value, without the 4-byte header). */
export const MINT_EXTENSION_SIZES = {
  TransferFeeConfig: 108,
  MintCloseAuthority: 32,
  ConfidentialTransferMint: 65,
  DefaultAccountState: 1,
  NonTransferable: 0,
  InterestBearingConfig: 52,
  PermanentDelegate: 32,
  TransferHook: 64,
  MetadataPointer: 64,
  ScaledUiAmount: 56,
  Pausable: 33,
} as const
export type MintExtensionName = keyof typeof MINT_EXTENSION_SIZES

const BASE_ACCOUNT_AND_TYPE = 166
const MULTISIG_LENGTH = 355

/** Size of a Token-2022 mint with these extensions, as the program computes it. */
export function mintSizeWithExtensions(extensions: readonly MintExtensionName[]): number {
  if (extensions.length === 0) return 82
  const size = BASE_ACCOUNT_AND_TYPE + extensions.reduce((n, e) => n + 4 + MINT_EXTENSION_SIZES[e], 0)
  return size === MULTISIG_LENGTH ? size + 2 : size
}

/** TLV bytes the embedded metadata adds when initialised (the program reallocates the mint). */
export function embeddedMetadataSize(name: string, symbol: string, uri: string): number {
  const len = (s: string) => 4 + new TextEncoder().encode(s).length
  return 4 + 32 + 32 + len(name) + len(symbol) + len(uri) + 4
}

// ---------------------------------------------------------------- Associated token accounts

export async function findAssociatedTokenAddress(owner: Address, mint: Address, tokenProgram: string): Promise<Address> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM as Address,
    seeds: [enc.encode(owner), enc.encode(tokenProgram as Address), enc.encode(mint)],
  })
  return pda
}

export function createAssociatedTokenAccountIdempotent(payer: TransactionSigner, ata: Address, owner: Address, mint: Address, tokenProgram: string): Instruction {
  return ix(ASSOCIATED_TOKEN_PROGRAM, [w(payer), w(ata), r(owner), r(mint), r(SYSTEM_PROGRAM as Address), r(tokenProgram as Address)], Uint8Array.of(1))
}

// ---------------------------------------------------------------- Upgradeable loader

export const PROGRAM_ACCOUNT_SIZE = 36
const BUFFER_HEADER_SIZE = 37
/** Bytes of program code per Write instruction (keeps each transaction under the size limit). */
export const LOADER_WRITE_CHUNK = 900

export const bufferSize = (codeLength: number) => BUFFER_HEADER_SIZE + codeLength

export async function findProgramDataAddress(program: Address): Promise<Address> {
  const [pda] = await getProgramDerivedAddress({ programAddress: BPF_LOADER_UPGRADEABLE as Address, seeds: [enc.encode(program)] })
  return pda
}

export function loaderInitializeBuffer(buffer: Address, authority: Address): Instruction {
  return ix(BPF_LOADER_UPGRADEABLE, [w(buffer), r(authority)], bytes().u32(0).done())
}

export function loaderWrite(buffer: Address, authority: TransactionSigner, offset: number, chunk: Uint8Array): Instruction {
  return ix(BPF_LOADER_UPGRADEABLE, [w(buffer), r(authority)], bytes().u32(1).u32(offset).u64(chunk.length).raw(chunk).done())
}

export function loaderDeployWithMaxDataLen(payer: TransactionSigner, programData: Address, program: Address, buffer: Address, authority: TransactionSigner, maxDataLen: number): Instruction {
  return ix(
    BPF_LOADER_UPGRADEABLE,
    [w(payer), w(programData), w(program), w(buffer), r(SYSVAR_RENT), r(SYSVAR_CLOCK), r(SYSTEM_PROGRAM as Address), r(authority)],
    bytes().u32(2).u64(maxDataLen).done(),
  )
}

/** Sets the upgrade authority; `next` null makes the program immutable for good. */
export function loaderSetAuthority(programData: Address, current: TransactionSigner, next: Address | null): Instruction {
  return ix(BPF_LOADER_UPGRADEABLE, [w(programData), r(current), ...(next ? [r(next)] : [])], bytes().u32(4).done())
}
