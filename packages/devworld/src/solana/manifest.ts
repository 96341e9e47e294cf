import type { SolanaCheckName } from 'tokenrisk/contract/checks'

/**
 * Ground truth of the local Solana world, written to `<DATA_DIR>/devnet/solana-manifest.json`
 * when it starts. Every value is what the world did through the real token programs (or wrote by
 * a published layout, where LiteSVM lacks the program): what a correct report must say.
 */
export interface SolanaManifest {
  version: 1
  rpcUrl: string
  genesisHash: string
  /**
   * The world's clock when it was ready (ISO 8601): reports measure ages and unlocks against it,
   * whenever a saved world is loaded.
   */
  readyTime: string
  /** Epoch of the world's clock (transfer-fee schedules refer to it). */
  epoch: string
  /** How the world's pools are priced: pass as the service's `pricing` option. */
  pricing: {
    stablecoins: { mint: string; symbol: string }[]
    solUsdPools: string[]
    /** USD price of SOL the reference pool encodes. */
    solUsd: number
  }
  /** Accounts that are not mints, for the 404 paths. */
  notMints: {
    /** A wallet (System Program account). */
    wallet: string
    /** A token account (of the first demo mint). */
    tokenAccount: string
    /** A program (executable). */
    program: string
    /** A Metaplex metadata account. */
    metadataAccount: string
    /** A base58 address of 32 bytes with no account. */
    empty: string
  }
  mints: SolanaManifestMint[]
}

export interface SolanaManifestHolder {
  owner: string
  tokenAccount: string
  /** Base units, decimal string. */
  balance: string
  /** The owner is a program-derived address (a pool authority or vault owner). */
  isContract: boolean
  /** The owner is a burn address. */
  isLocked: boolean
}

export interface SolanaManifestPool {
  dex: string
  address: string
  /** The pool's mints in its own order. */
  pair: [string, string]
  quoteSymbol: string
  /** Expected USD value of both sides, from the amounts and prices the world set. */
  liquidityUsd: number
  /** Expected USD price of one whole token in this pool. */
  priceUsd: number
  isPairHoneypot: '0' | '1'
  lpMint: string
  /** Percent of the pool's LP burned or held by burn addresses ("" without an LP token). */
  lpLockedPercent: string
  /** Liquidity held in positions and locked (Meteora DAMM v2): percents of the pool's, and the unlocks to come. */
  locks?: { lockedPercent: number; permanentPercent: number; vestingPercent: number; unlocks: { time: string; percent: number }[] }
  /** Percent of the LP burned, when part of the rest is in lock programs (lpLockedPercent then counts both). */
  lpBurnedPercent?: string
  /** Owners of the LP token and their percent of the LP issued, when lock programs hold some of it. */
  lpHolders?: { owner: string; percent: number }[]
  /** The locks holding the pool's LP: the locker, the LP holder it is (token account or owner), the percent of the LP still locked in it, and whether it locks. */
  lockers?: { locker: string; holder: string; lockedPercent: number; locked: boolean }[]
}

/** The launch curve the world created the mint on, as the report should read it. */
export interface SolanaManifestCurve {
  venue: string
  address: string
  /** The curve's token account (a holder outside concentration). */
  tokenVault: string
  complete: boolean
  progressPercent: number
  creator: string
  /** The pool it graduated to; "" while on its curve. */
  graduatedPool: string
}

export interface SolanaManifestMint {
  /** Stable identifier, e.g. 't22-transfer-fee'. */
  key: string
  address: string
  program: 'spl-token' | 'token-2022'
  name: string
  symbol: string
  decimals: number
  /** Base units, decimal string. */
  supply: string
  mintAuthority: string
  freezeAuthority: string
  creator: string
  creationSignature: string
  /** ISO 8601. */
  creationTime: string
  /** The creator's earlier mints, and those whose liquidity it pulled. */
  creatorHistory: {
    earlierMints: string[]
    liquidityPulled: string[]
    /** Every transaction of the creator before the creation fits the report's budget of 20. */
    complete: boolean
    /** Earlier mints (of those) that are dead: never traded, or a pump.fun curve no one bought from. */
    deadMints: string[]
    /** The creator's pump.fun curves of any age, this mint's excluded. */
    pumpCurves: { created: number; graduated: number; dead: number }
  }
  /** Who bought at launch, as the world made them buy: in the creation slot, in the first seconds, funded by the creator. */
  launch: { bundled: string[]; snipers: string[]; insiders: string[] }
  /** The launch curve; null when the mint was not launched on one. */
  curve: SolanaManifestCurve | null
  metadataSource: 'metaplex' | 'token-2022' | ''
  extensions: string[]
  /** Expected status of every Solana code check ("1" = risky capability present). */
  codeChecks: Record<SolanaCheckName, '0' | '1'>
  /** Transfer fee in basis points now, and the one scheduled ("" when none). */
  transferFee: { currentBasisPoints: string; scheduledBasisPoints: string }
  /** Whether a buyer could not sell at all (token level: non-transferable, paused, frozen by default). */
  isHoneypot: '0' | '1'
  holders: {
    /** Distinct owners with a non-zero balance. */
    count: number
    /** Every token account with a balance, largest first (equal balances in address order). */
    top: SolanaManifestHolder[]
  }
  pools: SolanaManifestPool[]
  notes: string
}

/** The local Solana's mint listed under `key`; throws when the world has none. */
export function solanaMint(manifest: Pick<SolanaManifest, 'mints'>, key: string): SolanaManifestMint {
  const found = manifest.mints.find((m) => m.key === key)
  if (!found) throw new Error(`no Solana mint ${key}`)
  return found
}
