import { getAddressEncoder, getProgramDerivedAddress, type Address } from '@solana/kit'
import { ByteReader, MalformedAccountError, cleanString } from './reader.ts'
import { METAPLEX_TOKEN_METADATA_PROGRAM } from '../programs.ts'

/** The first byte of a Metaplex metadata account (`Key::MetadataV1`). */
const KEY_METADATA_V1 = 4
const TOKEN_STANDARDS = ['NonFungible', 'FungibleAsset', 'Fungible', 'NonFungibleEdition', 'ProgrammableNonFungible', 'ProgrammableNonFungibleEdition'] as const

export interface MetaplexMetadata {
  updateAuthority: string
  mint: string
  name: string
  symbol: string
  uri: string
  sellerFeeBasisPoints: number
  creators: { address: string; verified: boolean; share: number }[]
  isMutable: boolean
  /** '' when the account predates token standards or does not say. */
  tokenStandard: string
}

/** The metadata account of a mint: PDA of ["metadata", program, mint] under Token Metadata. */
export async function findMetaplexMetadataAddress(mint: Address): Promise<Address> {
  const encoder = getAddressEncoder()
  const program = METAPLEX_TOKEN_METADATA_PROGRAM as Address
  const [pda] = await getProgramDerivedAddress({
    programAddress: program,
    seeds: [new TextEncoder().encode('metadata'), encoder.encode(program), encoder.encode(mint)],
  })
  return pda
}

/**
 * Decodes a Metaplex Token Metadata account (Borsh, published layout). Fields after `isMutable`
 * were added over the years; they are read only when present.
 */
export function decodeMetaplexMetadata(data: Uint8Array): MetaplexMetadata {
  const r = new ByteReader(data, 0, 'Metaplex metadata')
  const key = r.u8('key')
  if (key !== KEY_METADATA_V1) throw new MalformedAccountError(`Metaplex metadata: key is ${key}, not MetadataV1 (${KEY_METADATA_V1})`)
  const updateAuthority = r.address('update authority')
  const mint = r.address('mint')
  const name = cleanString(r.borshString('name', 200))
  const symbol = cleanString(r.borshString('symbol', 200))
  const uri = cleanString(r.borshString('uri', 1000))
  const sellerFeeBasisPoints = r.u16('seller fee')
  const creators =
    r.borshOption(() => {
      const count = r.u32('creator count')
      if (count > 64) throw new MalformedAccountError(`Metaplex metadata: ${count} creators`)
      return Array.from({ length: count }, () => ({ address: r.address('creator'), verified: r.bool('verified'), share: r.u8('share') }))
    }, 'creators') ?? []
  r.bool('primary sale happened')
  const isMutable = r.bool('is mutable')
  let tokenStandard = ''
  try {
    r.borshOption(() => r.u8('edition nonce'), 'edition nonce')
    const standard = r.borshOption(() => r.u8('token standard'), 'token standard')
    if (standard !== null) tokenStandard = TOKEN_STANDARDS[standard] ?? ''
  } catch {
    // Older accounts end before these fields (or carry zero padding): the standard stays unknown.
  }
  return { updateAuthority, mint, name, symbol, uri, sellerFeeBasisPoints, creators, isMutable, tokenStandard }
}
