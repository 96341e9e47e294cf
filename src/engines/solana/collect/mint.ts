import type { Address } from '@solana/kit'
import { NotFoundError } from '../../../errors.ts'
import { decodeTokenProgramAccount, type DecodedMint } from '../decode/token.ts'
import { decodeMetaplexMetadata, findMetaplexMetadataAddress, type MetaplexMetadata } from '../decode/metaplex.ts'
import { MalformedAccountError } from '../decode/reader.ts'
import { METAPLEX_TOKEN_METADATA_PROGRAM, SYSTEM_PROGRAM, tokenProgramName, type TokenProgramName } from '../programs.ts'
import { SolanaRpcError } from '../rpc/errors.ts'
import { known, unknown, type Known } from './facts.ts'
import { reasonOf, type CollectContext } from './context.ts'

export interface MintRead {
  tokenProgram: string
  programName: TokenProgramName
  mint: DecodedMint
  metaplex: Known<{ address: string; metadata: MetaplexMetadata | null }>
}

/**
 * Reads the mint and its Metaplex metadata account in one call. Throws `NotFoundError` when there
 * is no account or it is not an initialised mint (saying what it is instead), and a malformed
 * `SolanaRpcError` when a token program's account holds bytes the program could not have written.
 */
export async function readMint(ctx: CollectContext, address: Address): Promise<MintRead> {
  const metadataAddress = await findMetaplexMetadataAddress(address)
  const [account, metadataAccount] = await ctx.loader.loadMany([address, metadataAddress])
  if (!account) throw new NotFoundError(`no account exists at ${address} on this cluster`)
  const programName = tokenProgramName(account.owner)
  if (!programName) throw new NotFoundError(`${address} is not a token mint: ${describeOwner(account.owner, account.executable)}`)
  let decoded
  try {
    decoded = decodeTokenProgramAccount(account.data, programName)
  } catch (error) {
    if (error instanceof MalformedAccountError) {
      throw new SolanaRpcError('getMultipleAccounts', 'malformed', `account ${address} is owned by ${programName} but its ${account.data.length} bytes are not a valid ${programName} account (${error.message})`)
    }
    throw error
  }
  if (decoded.kind === 'token-account') {
    throw new NotFoundError(`${address} is not a token mint: it is a ${programName} token account (of mint ${decoded.account.mint})`)
  }
  if (decoded.kind === 'multisig') throw new NotFoundError(`${address} is not a token mint: it is a ${programName} multisig account`)
  if (!decoded.mint.isInitialized) throw new NotFoundError(`${address} is not a token mint: the ${programName} mint account is not initialised`)

  let metaplex: MintRead['metaplex']
  if (!metadataAccount || metadataAccount.owner !== METAPLEX_TOKEN_METADATA_PROGRAM) {
    metaplex = known({ address: metadataAddress, metadata: null })
  } else {
    try {
      const metadata = decodeMetaplexMetadata(metadataAccount.data)
      metaplex =
        metadata.mint === address
          ? known({ address: metadataAddress, metadata })
          : unknown(`the Metaplex metadata account ${metadataAddress} names another mint (${metadata.mint})`)
    } catch (error) {
      ctx.logger.warn({ mint: address, metadataAddress, reason: reasonOf(error) }, 'malformed Metaplex metadata')
      metaplex = unknown(`the Metaplex metadata account ${metadataAddress} is malformed: ${reasonOf(error)}`)
    }
  }
  return { tokenProgram: account.owner, programName, mint: decoded.mint, metaplex }
}

function describeOwner(owner: string, executable: boolean): string {
  if (executable) return `it is a program (owned by loader ${owner})`
  if (owner === SYSTEM_PROGRAM) return 'it is a wallet or system account (owned by the System Program)'
  if (owner === METAPLEX_TOKEN_METADATA_PROGRAM) return 'it is a Metaplex metadata account'
  return `the account is owned by program ${owner}, not by SPL Token or Token-2022`
}
