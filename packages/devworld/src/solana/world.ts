import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import {
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  isOffCurveAddress,
  lamports,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit'
import { SOLANA_OTHER_CHECKS, SOLANA_OWNERSHIP_CHECKS, type SolanaCheckName } from 'tokenrisk/contract/checks'
import {
  BPF_LOADER_UPGRADEABLE,
  METAPLEX_TOKEN_METADATA_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CPMM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  WRAPPED_SOL_MINT,
} from 'tokenrisk/engines/solana/programs'
import { LOCAL_SOLANA_FILE } from 'tokenrisk/cli/local-worlds'
import { removeLocalFile, writeLocalSolanaFile } from '../local-chain.ts'
import * as ix from './instructions.ts'
import { SolanaLedger } from './ledger.ts'
import { readSavedSolanaWorld, savedSolanaWorldPath, saveSolanaWorld, SHARED_SOLANA_WORLD_DIR, solanaWorldKey } from './saved-world.ts'
import { idlAccountData, metaplexMetadataData, orcaWhirlpoolData, raydiumAmmV4Data, raydiumCpmmData, sqrtPriceX64 } from './layouts.ts'
import { CP_AMM_POOL, CP_AMM_POSITION, CP_AMM_VESTING, DAMM_V1_LOCK_ESCROW, DAMM_V1_POOL, DBC_POOL_CONFIG, DBC_VIRTUAL_POOL, DLMM_LB_PAIR, JUP_LOCK_VESTING_ESCROW, METEORA_VAULT_VAULT, ORCA_LOCK_CONFIG, ORCA_POSITION, PUMP_AMM_POOL, PUMP_BONDING_CURVE, PUMP_GLOBAL, RAYDIUM_CLMM_LOCKED_POSITION, RAYDIUM_CLMM_PERSONAL_POSITION, RAYDIUM_CLMM_POOL_STATE, RAYDIUM_LAUNCHLAB_CONFIG, RAYDIUM_LAUNCHLAB_POOL_STATE, RAYDIUM_LP_LOCK, STREAMFLOW_CONTRACT, type ProgramAccountLayout } from 'tokenrisk/engines/solana/venues/program-layouts'
import type { SolanaManifest, SolanaManifestCurve, SolanaManifestHolder, SolanaManifestMint, SolanaManifestPool } from './manifest.ts'
import { LOCAL_GENESIS_HASH, startSolanaRpcServer, type SolanaRpcServer, type SolanaRpcServerOptions } from './rpc-server.ts'

/**
 * The world's clock starts this long before now, so creation dates lie in the past: the mints'
 * spacing (HOURS_BETWEEN_MINTS, one hour more per mint) takes some 40 days, so the last mint is
 * still weeks old.
 */
const WORLD_AGE_SECONDS = 60 * 24 * 3600
const WORLD_START_SLOT = 300_000_000n
const WORLD_EPOCH = 700n
const LAMPORTS_PER_SOL = 1_000_000_000n
/** SOL the world's bank starts with (LiteSVM's airdrop account caps one airdrop). */
const BANK_SOL = 100_000n
/** USD price of SOL in the reference SOL/USDC pool. */
export const WORLD_SOL_USD = 150
const INCINERATOR = '1nc1nerator11111111111111111111111111111111'
const HOLDER_WALLETS = 12
/** Hours between two demo mints (plus one more per mint), so creation dates spread over days. */
const HOURS_BETWEEN_MINTS = 4
/** Whole tokens minted for every demo mint. */
const DEMO_SUPPLY_WHOLE = 1_000_000_000n
const MAX_INSTRUCTIONS_PER_TX = 8
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

type Program = 'spl-token' | 'token-2022'
type Quote = 'SOL' | 'USDC'
type Amm = 'raydium-amm-v4' | 'raydium-cpmm' | 'raydium-clmm' | 'orca-whirlpool' | 'pumpswap' | 'meteora-damm-v2' | 'meteora-dlmm' | 'raydium-launchlab' | 'meteora-dbc' | 'meteora-damm-v1'

/** pump.fun's launch parameters (whole tokens, SOL): a curve starts with these virtual reserves and sells the real ones. */
const PUMP_INITIAL_VIRTUAL_TOKENS = 1_073_000_000n
const PUMP_INITIAL_VIRTUAL_SOL = 30n
const PUMP_INITIAL_REAL_TOKENS = 793_100_000n
const PUMP_DECIMALS = 6
export const PUMP_CURVE_VENUE = 'pump.fun bonding curve'
/** Liquidity of the world's DAMM v2 pool, shared by its positions. */
const DAMM_LIQUIDITY = 1n << 64n
/** The vesting period of its locked positions. */
const LOCK_PERIOD_SECONDS = 30 * 24 * 3600
/** Liquidity of the world's Whirlpool positions together. */
const WHIRLPOOL_POSITIONS_LIQUIDITY = 1_000_000_000_000n
/** Bin step of the world's DLMM pair, basis points. */
const DLMM_BIN_STEP = 25

interface LaunchSpec {
  /** Percent of the supply still in the curve's token account (unsold, and kept for graduation); 0 once complete. */
  curvePercent: number
  complete: boolean
  /**
   * The creator funds three wallets that buy in the creation slot (a bundle), and two more buy in
   * the first seconds (snipers); without it every holder buys two minutes later (a fair launch).
   */
  bundle?: boolean
}

/**
 * A creator's earlier pump.fun launches: `oldDead` curves no one bought from, then other
 * transactions of the creator, then `graduated` complete curves (their mint traded) and `dead`
 * curves no one bought from (their mint's only transaction its creation). All within the 20
 * transactions the report reads of the creator, so that "none pulled" stays a finding.
 */
interface EarlierPumpSpec {
  oldDead: number
  graduated: number
  dead: number
}
/** Transactions of a creator between its old launches and its recent ones. */
const CREATOR_FILLER_TRANSACTIONS = 3

/** Holder wallets (by index) that buy in the creation slot, and in the first seconds, of a bundled launch. */
const BUNDLED_HOLDERS = [0, 1, 2]
const SNIPER_HOLDERS = [3, 4]
/** When the other buyers of a launch come. */
const ORGANIC_BUYERS_AFTER_SECONDS = 120
/** SOL each buyer pays into the curve (the curve's reserves are written from pump's formula afterwards). */
const BUY_LAMPORTS = 10_000_000n
/** SPL token account: the delegate option and the delegated amount. */
const TOKEN_ACCOUNT_DELEGATE = 72
const TOKEN_ACCOUNT_DELEGATED_AMOUNT = 121

/** Raydium LaunchLab's curves, as its SDK numbers them in a launchpad config's `curveType`. */
/** Bytes of an SPL Token account. */
const TOKEN_ACCOUNT_SPACE = 165
const LAUNCHLAB_CURVES = { 'constant-product': 0, fixed: 1, linear: 2 } as const
/** A LaunchLab pool's `status` once its sale completed and its liquidity migrated. */
const LAUNCHLAB_MIGRATED = 2
/** Where a completed curve migrates, as a LaunchLab pool's `migrateType` and a DBC config's `migration_option` number it. */
const LAUNCHLAB_MIGRATE_TYPES: Partial<Record<Amm, number>> = { 'raydium-amm-v4': 0, 'raydium-cpmm': 1 }
const DBC_MIGRATION_OPTIONS: Partial<Record<Amm, number>> = { 'meteora-damm-v1': 0, 'meteora-damm-v2': 1 }
function migrationCode(codes: Partial<Record<Amm, number>>, g: { launchpad: Amm; to: Amm }): number {
  const code = codes[g.to]
  if (code === undefined) throw new Error(`a ${g.launchpad} curve does not migrate to ${g.to}`)
  return code
}
type LaunchLabCurve = keyof typeof LAUNCHLAB_CURVES

interface PoolSpec {
  amm: Amm
  quote: Quote
  /** Share of the supply put in the pool, percent. */
  tokenPercent: number
  /** Quote tokens (whole) put in the pool. */
  quoteWhole: number
  /** For Whirlpools: price of one whole token in quote tokens. */
  price?: number
  /** Percent of the LP tokens burned through the token program. */
  lpBurnPercent?: number
  /** The freeze authority freezes the pool's token vault (the pool can no longer pay out). */
  freezeVault?: boolean
  /** LP tokens the creator puts in lock programs (after the burn). */
  lpLocks?: LpLockSpec[]
  /** Launchpad curves found by search: the percent of the supply sold, the curve's virtual tokens (LaunchLab), the quote to raise before migrating (DBC). */
  curve?: { soldPercent?: number; virtualTokenPercent?: number; migrationQuoteWhole?: number; launchLabCurve?: LaunchLabCurve }
  /** Meteora DAMM v1: a stable pool with this amplification (constant product without). */
  stableAmp?: number
  /** Whirlpools: positions holding the pool's liquidity, percent each, by owner (holder wallets by index), and whether the program locks it. */
  positions?: { owner: 'creator' | number; percent: number; locked?: boolean }[]
}

/**
 * LP tokens in a lock program, percent of the LP issued: for good (Raydium's LP lock), or on a
 * schedule counted in days from now (Streamflow, Jupiter Lock): `cliffPercent` of the lock at the
 * cliff, the rest in `periods` equal steps `periodDays` apart. A lock its sender can cancel, or
 * whose unlocks are all past, locks nothing.
 */
interface LpLockSpec {
  locker: 'raydium' | 'streamflow' | 'jupiter' | 'meteora-damm-v1'
  percent: number
  cliffDays?: number
  cliffPercent?: number
  periods?: number
  periodDays?: number
  cancelable?: boolean
}

interface MintSpec {
  key: string
  program: Program
  name: string
  symbol: string
  decimals: number
  metadata: 'metaplex' | 'metaplex-mutable' | 'embedded' | 'embedded-mutable' | 'none'
  keepMintAuthority?: boolean
  freezeAuthority?: boolean
  transferFee?: { basisPoints: number; maximumFeeWhole: bigint; modifiable: boolean; scheduleBasisPoints?: number }
  closeAuthority?: boolean
  confidential?: boolean
  defaultFrozen?: boolean
  nonTransferable?: boolean
  interestRate?: number
  permanentDelegate?: boolean
  transferHook?: { modifiable: boolean; program: 'upgradeable' | 'immutable' }
  scaledUiMultiplier?: number
  pausable?: { paused: boolean }
  /** Send part of the supply to the incinerator. */
  burnHolderPercent?: number
  pool?: PoolSpec
  /** A second, shallower pool of another exchange (its vaults its own). */
  secondPool?: PoolSpec
  /** Launched on a pump.fun bonding curve. */
  launch?: LaunchSpec
  /**
   * Launched on a launchpad curve that completed: it raised this much quote (whole), sold out and
   * migrated to its pool of exchange `to` (the curve's own settings name it: a LaunchLab pool's
   * `migrateType`, a DBC config's `migration_option`).
   */
  graduated?: { launchpad: 'meteora-dbc' | 'raydium-launchlab'; migrationQuoteWhole: number; to: Amm }
  /** Before this mint, the creator made another one, pooled it and pulled its liquidity. */
  pulledEarlier?: boolean
  /** Before this mint, the creator launched pump.fun curves: some long ago (past the report's window of its transactions), some just before. */
  earlierPump?: EarlierPumpSpec
  expect: Partial<Record<SolanaCheckName, '1'>>
  notes: string
}

/** The demo mints: each check present in at least one, absent in the others. */
export const SOLANA_WORLD_MINTS: readonly MintSpec[] = [
  {
    key: 'clean-spl', program: 'spl-token', name: 'Clean Coin', symbol: 'CLEAN', decimals: 9, metadata: 'metaplex', burnHolderPercent: 5,
    pool: { amm: 'raydium-cpmm', quote: 'SOL', tokenPercent: 30, quoteWhole: 2_000, lpBurnPercent: 90 },
    expect: {}, notes: 'SPL Token, every authority revoked, immutable Metaplex metadata, CPMM pool with 90 % of the LP burned',
  },
  { key: 'mintable-spl', program: 'spl-token', name: 'Mintable Coin', symbol: 'MINT', decimals: 6, metadata: 'metaplex', keepMintAuthority: true, expect: { isMintable: '1' }, notes: 'the creator keeps the mint authority' },
  {
    key: 'freezable-spl', program: 'spl-token', name: 'Freezable Coin', symbol: 'FRZ', decimals: 6, metadata: 'metaplex', freezeAuthority: true,
    pool: { amm: 'raydium-amm-v4', quote: 'USDC', tokenPercent: 20, quoteWhole: 50_000, freezeVault: true },
    expect: { isFreezable: '1', frozenHolders: '1' }, notes: 'the creator keeps the freeze authority and has frozen the pool vault: a honeypot pool',
  },
  { key: 'mutable-metadata-spl', program: 'spl-token', name: 'Mutable Name', symbol: 'MUT', decimals: 9, metadata: 'metaplex-mutable', expect: { metadataMutable: '1' }, notes: 'Metaplex metadata left mutable' },
  {
    key: 't22-clean', program: 'token-2022', name: 'Clean Extensions', symbol: 'T22', decimals: 6, metadata: 'embedded',
    pool: { amm: 'orca-whirlpool', quote: 'USDC', tokenPercent: 10, quoteWhole: 25_000, price: 0.0004 },
    expect: {}, notes: 'Token-2022 with embedded, immutable metadata only; Orca Whirlpool against USDC',
  },
  { key: 't22-mutable-metadata', program: 'token-2022', name: 'Embedded Mutable', symbol: 'EMUT', decimals: 6, metadata: 'embedded-mutable', expect: { metadataMutable: '1' }, notes: 'embedded metadata with an update authority' },
  {
    key: 't22-transfer-fee', program: 'token-2022', name: 'Taxed Coin', symbol: 'TAX', decimals: 9, metadata: 'embedded',
    transferFee: { basisPoints: 250, maximumFeeWhole: 1_000_000n, modifiable: true, scheduleBasisPoints: 1000 },
    pool: { amm: 'raydium-amm-v4', quote: 'SOL', tokenPercent: 25, quoteWhole: 500, lpBurnPercent: 0 },
    expect: { transferFeeModifiable: '1', hasTransferFee: '1' }, notes: '2.5 % transfer fee now, 10 % scheduled two epochs ahead; the LP is not burned',
  },
  {
    key: 't22-fixed-fee', program: 'token-2022', name: 'Fixed Fee Coin', symbol: 'FIX', decimals: 9, metadata: 'embedded',
    transferFee: { basisPoints: 100, maximumFeeWhole: 10_000n, modifiable: false }, expect: { hasTransferFee: '1' }, notes: '1 % transfer fee that no one can change',
  },
  { key: 't22-permanent-delegate', program: 'token-2022', name: 'Delegated Coin', symbol: 'DLG', decimals: 6, metadata: 'embedded', permanentDelegate: true, expect: { ownerChangeBalance: '1' }, notes: 'a permanent delegate can move any balance' },
  {
    key: 't22-hook-upgradeable', program: 'token-2022', name: 'Hooked Coin', symbol: 'HOOK', decimals: 6, metadata: 'embedded', transferHook: { modifiable: true, program: 'upgradeable' },
    expect: { externalCall: '1', transferHookModifiable: '1', transferHookUpgradeable: '1' }, notes: 'transfer hook whose program and authority can both change',
  },
  {
    key: 't22-hook-immutable', program: 'token-2022', name: 'Fixed Hook Coin', symbol: 'FHOOK', decimals: 6, metadata: 'embedded', transferHook: { modifiable: false, program: 'immutable' },
    expect: { externalCall: '1' }, notes: 'transfer hook fixed for good: immutable program, no hook authority',
  },
  { key: 't22-non-transferable', program: 'token-2022', name: 'Soulbound', symbol: 'SOUL', decimals: 0, metadata: 'embedded', nonTransferable: true, expect: { nonTransferable: '1' }, notes: 'non-transferable (soulbound)' },
  {
    key: 't22-default-frozen', program: 'token-2022', name: 'Allow List Coin', symbol: 'ALLOW', decimals: 6, metadata: 'embedded', defaultFrozen: true, freezeAuthority: true,
    expect: { defaultAccountFrozen: '1', isFreezable: '1' }, notes: 'new accounts start frozen; the freeze authority thaws the ones it allows',
  },
  { key: 't22-pausable', program: 'token-2022', name: 'Pausable Coin', symbol: 'PAUS', decimals: 6, metadata: 'embedded', pausable: { paused: false }, expect: { transferPausable: '1' }, notes: 'a pause authority exists; not paused' },
  { key: 't22-paused', program: 'token-2022', name: 'Paused Coin', symbol: 'STOP', decimals: 6, metadata: 'embedded', pausable: { paused: true }, expect: { transferPausable: '1', isPaused: '1' }, notes: 'paused: no transfers at all' },
  { key: 't22-close-authority', program: 'token-2022', name: 'Closable Mint', symbol: 'CLOSE', decimals: 6, metadata: 'embedded', closeAuthority: true, expect: { mintClosable: '1' }, notes: 'the mint can be closed' },
  { key: 't22-confidential', program: 'token-2022', name: 'Confidential Coin', symbol: 'CONF', decimals: 6, metadata: 'embedded', confidential: true, expect: { confidentialTransfers: '1' }, notes: 'confidential transfers enabled' },
  { key: 't22-interest-bearing', program: 'token-2022', name: 'Interest Coin', symbol: 'INT', decimals: 6, metadata: 'embedded', interestRate: 500, expect: { balanceDisplayModifiable: '1' }, notes: 'interest-bearing display with a rate authority' },
  { key: 't22-scaled-ui', program: 'token-2022', name: 'Scaled Coin', symbol: 'SCALE', decimals: 6, metadata: 'embedded', scaledUiMultiplier: 1.5, expect: { balanceDisplayModifiable: '1' }, notes: 'UI multiplier with an authority' },
  {
    key: 'raydium-clmm', program: 'spl-token', name: 'Range Coin', symbol: 'RNG', decimals: 9, metadata: 'metaplex',
    pool: { amm: 'raydium-clmm', quote: 'USDC', tokenPercent: 18, quoteWhole: 40_000, price: 0.0003 },
    expect: {}, notes: 'trades in a Raydium CLMM pool against USDC',
  },
  {
    key: 'serial-creator', program: 'spl-token', name: 'Second Try', symbol: 'AGAIN', decimals: 6, metadata: 'metaplex', pulledEarlier: true,
    expect: { creatorRugHistory: '1' }, notes: 'its creator launched a token before and took that token and its SOL back out of the pool',
  },
  {
    key: 'look-alike-usdc', program: 'spl-token', name: 'USD Coin', symbol: 'USDC', decimals: 6, metadata: 'metaplex',
    expect: { lookAlike: '1' }, notes: 'takes the symbol of the stablecoin the world prices in, but is another mint',
  },
  {
    key: 'usdc-rewards', program: 'spl-token', name: 'USDC Rewards', symbol: 'USDCR', decimals: 6, metadata: 'metaplex',
    expect: {}, notes: 'a name that recalls a well-known token without taking its symbol or name: not a look-alike',
  },
  {
    key: 'pump-curve', program: 'spl-token', name: 'Curve Coin', symbol: 'CURVE', decimals: PUMP_DECIMALS, metadata: 'metaplex', launch: { curvePercent: 60, complete: false, bundle: true },
    expect: { bundledLaunch: '1', snipedLaunch: '1' },
    notes: 'launched on a pump.fun bonding curve, about half of it sold, trading on the curve only; three creator-funded wallets bought in the creation slot and two sniped in the first seconds',
  },
  {
    key: 'pump-fair', program: 'spl-token', name: 'Fair Coin', symbol: 'FAIR', decimals: PUMP_DECIMALS, metadata: 'metaplex', launch: { curvePercent: 60, complete: false },
    expect: {}, notes: 'the fair-launch twin: the same curve, every buyer two minutes after the creation, none funded by the creator',
  },
  {
    key: 'pump-graduated', program: 'spl-token', name: 'Graduated Coin', symbol: 'GRAD', decimals: PUMP_DECIMALS, metadata: 'metaplex', launch: { curvePercent: 0, complete: true },
    pool: { amm: 'pumpswap', quote: 'SOL', tokenPercent: 21, quoteWhole: 85, lpBurnPercent: 99 },
    expect: {}, notes: 'pump.fun curve complete; graduated to a PumpSwap pool whose LP is 99 % burned',
  },
  {
    key: 'meteora-dlmm', program: 'spl-token', name: 'Bin Coin', symbol: 'BIN', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'meteora-dlmm', quote: 'USDC', tokenPercent: 15, quoteWhole: 30_000, price: 0.0002 },
    expect: {}, notes: 'trades in a Meteora DLMM pair against USDC',
  },
  {
    key: 'meteora-damm-v2', program: 'token-2022', name: 'Dynamic Coin', symbol: 'DYN', decimals: 9, metadata: 'embedded',
    pool: { amm: 'meteora-damm-v2', quote: 'SOL', tokenPercent: 12, quoteWhole: 400, price: 0.000004 },
    expect: {}, notes: 'Token-2022 trading in a Meteora DAMM v2 pool against SOL',
  },
  {
    key: 'lp-lockers', program: 'spl-token', name: 'Locked Coin', symbol: 'LOCKD', decimals: 6, metadata: 'metaplex',
    pool: {
      amm: 'raydium-cpmm', quote: 'USDC', tokenPercent: 25, quoteWhole: 90_000, lpBurnPercent: 10,
      lpLocks: [
        { locker: 'raydium', percent: 20 },
        { locker: 'streamflow', percent: 20, cliffDays: 20, cliffPercent: 50, periods: 2, periodDays: 30 },
        { locker: 'jupiter', percent: 20, cliffDays: 90, cliffPercent: 100 },
        { locker: 'streamflow', percent: 10, cliffDays: 10, cliffPercent: 100, cancelable: true },
        { locker: 'jupiter', percent: 10, cliffDays: -5, cliffPercent: 100 },
      ],
    },
    expect: {},
    notes: 'CPMM pool against USDC (the CPMM vaults of SOL are shared with clean-spl\'s pool) whose LP is 10 % burned, 20 % in Raydium\'s LP lock, 20 % vesting in Streamflow and 20 % in Jupiter Lock; its twins: 10 % in a Streamflow lock its sender can cancel and 10 % in a Jupiter Lock whose unlock is past (neither locks anything)',
  },  {
    key: 'orca-positions', program: 'spl-token', name: 'Position Coin', symbol: 'POS', decimals: 6, metadata: 'metaplex',
    pool: {
      amm: 'orca-whirlpool', quote: 'USDC', tokenPercent: 12, quoteWhole: 24_000, price: 0.0002,
      positions: [{ owner: 'creator', percent: 50 }, { owner: 0, percent: 30 }, { owner: 1, percent: 20, locked: true }],
    },
    expect: {}, notes: 'Orca Whirlpool whose liquidity is in three positions: the creator\'s half, a holder\'s 30 %, and 20 % another holder locked for good',
  },  {
    key: 'launchlab-curve', program: 'spl-token', name: 'Lab Coin', symbol: 'LAB', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'raydium-launchlab', quote: 'SOL', tokenPercent: 40, quoteWhole: 10, curve: { soldPercent: 20, virtualTokenPercent: 80 } },
    expect: {}, notes: 'on a Raydium LaunchLab curve: a third of its sale sold, trading there only',
  },
  {
    key: 'launchlab-fixed', program: 'spl-token', name: 'Fixed Lab Coin', symbol: 'FLAB', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'raydium-launchlab', quote: 'SOL', tokenPercent: 50, quoteWhole: 25, curve: { soldPercent: 10, launchLabCurve: 'fixed' } },
    expect: {}, notes: 'on a Raydium LaunchLab fixed-price curve: every token sold at the price 25 SOL bought 10 % of the supply at',
  },
  {
    key: 'launchlab-linear', program: 'spl-token', name: 'Linear Lab Coin', symbol: 'LLAB', decimals: 3, metadata: 'metaplex',
    pool: { amm: 'raydium-launchlab', quote: 'USDC', tokenPercent: 50, quoteWhole: 4_000, curve: { soldPercent: 20, launchLabCurve: 'linear' } },
    expect: {}, notes: 'on a Raydium LaunchLab linear-price curve against USDC: 20 % of the supply sold for 4,000 USDC, its price now twice the average paid (3 decimals: the curve\'s Q64.64 slope per base unit keeps seven digits)',
  },
  {
    key: 'dbc-curve', program: 'spl-token', name: 'Dynamic Curve Coin', symbol: 'DBCC', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'meteora-dbc', quote: 'USDC', tokenPercent: 45, quoteWhole: 12_000, price: 0.00003, curve: { migrationQuoteWhole: 40_000 } },
    expect: {}, notes: 'on a Meteora DBC curve against USDC, 30 % of the way to its migration threshold',
  },
  {
    key: 'second-pool-locked', program: 'spl-token', name: 'Two Pool Coin', symbol: 'TWOP', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'pumpswap', quote: 'SOL', tokenPercent: 20, quoteWhole: 100, lpBurnPercent: 99 },
    secondPool: {
      amm: 'orca-whirlpool', quote: 'USDC', tokenPercent: 5, quoteWhole: 5_000, price: 0.000075,
      positions: [{ owner: 'creator', percent: 60 }, { owner: 0, percent: 40, locked: true }],
    },
    expect: {}, notes: 'its deepest pool a PumpSwap pool whose LP is 99 % burned; a shallower Orca Whirlpool beside it, 40 % of whose liquidity a holder locked for good: the locks of both pools are read',
  },
  {
    key: 'dbc-graduated', program: 'spl-token', name: 'Graduated Curve Coin', symbol: 'DGRAD', decimals: 6, metadata: 'metaplex',
    graduated: { launchpad: 'meteora-dbc', migrationQuoteWhole: 40_000, to: 'meteora-damm-v2' },
    pool: { amm: 'meteora-damm-v2', quote: 'USDC', tokenPercent: 20, quoteWhole: 40_000, price: 0.0002 },
    expect: {}, notes: 'the twin of dbc-curve whose Meteora DBC curve completed: it migrated to a Meteora DAMM v2 pool against USDC, where it trades; the curve is graduated, not a pool',
  },
  {
    key: 'launchlab-graduated', program: 'spl-token', name: 'Graduated Lab Coin', symbol: 'GLAB', decimals: 6, metadata: 'metaplex',
    graduated: { launchpad: 'raydium-launchlab', migrationQuoteWhole: 85, to: 'raydium-amm-v4' },
    pool: { amm: 'raydium-cpmm', quote: 'SOL', tokenPercent: 20, quoteWhole: 300 },
    secondPool: { amm: 'raydium-amm-v4', quote: 'SOL', tokenPercent: 8, quoteWhole: 85 },
    expect: {}, notes: 'the twin of launchlab-curve whose Raydium LaunchLab sale completed and migrated to a Raydium AMM v4 pool, as its curve says; a deeper Raydium CPMM pool opened beside it later is not where it graduated',
  },  {
    key: 'meteora-damm-v1', program: 'spl-token', name: 'Vault Coin', symbol: 'VLT', decimals: 6, metadata: 'metaplex',
    pool: { amm: 'meteora-damm-v1', quote: 'SOL', tokenPercent: 16, quoteWhole: 300, lpLocks: [{ locker: 'meteora-damm-v1', percent: 40 }] },
    expect: {}, notes: 'trades in a Meteora DAMM v1 pool against SOL, its reserves its half of two Meteora vaults; 40 % of its LP locked for good in the pool\'s lock escrow, the rest the creator\'s',
  },
  {
    key: 'meteora-damm-v1-stable', program: 'spl-token', name: 'Vault Peg Dollar', symbol: 'VPD', decimals: 9, metadata: 'metaplex',
    pool: { amm: 'meteora-damm-v1', quote: 'USDC', tokenPercent: 1, quoteWhole: 6_000_000, stableAmp: 100 },
    expect: {}, notes: 'trades in a Meteora DAMM v1 stable pool (amplification 100, token multipliers for 9 and 6 decimals) against USDC: 10 M tokens against 6 M USDC price it near 1 USDC, not the 0.6 its reserves\' ratio says; its LP the creator\'s, none locked',
  },  {
    key: 'serial-pump-creator', program: 'spl-token', name: 'Third Launch', symbol: 'THIRD', decimals: 6, metadata: 'metaplex', earlierPump: { oldDead: 2, graduated: 1, dead: 2 },
    expect: {}, notes: 'its creator launched five pump.fun curves before: four no one bought from (two of them earlier, before other transactions), one that graduated; none rugged',
  },  {
    key: 'raydium-clmm-locked', program: 'spl-token', name: 'Burnt Range Coin', symbol: 'BRNG', decimals: 9, metadata: 'metaplex',
    pool: {
      amm: 'raydium-clmm', quote: 'USDC', tokenPercent: 14, quoteWhole: 35_000, price: 0.00025,
      positions: [{ owner: 'creator', percent: 40 }, { owner: 2, percent: 20 }, { owner: 'creator', percent: 40, locked: true }],
    },
    expect: {}, notes: 'Raydium CLMM pool whose liquidity is in three positions: the creator\'s 40 %, a holder\'s 20 %, and 40 % the creator put in Raydium\'s LP lock (Burn & Earn) for good',
  },
]

export interface SolanaWorld {
  ledger: SolanaLedger
  manifest: Omit<SolanaManifest, 'rpcUrl'>
}

/** A keypair derived from a name: the world's addresses are the same on every start. */
async function namedSigner(name: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(createHash('sha256').update(`tokenrisk solana world: ${name}`).digest())
}

const programId = (p: Program) => (p === 'spl-token' ? TOKEN_PROGRAM : TOKEN_2022_PROGRAM)
const enc = getAddressEncoder()
const compareAddresses = (a: string, b: string) => Buffer.compare(Buffer.from(enc.encode(a as Address)), Buffer.from(enc.encode(b as Address)))

/**
 * Builds the world in a fresh LiteSVM: quote tokens, a SOL/USDC reference pool, one demo mint per
 * spec (created, distributed, pooled through the real programs) and its manifest.
 */
export async function buildSolanaWorld(options: { now?: number } = {}): Promise<SolanaWorld> {
  const startUnixTime = Math.floor((options.now ?? Date.now()) / 1000) - WORLD_AGE_SECONDS
  const ledger = new SolanaLedger({ startUnixTime, startSlot: WORLD_START_SLOT, epoch: WORLD_EPOCH })
  const svm = ledger.svm
  const bank = await namedSigner('bank')
  if (!svm.airdrop(bank.address, lamports(BANK_SOL * LAMPORTS_PER_SOL)) || svm.getBalance(bank.address) === null) throw new Error('LiteSVM refused the airdrop to the world bank')
  const fund = async (signer: KeyPairSigner, sol: bigint) => {
    await ledger.send(bank, [ix.transferSol(bank, signer.address, sol * LAMPORTS_PER_SOL)])
  }
  const send = async (payer: KeyPairSigner, instructions: Instruction[]) => {
    for (let i = 0; i < instructions.length; i += MAX_INSTRUCTIONS_PER_TX) await ledger.send(payer, instructions.slice(i, i + MAX_INSTRUCTIONS_PER_TX))
  }
  const rent = (size: number) => svm.minimumBalanceForRentExemption(BigInt(size))
  const holders = await Promise.all(Array.from({ length: HOLDER_WALLETS }, (_, i) => namedSigner(`holder ${i + 1}`)))
  const lpOperator = await namedSigner('lp operator')
  await fund(lpOperator, 100n)
  const curveOperator = await namedSigner('pump curve operator')

  const ata = async (payer: KeyPairSigner, owner: Address, mint: Address, program: string) => {
    const address = await ix.findAssociatedTokenAddress(owner, mint, program)
    if (!svm.getAccount(address).exists) await ledger.send(payer, [ix.createAssociatedTokenAccountIdempotent(payer, address, owner, mint, program)])
    return address
  }

  /**
   * The config account a launchpad curve names (a LaunchLab pool's, a DBC pool's), with its fields, at
   * an address derived from the pool (the real programs' configs are shared; one per pool here).
   */
  const curveConfig = async (layout: ProgramAccountLayout, seed: string, pool: Address, fields: Record<string, string | bigint | number | boolean>): Promise<Address> => {
    const [config] = await getProgramDerivedAddress({ programAddress: layout.program as Address, seeds: [new TextEncoder().encode(seed), enc.encode(pool)] })
    setProgramAccount(ledger, config, layout.program, idlAccountData(layout, fields))
    return config
  }

  /** A token account (SPL Token) of `mint` held by `owner`, at an address of its own named by `name`. */
  const ownTokenAccount = async (name: string, owner: Address, mint: Address): Promise<Address> => {
    const account = await namedSigner(name)
    await ledger.send(lpOperator, [ix.createAccount(lpOperator, account, rent(TOKEN_ACCOUNT_SPACE), TOKEN_ACCOUNT_SPACE, TOKEN_PROGRAM), ix.initializeAccount3(TOKEN_PROGRAM, account.address, mint, owner)])
    return account.address
  }

  // Quote side: a local USDC (SPL Token, 6 decimals) and a WSOL/USDC Whirlpool pricing SOL.
  const usdcAuthority = await namedSigner('usdc authority')
  await fund(usdcAuthority, 10n)
  const usdc = await namedSigner('usdc mint')
  await ledger.send(usdcAuthority, [
    ix.createAccount(usdcAuthority, usdc, rent(82), 82, TOKEN_PROGRAM),
    ix.initializeMint2(TOKEN_PROGRAM, usdc.address, 6, usdcAuthority.address, null),
  ])
  await setMetaplex(ledger, usdc.address, { updateAuthority: usdcAuthority.address, name: 'USD Coin (local)', symbol: 'USDC', uri: '', isMutable: false })
  const mintUsdc = async (to: Address, whole: number) => ledger.send(usdcAuthority, [ix.mintTo(TOKEN_PROGRAM, usdc.address, to, usdcAuthority, BigInt(Math.round(whole * 1e6)))])
  const wrapSol = async (payer: KeyPairSigner, account: Address, whole: number) =>
    ledger.send(payer, [ix.transferSol(payer, account, BigInt(Math.round(whole * 1e9))), ix.syncNative(TOKEN_PROGRAM, account)])

  const poolAddress = async (amm: Amm, a: string, b: string): Promise<Address> => {
    const [pda] = await getProgramDerivedAddress({
      programAddress: ammProgram(amm) as Address,
      seeds: [new TextEncoder().encode('tokenrisk pool'), enc.encode(a as Address), enc.encode(b as Address)],
    })
    return pda
  }
  const poolAuthority = async (amm: Amm, pool: Address): Promise<Address> => {
    if (amm === 'orca-whirlpool' || amm === 'raydium-clmm' || amm === 'pumpswap' || amm === 'meteora-damm-v2' || amm === 'meteora-dlmm' || LAUNCHPAD_CURVES.includes(amm) || amm === 'meteora-damm-v1') return pool
    const seed = amm === 'raydium-cpmm' ? 'vault_and_lp_mint_auth_seed' : 'amm authority'
    const [pda] = await getProgramDerivedAddress({ programAddress: ammProgram(amm) as Address, seeds: [new TextEncoder().encode(seed)] })
    return pda
  }

  const solUsdPool = await (async () => {
    const [mintA, mintB] = [WRAPPED_SOL_MINT, usdc.address].sort(compareAddresses)
    const pool = await poolAddress('orca-whirlpool', mintA, mintB)
    const vaultSol = await ata(bank, pool, WRAPPED_SOL_MINT as Address, TOKEN_PROGRAM)
    const vaultUsdc = await ata(bank, pool, usdc.address, TOKEN_PROGRAM)
    await wrapSol(bank, vaultSol, 1_000)
    await mintUsdc(vaultUsdc, 1_000 * WORLD_SOL_USD)
    const solIsA = mintA === WRAPPED_SOL_MINT
    const priceBPerA = solIsA ? WORLD_SOL_USD : 1 / WORLD_SOL_USD
    const data = orcaWhirlpoolData({
      mintA, mintB, vaultA: solIsA ? vaultSol : vaultUsdc, vaultB: solIsA ? vaultUsdc : vaultSol,
      decimalsA: solIsA ? 9 : 6, decimalsB: solIsA ? 6 : 9, sqrtPriceX64: sqrtPriceX64(priceBPerA, solIsA ? 9 : 6, solIsA ? 6 : 9),
    })
    setProgramAccount(ledger, pool, ORCA_WHIRLPOOL_PROGRAM, data)
    return pool
  })()

  // Transfer-hook programs: the SPL Memo program's code deployed twice through the upgradeable loader.
  const hookAuthority = await namedSigner('hook program authority')
  await fund(hookAuthority, 100n)
  const upgradeableHook = await deployUpgradeable(ledger, hookAuthority, await namedSigner('hook program upgradeable'), rent)
  const immutableHook = await deployUpgradeable(ledger, hookAuthority, await namedSigner('hook program immutable'), rent)
  {
    const programData = await ix.findProgramDataAddress(immutableHook)
    await ledger.send(hookAuthority, [ix.loaderSetAuthority(programData, hookAuthority, null)])
  }

  const mints: SolanaManifestMint[] = []
  /** Launchpad curves found by search (LaunchLab, DBC) by mint, for the mint's truth. */
  const searchedCurves = new Map<Address, SolanaManifestCurve>()
  for (const [index, spec] of SOLANA_WORLD_MINTS.entries()) {
    ledger.advance(3600 * (HOURS_BETWEEN_MINTS + index))
    mints.push(await buildMint(spec))
  }

  /** The curve of a mint launched on pump.fun and its token account. */
  async function launchAccounts(mint: Address, program: string): Promise<{ curve: Address; tokenVault: Address }> {
    const [curve] = await getProgramDerivedAddress({ programAddress: PUMP_BONDING_CURVE.program as Address, seeds: [new TextEncoder().encode('bonding-curve'), enc.encode(mint)] })
    return { curve, tokenVault: await ix.findAssociatedTokenAddress(curve, mint, program) }
  }

  /**
   * The pump.fun program pays buyers out of the curve's token account; LiteSVM has no pump.fun,
   * so the world's curve operator is made the account's delegate and signs the payouts: real
   * token-program transfers out of the curve, as buys look on chain.
   */
  function delegateCurveVault(vault: Address, operator: Address): void {
    const account = svm.getAccount(vault)
    if (!account.exists) throw new Error(`curve vault ${vault} missing`)
    const data = new Uint8Array(account.data)
    const view = new DataView(data.buffer, data.byteOffset)
    view.setUint32(TOKEN_ACCOUNT_DELEGATE, 1, true)
    data.set(enc.encode(operator), TOKEN_ACCOUNT_DELEGATE + 4)
    view.setBigUint64(TOKEN_ACCOUNT_DELEGATED_AMOUNT, 2n ** 64n - 1n, true)
    ledger.setAccount({ address: vault, data, executable: false, lamports: account.lamports, programAddress: account.programAddress, space: BigInt(data.length) })
  }

  /**
   * A creator's earlier pump.fun launches (EarlierPumpSpec): each a mint the creator initialises
   * and its curve at ["bonding-curve", mint] written from pump's layout, complete or bought from by
   * no one. Returns the truth: the mints within the report's window (newest first), the dead ones
   * among them, and every curve of the creator.
   */
  async function launchEarlierPumpMints(spec: MintSpec, e: EarlierPumpSpec, creator: KeyPairSigner): Promise<{ inWindow: string[]; dead: string[]; windowFull: boolean; pumpCurves: { created: number; graduated: number; dead: number } }> {
    const launch = async (label: string, complete: boolean) => {
      const m = await namedSigner(`${spec.key} earlier pump ${label}`)
      await ledger.send(creator, [ix.createAccount(creator, m, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, m.address, PUMP_DECIMALS, creator.address, null)])
      const [curve] = await getProgramDerivedAddress({ programAddress: PUMP_BONDING_CURVE.program as Address, seeds: [new TextEncoder().encode('bonding-curve'), enc.encode(m.address)] })
      const unit = 10n ** BigInt(PUMP_DECIMALS)
      setProgramAccount(ledger, curve, PUMP_BONDING_CURVE.program, idlAccountData(PUMP_BONDING_CURVE, {
        virtual_token_reserves: PUMP_INITIAL_VIRTUAL_TOKENS * unit, virtual_quote_reserves: PUMP_INITIAL_VIRTUAL_SOL * LAMPORTS_PER_SOL,
        real_token_reserves: complete ? 0n : PUMP_INITIAL_REAL_TOKENS * unit, real_quote_reserves: 0n, token_total_supply: DEMO_SUPPLY_WHOLE * unit,
        complete, creator: creator.address, quote_mint: WRAPPED_SOL_MINT,
      }))
      if (complete) {
        // A graduated token traded: a second transaction of its mint.
        const account = await ata(creator, creator.address, m.address, TOKEN_PROGRAM)
        await ledger.send(creator, [ix.mintTo(TOKEN_PROGRAM, m.address, account, creator, unit)])
      }
      return m.address
    }
    const old: string[] = []
    for (let i = 0; i < e.oldDead; i++) old.push(await launch(`old ${i}`, false))
    const elsewhere = await namedSigner(`${spec.key} creator's other wallet`)
    for (let i = 0; i < CREATOR_FILLER_TRANSACTIONS; i++) await ledger.send(creator, [ix.transferSol(creator, elsewhere.address, LAMPORTS_PER_SOL / 100n)])
    const graduated: string[] = []
    const dead: string[] = []
    for (let i = 0; i < e.graduated; i++) graduated.push(await launch(`graduated ${i}`, true))
    for (let i = 0; i < e.dead; i++) dead.push(await launch(`dead ${i}`, false))
    return {
      inWindow: [...old, ...graduated, ...dead].reverse(),
      dead: [...old, ...dead].reverse(),
      windowFull: false,
      pumpCurves: { created: e.oldDead + e.graduated + e.dead, graduated: e.graduated, dead: e.oldDead + e.dead },
    }
  }

  /**
   * A creator's earlier token whose liquidity it pulled: a mint, a pool's two vaults (owned by a
   * program address, the world's operator their delegate as for the curves) holding the token and
   * wrapped SOL, then one transaction of the creator taking both out.
   */
  async function pullEarlierMint(spec: MintSpec, creator: KeyPairSigner): Promise<string> {
    const earlier = await namedSigner(`${spec.key} earlier mint`)
    await ledger.send(creator, [ix.createAccount(creator, earlier, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, earlier.address, 6, creator.address, null)])
    const [authority] = await getProgramDerivedAddress({ programAddress: RAYDIUM_CPMM_PROGRAM as Address, seeds: [new TextEncoder().encode('tokenrisk pulled pool'), enc.encode(earlier.address)] })
    const tokenVault = await ata(creator, authority, earlier.address, TOKEN_PROGRAM)
    const solVault = await ata(creator, authority, WRAPPED_SOL_MINT as Address, TOKEN_PROGRAM)
    const tokens = 500_000_000n * 10n ** 6n
    await ledger.send(creator, [ix.mintTo(TOKEN_PROGRAM, earlier.address, tokenVault, creator, tokens)])
    await wrapSol(bank, solVault, 20)
    delegateCurveVault(tokenVault, curveOperator.address)
    delegateCurveVault(solVault, curveOperator.address)
    const creatorTokens = await ata(creator, creator.address, earlier.address, TOKEN_PROGRAM)
    const creatorSol = await ata(creator, creator.address, WRAPPED_SOL_MINT as Address, TOKEN_PROGRAM)
    await ledger.send(creator, [
      ix.transferChecked(TOKEN_PROGRAM, tokenVault, earlier.address, creatorTokens, curveOperator, tokens, 6),
      ix.transferChecked(TOKEN_PROGRAM, solVault, WRAPPED_SOL_MINT as Address, creatorSol, curveOperator, 20n * LAMPORTS_PER_SOL, 9),
    ])
    return earlier.address
  }

  async function buildMint(spec: MintSpec): Promise<SolanaManifestMint> {
    const program = programId(spec.program)
    const creator = await namedSigner(`${spec.key} creator`)
    await fund(creator, 50n)
    const mintSigner = await namedSigner(`${spec.key} mint`)
    const mint = mintSigner.address
    const delegate = await namedSigner(`${spec.key} delegate`)
    const embedded = spec.metadata === 'embedded' || spec.metadata === 'embedded-mutable'

    // 1. The mint and its extensions, in one transaction paid by the creator.
    const extensions: ix.MintExtensionName[] = []
    const init: Instruction[] = []
    if (spec.transferFee) {
      extensions.push('TransferFeeConfig')
      init.push(ix.initializeTransferFeeConfig(mint, spec.transferFee.modifiable ? creator.address : null, creator.address, spec.transferFee.basisPoints, spec.transferFee.maximumFeeWhole * 10n ** BigInt(spec.decimals)))
    }
    if (spec.closeAuthority) {
      extensions.push('MintCloseAuthority')
      init.push(ix.initializeMintCloseAuthority(mint, creator.address))
    }
    if (spec.confidential) {
      extensions.push('ConfidentialTransferMint')
      init.push(ix.initializeConfidentialTransferMint(mint, creator.address, true))
    }
    if (spec.defaultFrozen) {
      extensions.push('DefaultAccountState')
      init.push(ix.initializeDefaultAccountState(mint, 'frozen'))
    }
    if (spec.nonTransferable) {
      extensions.push('NonTransferable')
      init.push(ix.initializeNonTransferableMint(mint))
    }
    if (spec.interestRate !== undefined) {
      extensions.push('InterestBearingConfig')
      init.push(ix.initializeInterestBearingMint(mint, creator.address, spec.interestRate))
    }
    if (spec.permanentDelegate) {
      extensions.push('PermanentDelegate')
      init.push(ix.initializePermanentDelegate(mint, delegate.address))
    }
    if (spec.transferHook) {
      extensions.push('TransferHook')
      const hookProgram = spec.transferHook.program === 'upgradeable' ? upgradeableHook : immutableHook
      init.push(ix.initializeTransferHook(mint, spec.transferHook.modifiable ? creator.address : null, hookProgram))
    }
    if (embedded) {
      extensions.push('MetadataPointer')
      init.push(ix.initializeMetadataPointer(mint, null, mint))
    }
    if (spec.scaledUiMultiplier !== undefined) {
      extensions.push('ScaledUiAmount')
      init.push(ix.initializeScaledUiAmount(mint, creator.address, spec.scaledUiMultiplier))
    }
    if (spec.pausable) {
      extensions.push('Pausable')
      init.push(ix.initializePausable(mint, creator.address))
    }
    const size = spec.program === 'spl-token' ? 82 : ix.mintSizeWithExtensions(extensions)
    const finalSize = size + (embedded ? ix.embeddedMetadataSize(spec.name, spec.symbol, `https://example.invalid/${spec.key}.json`) : 0)
    const uri = `https://example.invalid/${spec.key}.json`
    const creation = [
      ix.createAccount(creator, mintSigner, rent(finalSize), size, program),
      ...init,
      ix.initializeMint2(program, mint, spec.decimals, creator.address, spec.freezeAuthority || spec.defaultFrozen ? creator.address : null),
      ...(embedded ? [ix.initializeTokenMetadata(mint, creator.address, creator, spec.name, spec.symbol, uri)] : []),
      ...(spec.metadata === 'embedded' ? [ix.updateTokenMetadataAuthority(mint, creator, null)] : []),
    ]
    const earlier = spec.pulledEarlier ? await pullEarlierMint(spec, creator) : null
    const earlierPump = spec.earlierPump ? await launchEarlierPumpMints(spec, spec.earlierPump, creator) : null
    const decimalsFactor = 10n ** BigInt(spec.decimals)
    const supply = DEMO_SUPPLY_WHOLE * decimalsFactor
    const launch = spec.launch ? await launchAccounts(mint, program) : null
    const bundled = spec.launch?.bundle ? BUNDLED_HOLDERS.map((i) => holders[i]) : []
    const snipers = spec.launch?.bundle ? SNIPER_HOLDERS.map((i) => holders[i]) : []
    if (launch) {
      // Buyers have SOL before the launch: the bundle's from the creator, the others' from the bank.
      for (const h of holders) {
        if (bundled.includes(h)) await ledger.send(creator, [ix.transferSol(creator, h.address, LAMPORTS_PER_SOL)])
        else await fund(h, 1n)
      }
      // pump.fun's create: the mint and the curve's token account holding what is not the creator's.
      // (A graduated curve's last tokens went to its pool, which the world mints apart.)
      const curveTokens = supply - (supply * (20n + BigInt(spec.burnHolderPercent ?? 0) + BigInt(spec.pool?.tokenPercent ?? 0) + BigInt(spec.secondPool?.tokenPercent ?? 0))) / 100n
      creation.push(ix.createAssociatedTokenAccountIdempotent(creator, launch.tokenVault, launch.curve, mint, program), ix.mintTo(program, mint, launch.tokenVault, creator, curveTokens))
    }
    const creationSignature = await ledger.send(creator, creation, { sameSlot: bundled.length > 0 })
    if (launch) delegateCurveVault(launch.tokenVault, curveOperator.address)
    const creationTime = new Date(ledger.transaction(creationSignature)!.blockTime * 1000).toISOString()
    if (spec.metadata === 'metaplex' || spec.metadata === 'metaplex-mutable') {
      await setMetaplex(ledger, mint, { updateAuthority: creator.address, name: spec.name, symbol: spec.symbol, uri, isMutable: spec.metadata === 'metaplex-mutable' })
    }

    // 2. Distribution: creator 20 %, holder wallets a falling share, burn address and pool as
    // specified; on a launch curve the holders buy their share from the curve.
    const allocations: { owner: Address; amount: bigint }[] = []
    const poolShare = BigInt((spec.pool?.tokenPercent ?? 0) + (spec.secondPool?.tokenPercent ?? 0) + (spec.launch?.curvePercent ?? 0))
    const burnShare = BigInt(spec.burnHolderPercent ?? 0)
    const creatorShare = 20n
    const rest = 100n - poolShare - burnShare - creatorShare
    allocations.push({ owner: creator.address, amount: (supply * creatorShare) / 100n })
    if (burnShare > 0n) allocations.push({ owner: INCINERATOR as Address, amount: (supply * burnShare) / 100n })
    const weights = holders.map((_, i) => BigInt(HOLDER_WALLETS - i) * BigInt(HOLDER_WALLETS - i))
    const weightSum = weights.reduce((s, w) => s + w, 0n)
    const holderTotal = (supply * rest) / 100n
    holders.forEach((h, i) => allocations.push({ owner: h.address, amount: (holderTotal * weights[i]) / weightSum }))
    const thaw = async (account: Address) => {
      if (spec.defaultFrozen) await ledger.send(creator, [ix.thawAccount(program, account, mint, creator)])
    }
    const mintInstructions: Instruction[] = []
    const buys: { buyer: KeyPairSigner; amount: bigint }[] = []
    const mintAllocations = async (list: typeof allocations) => {
      for (const a of list) {
        const account = await ata(creator, a.owner, mint, program)
        await thaw(account)
        mintInstructions.push(ix.mintTo(program, mint, account, creator, a.amount))
      }
    }
    for (const a of allocations) {
      const buyer = launch ? holders.find((h) => h.address === a.owner) : undefined
      if (buyer) buys.push({ buyer, amount: a.amount })
    }
    // On a launch curve the creator's share is minted after the bundle (the bundle stays in the creation slot).
    if (!launch) await mintAllocations(allocations)
    if (launch) {
      const buy = async (b: { buyer: KeyPairSigner; amount: bigint }, sameSlot: boolean) => {
        const account = await ix.findAssociatedTokenAddress(b.buyer.address, mint, program)
        await ledger.send(
          b.buyer,
          [
            ix.createAssociatedTokenAccountIdempotent(b.buyer, account, b.buyer.address, mint, program),
            ix.transferChecked(program, launch.tokenVault, mint, account, curveOperator, b.amount, spec.decimals),
            ix.transferSol(b.buyer, launch.curve, BUY_LAMPORTS),
          ],
          { sameSlot },
        )
      }
      const inBundle = buys.filter((b) => bundled.includes(b.buyer))
      // The bundle lands in the creation slot; the creator's own share after it.
      for (const [i, b] of inBundle.entries()) await buy(b, i < inBundle.length - 1)
      for (const b of buys.filter((x) => snipers.includes(x.buyer))) await buy(b, false)
      await mintAllocations(allocations.filter((a) => !buys.some((b) => b.buyer.address === a.owner)))
      await send(creator, mintInstructions)
      ledger.advance(ORGANIC_BUYERS_AFTER_SECONDS)
      for (const b of buys.filter((x) => !bundled.includes(x.buyer) && !snipers.includes(x.buyer))) await buy(b, false)
    } else await send(creator, mintInstructions)

    // 3. The pool: vaults owned by the pool authority, the LP token minted to the creator.
    const pools: SolanaManifestPool[] = []
    const curve = spec.launch ? await buildCurve(spec, spec.launch, creator, mint, program, supply) : null
    if (curve?.pool) pools.push(curve.pool)
    if (spec.pool) pools.push(await buildPool(spec, spec.pool, creator, mint, program, supply, thaw))
    if (spec.secondPool) pools.push(await buildPool(spec, spec.secondPool, creator, mint, program, supply, thaw))
    if (curve?.curve.complete) curve.curve.graduatedPool = pools.find((p) => p.dex === 'PumpSwap')?.address ?? ''
    if (spec.graduated && spec.pool) {
      const to = pools.find((p) => p.dex === ammName(spec.graduated!.to))
      if (!to) throw new Error(`${spec.key}: no ${spec.graduated.to} pool to graduate to`)
      searchedCurves.set(mint, await graduatedCurve(spec.graduated, spec.pool, creator, mint, program, spec.decimals, to.address))
    }

    // 4. Life after launch: one transfer between holders (pays the fee), schedules, pauses, revocations.
    if (!spec.nonTransferable && !spec.transferHook) {
      const from = await ix.findAssociatedTokenAddress(holders[0].address, mint, program)
      const to = await ix.findAssociatedTokenAddress(holders[1].address, mint, program)
      await fund(holders[0], 1n)
      await ledger.send(holders[0], [ix.transferChecked(program, from, mint, to, holders[0], 1000n * decimalsFactor, spec.decimals)])
    }
    if (spec.transferFee?.scheduleBasisPoints !== undefined) {
      await ledger.send(creator, [ix.setTransferFee(mint, creator, spec.transferFee.scheduleBasisPoints, spec.transferFee.maximumFeeWhole * decimalsFactor)])
    }
    if (spec.pausable?.paused) await ledger.send(creator, [ix.pause(mint, creator)])
    if (!spec.keepMintAuthority) await ledger.send(creator, [ix.setAuthority(program, mint, creator, ix.AUTHORITY_TYPES.MintTokens, null)])

    // 5. Ground truth, read back from the ledger.
    const top = tokenHolders(ledger, mint, program)
    const checks = Object.fromEntries([...SOLANA_OWNERSHIP_CHECKS, ...SOLANA_OTHER_CHECKS].map((c) => [c, spec.expect[c] ?? '0'])) as Record<SolanaCheckName, '0' | '1'>
    const tokenHoneypot = spec.nonTransferable || spec.pausable?.paused || spec.defaultFrozen
    return {
      key: spec.key,
      address: mint,
      program: spec.program,
      name: spec.metadata === 'none' ? '' : spec.name,
      symbol: spec.metadata === 'none' ? '' : spec.symbol,
      decimals: spec.decimals,
      supply: mintSupply(ledger, mint).toString(),
      mintAuthority: spec.keepMintAuthority ? creator.address : '',
      freezeAuthority: spec.freezeAuthority || spec.defaultFrozen ? creator.address : '',
      creator: creator.address,
      creationSignature,
      creationTime,
      curve: curve?.curve ?? searchedCurves.get(mint) ?? null,
      creatorHistory: {
        earlierMints: earlierPump?.inWindow ?? (earlier ? [earlier] : []),
        liquidityPulled: earlier ? [earlier] : [],
        complete: !earlierPump?.windowFull,
        deadMints: earlierPump?.dead ?? [],
        pumpCurves: earlierPump?.pumpCurves ?? { created: 0, graduated: 0, dead: 0 },
      },
      launch: {
        bundled: bundled.map((h) => h.address),
        snipers: snipers.map((h) => h.address),
        insiders: bundled.map((h) => h.address),
      },
      metadataSource: embedded ? 'token-2022' : spec.metadata === 'none' ? '' : 'metaplex',
      extensions: spec.program === 'token-2022' ? [...extensions, ...(embedded ? ['TokenMetadata'] : [])] : [],
      codeChecks: checks,
      transferFee: {
        currentBasisPoints: spec.transferFee ? String(spec.transferFee.basisPoints) : '',
        scheduledBasisPoints: spec.transferFee?.scheduleBasisPoints !== undefined ? String(spec.transferFee.scheduleBasisPoints) : '',
      },
      isHoneypot: tokenHoneypot ? '1' : '0',
      holders: { count: new Set(top.map((h) => h.owner)).size, top },
      pools,
      notes: spec.notes,
    }
  }

  /**
   * The pump.fun curve of a mint: its account at ["bonding-curve", mint], its token account, the
   * launchpad's settings at ["global"]; reserves follow pump's constant product from its initial
   * virtual reserves for the tokens sold.
   */
  async function buildCurve(spec: MintSpec, launch: LaunchSpec, creator: KeyPairSigner, mint: Address, program: string, supply: bigint): Promise<{ curve: SolanaManifestCurve; pool: SolanaManifestPool | null }> {
    const pump = PUMP_BONDING_CURVE.program as Address
    const [curveAddress] = await getProgramDerivedAddress({ programAddress: pump, seeds: [new TextEncoder().encode('bonding-curve'), enc.encode(mint)] })
    const [globalAddress] = await getProgramDerivedAddress({ programAddress: pump, seeds: [new TextEncoder().encode('global')] })
    const unit = 10n ** BigInt(spec.decimals)
    if (!svm.getAccount(globalAddress).exists) {
      setProgramAccount(ledger, globalAddress, pump, idlAccountData(PUMP_GLOBAL, {
        initial_virtual_token_reserves: PUMP_INITIAL_VIRTUAL_TOKENS * unit,
        initial_virtual_sol_reserves: PUMP_INITIAL_VIRTUAL_SOL * LAMPORTS_PER_SOL,
        initial_real_token_reserves: PUMP_INITIAL_REAL_TOKENS * unit,
        token_total_supply: supply,
      }))
    }
    const held = tokenBalance(ledger, await ix.findAssociatedTokenAddress(curveAddress, mint, program))
    const reserved = supply - PUMP_INITIAL_REAL_TOKENS * unit
    const realToken = launch.complete ? 0n : held - reserved
    const sold = PUMP_INITIAL_REAL_TOKENS * unit - realToken
    const virtualToken = PUMP_INITIAL_VIRTUAL_TOKENS * unit - sold
    const virtualSol = (PUMP_INITIAL_VIRTUAL_SOL * LAMPORTS_PER_SOL * PUMP_INITIAL_VIRTUAL_TOKENS * unit) / virtualToken
    const realSol = launch.complete ? 0n : virtualSol - PUMP_INITIAL_VIRTUAL_SOL * LAMPORTS_PER_SOL
    const tokenVault = await ix.findAssociatedTokenAddress(curveAddress, mint, program)
    const data = idlAccountData(PUMP_BONDING_CURVE, {
      virtual_token_reserves: virtualToken,
      virtual_quote_reserves: virtualSol,
      real_token_reserves: realToken,
      real_quote_reserves: realSol,
      token_total_supply: supply,
      complete: launch.complete,
      creator: creator.address,
      quote_mint: WRAPPED_SOL_MINT,
    })
    ledger.setAccount({
      address: curveAddress,
      data,
      executable: false,
      lamports: lamports(ledger.svm.minimumBalanceForRentExemption(BigInt(data.length)) + realSol),
      programAddress: pump,
      space: BigInt(data.length),
    })
    const initial = PUMP_INITIAL_REAL_TOKENS * unit
    const curve: SolanaManifestCurve = {
      venue: PUMP_CURVE_VENUE,
      address: curveAddress,
      tokenVault,
      complete: launch.complete,
      progressPercent: launch.complete ? 100 : Number(((initial - realToken) * 10_000n) / initial) / 100,
      creator: creator.address,
      graduatedPool: '',
    }
    if (launch.complete) return { curve, pool: null }
    const priceInSol = (Number(virtualSol) / Number(virtualToken)) * 10 ** (spec.decimals - 9)
    return {
      curve,
      pool: {
        dex: PUMP_CURVE_VENUE,
        address: curveAddress,
        pair: [mint, WRAPPED_SOL_MINT],
        quoteSymbol: 'SOL',
        liquidityUsd: ((Number(realToken) / Number(unit)) * priceInSol + Number(realSol) / 1e9) * WORLD_SOL_USD,
        priceUsd: priceInSol * WORLD_SOL_USD,
        isPairHoneypot: '0',
        lpMint: '',
        lpLockedPercent: '',
      },
    }
  }

  async function buildPool(spec: MintSpec, p: PoolSpec, creator: KeyPairSigner, mint: Address, program: string, supply: bigint, thaw: (a: Address) => Promise<void>): Promise<SolanaManifestPool> {
    const quoteMint = p.quote === 'SOL' ? (WRAPPED_SOL_MINT as Address) : usdc.address
    const quoteDecimals = p.quote === 'SOL' ? 9 : 6
    const ordered = p.amm === 'raydium-amm-v4' || p.amm === 'pumpswap' || LAUNCHPAD_CURVES.includes(p.amm) ? [mint, quoteMint] : [mint, quoteMint].sort(compareAddresses)
    const [mintA, mintB] = ordered as [Address, Address]
    const pool = await poolAddress(p.amm, mintA, mintB)
    const authority = await poolAuthority(p.amm, pool)
    const tokenVault = await ata(creator, authority, mint, program)
    await thaw(tokenVault)
    // An exchange whose pools share one authority keeps each pool's quote in an account of the pool's
    // own (not the authority's associated account, which every pool of that quote would share).
    const quoteVault = authority === pool ? await ata(creator, authority, quoteMint, TOKEN_PROGRAM) : await ownTokenAccount(`${pool} quote vault`, authority, quoteMint)
    const tokenAmount = (supply * BigInt(p.tokenPercent)) / 100n
    await ledger.send(creator, [ix.mintTo(program, mint, tokenVault, creator, tokenAmount)])
    if (p.quote === 'SOL') await wrapSol(bank, quoteVault, p.quoteWhole)
    else await mintUsdc(quoteVault, p.quoteWhole)
    if (p.freezeVault) await ledger.send(creator, [ix.freezeAccount(program, tokenVault, mint, creator)])

    const tokenWhole = Number(tokenAmount) / 10 ** spec.decimals
    const quoteUsd = p.quote === 'SOL' ? WORLD_SOL_USD : 1
    const tokenIsA = mintA === mint
    let lpMint = ''
    let lpLockedPercent = ''
    let lpLocked: LpLockTruth | undefined
    let priceInQuote: number
    let data: Uint8Array
    const vaults = { vaultA: tokenIsA ? tokenVault : quoteVault, vaultB: tokenIsA ? quoteVault : tokenVault }
    const decimals = { decimalsA: tokenIsA ? spec.decimals : quoteDecimals, decimalsB: tokenIsA ? quoteDecimals : spec.decimals }
    if (LAUNCHPAD_CURVES.includes(p.amm)) {
      const written = await launchpadCurve(spec, p, creator, pool, { mint, quoteMint, tokenVault, quoteVault, tokenAmount, quoteDecimals })
      ;({ data, priceInQuote } = written)
      searchedCurves.set(mint, written.curve)
    } else if (p.amm === 'orca-whirlpool' || p.amm === 'meteora-damm-v2' || p.amm === 'raydium-clmm') {
      priceInQuote = p.price!
      const bPerA = tokenIsA ? priceInQuote : 1 / priceInQuote
      const sqrt = sqrtPriceX64(bPerA, decimals.decimalsA, decimals.decimalsB)
      data =
        p.amm === 'orca-whirlpool'
          ? orcaWhirlpoolData({ mintA, mintB, ...vaults, ...decimals, sqrtPriceX64: sqrt })
          : p.amm === 'raydium-clmm'
            ? idlAccountData(RAYDIUM_CLMM_POOL_STATE, {
                mintA, mintB, vaultA: vaults.vaultA, vaultB: vaults.vaultB, mintDecimalsA: decimals.decimalsA, mintDecimalsB: decimals.decimalsB,
                liquidity: 1n << 64n, sqrtPriceX64: sqrt, status: 0,
              })
            : idlAccountData(CP_AMM_POOL, {
              token_a_mint: mintA, token_b_mint: mintB, token_a_vault: vaults.vaultA, token_b_vault: vaults.vaultB,
              liquidity: DAMM_LIQUIDITY, sqrt_price: sqrt, activation_type: 1, pool_status: 0, creator: creator.address,
            })
      // The price the pool states, as the program reads its √price.
      const raw = (Number(sqrt) / 2 ** 64) ** 2 * 10 ** (decimals.decimalsA - decimals.decimalsB)
      priceInQuote = tokenIsA ? raw : 1 / raw
    } else if (p.amm === 'meteora-damm-v1') {
      // A stable pool's price: what a small swap of the token pays out on the invariant, over the pool's share of the vaults.
      const share = (amount: bigint) => (amount * BigInt(DAMM_V1_VAULT_SHARE_PERCENT)) / 100n
      priceInQuote = p.stableAmp
        ? stableSwapPrice(BigInt(p.stableAmp), share(tokenAmount), share(BigInt(Math.round(p.quoteWhole * 10 ** quoteDecimals))), spec.decimals, quoteDecimals)
        : p.quoteWhole / tokenWhole
      ;({ data, lpMint, lpLocked } = await dammV1Pool(spec, p, creator, pool, { mint, mintA, mintB, vaultA: vaults.vaultA, vaultB: vaults.vaultB, amountA: tokenIsA ? tokenAmount : BigInt(Math.round(p.quoteWhole * 10 ** quoteDecimals)), amountB: tokenIsA ? BigInt(Math.round(p.quoteWhole * 10 ** quoteDecimals)) : tokenAmount, quoteDecimals }))
      lpLockedPercent = '0'
    } else if (p.amm === 'meteora-dlmm') {
      // The active bin nearest the wanted price; the pair's price is that bin's, exactly.
      const wantedRaw = (tokenIsA ? p.price! : 1 / p.price!) * 10 ** (decimals.decimalsB - decimals.decimalsA)
      const activeId = Math.round(Math.log(wantedRaw) / Math.log(1 + DLMM_BIN_STEP / 10_000))
      const raw = (1 + DLMM_BIN_STEP / 10_000) ** activeId * 10 ** (decimals.decimalsA - decimals.decimalsB)
      priceInQuote = tokenIsA ? raw : 1 / raw
      data = idlAccountData(DLMM_LB_PAIR, {
        token_x_mint: mintA, token_y_mint: mintB, reserve_x: vaults.vaultA, reserve_y: vaults.vaultB,
        active_id: activeId, bin_step: DLMM_BIN_STEP, status: 0, creator: creator.address,
      })
    } else {
      priceInQuote = p.quoteWhole / tokenWhole
      // LP token: a real SPL mint; the creator receives it, burns part, then hands the mint to the pool.
      const lp = await namedSigner(p === spec.secondPool ? `${spec.key} second lp mint` : `${spec.key} lp mint`)
      const issued = 1_000_000n * 10n ** 9n
      await ledger.send(lpOperator, [ix.createAccount(lpOperator, lp, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, lp.address, 9, lpOperator.address, null)])
      const creatorLp = await ata(creator, creator.address, lp.address, TOKEN_PROGRAM)
      await ledger.send(lpOperator, [ix.mintTo(TOKEN_PROGRAM, lp.address, creatorLp, lpOperator, issued), ix.setAuthority(TOKEN_PROGRAM, lp.address, lpOperator, ix.AUTHORITY_TYPES.MintTokens, authority)])
      const burned = (issued * BigInt(p.lpBurnPercent ?? 0)) / 100n
      if (burned > 0n) await ledger.send(creator, [ix.burn(TOKEN_PROGRAM, creatorLp, lp.address, creator, burned)])
      if (p.lpLocks) lpLocked = await lockLp(p.lpLocks, creator, creatorLp, lp.address, issued, p.lpBurnPercent ?? 0, pool)
      lpMint = lp.address
      lpLockedPercent = String(p.lpBurnPercent ?? 0)
      const input = { mintA, mintB, ...vaults, ...decimals, lpMint: lp.address, lpIssued: issued }
      data =
        p.amm === 'raydium-cpmm'
          ? raydiumCpmmData(input)
          : p.amm === 'pumpswap'
            ? idlAccountData(PUMP_AMM_POOL, {
                pool_bump: 255, index: 0, creator: creator.address, base_mint: mintA, quote_mint: mintB, lp_mint: lp.address,
                pool_base_token_account: vaults.vaultA, pool_quote_token_account: vaults.vaultB, lp_supply: issued, coin_creator: creator.address,
              })
            : raydiumAmmV4Data(input)
    }
    setProgramAccount(ledger, pool, ammProgram(p.amm), data)
    const locks = p.amm === 'meteora-damm-v2' ? await lockDammLiquidity(pool, creator) : undefined
    if (p.positions) lpLocked = await poolPositions(p.amm, pool, p.positions, creator)
    const tokenHoneypot = spec.nonTransferable || spec.pausable?.paused || spec.defaultFrozen
    return {
      dex: ammName(p.amm),
      address: pool,
      pair: [mintA, mintB],
      quoteSymbol: p.quote,
      // A DAMM v1 pool owns its share of the Meteora vaults that hold the tokens.
      liquidityUsd: (tokenWhole * priceInQuote + p.quoteWhole) * quoteUsd * (p.amm === 'meteora-damm-v1' ? DAMM_V1_VAULT_SHARE_PERCENT / 100 : 1),
      priceUsd: priceInQuote * quoteUsd,
      isPairHoneypot: tokenHoneypot || p.freezeVault ? '1' : '0',
      lpMint,
      lpLockedPercent: lpLocked?.locks ? String(lpLocked.locks.lockedPercent) : lpLockedPercent,
      ...(locks ? { locks } : {}),
      ...(lpLocked ?? {}),
    }
  }

  /**
   * A launchpad curve found by search: a LaunchLab `PoolState` (a constant-product curve on its
   * virtual reserves, selling `totalSellA`) or a DBC `VirtualPool` and its `PoolConfig` (priced at
   * its √price, migrating once it raised its quote threshold), written from the published layouts;
   * its vaults hold the tokens left to sell and the quote raised.
   */
  async function launchpadCurve(spec: MintSpec, p: PoolSpec, creator: KeyPairSigner, pool: Address, a: { mint: Address; quoteMint: Address; tokenVault: Address; quoteVault: Address; tokenAmount: bigint; quoteDecimals: number }): Promise<{ data: Uint8Array; priceInQuote: number; curve: SolanaManifestCurve }> {
    const unit = 10n ** BigInt(spec.decimals)
    const supply = DEMO_SUPPLY_WHOLE * unit
    const quoteBase = BigInt(Math.round(p.quoteWhole * 10 ** a.quoteDecimals))
    const toWholePrice = (rawBPerA: number) => rawBPerA * 10 ** (spec.decimals - a.quoteDecimals)
    const curve = (progressPercent: number): SolanaManifestCurve => ({ venue: ammName(p.amm), address: pool, tokenVault: a.tokenVault, complete: false, progressPercent, creator: creator.address, graduatedPool: '' })
    if (p.amm === 'raydium-launchlab') {
      const sold = (supply * BigInt(p.curve!.soldPercent!)) / 100n
      const totalSell = sold + a.tokenAmount
      const kind = p.curve!.launchLabCurve ?? 'constant-product'
      let virtualA: bigint
      let virtualB: bigint
      let rawPrice: number
      if (kind === 'fixed') {
        // Every token sells at the price the tokens sold were bought at.
        ;[virtualA, virtualB] = [totalSell, (quoteBase * totalSell) / sold]
        rawPrice = Number(quoteBase) / Number(sold)
      } else if (kind === 'linear') {
        // The price grows by a slope per token sold (Q64.64 in virtualA): the quote raised is the area under it, slope·sold²/2, so the price now is twice the average paid.
        ;[virtualA, virtualB] = [(2n * quoteBase * (1n << 64n)) / (sold * sold), 0n]
        rawPrice = (2 * Number(quoteBase)) / Number(sold)
      } else {
        virtualA = (supply * BigInt(p.curve!.virtualTokenPercent!)) / 100n
        // The constant product on virtual reserves that raised quoteBase for the tokens sold.
        virtualB = (quoteBase * (virtualA - sold)) / sold
        rawPrice = Number(virtualB + quoteBase) / Number(virtualA - sold)
      }
      // The launchpad config the pool names, at the program's `global_config` seed in the real program; its curve type.
      const config = await curveConfig(RAYDIUM_LAUNCHLAB_CONFIG, 'tokenrisk launchlab config', pool, { curveType: LAUNCHLAB_CURVES[kind], mintB: a.quoteMint })
      const data = idlAccountData(RAYDIUM_LAUNCHLAB_POOL_STATE, {
        status: 0, mintDecimalsA: spec.decimals, mintDecimalsB: a.quoteDecimals, supply, totalSellA: totalSell, virtualA, virtualB, realA: sold, realB: quoteBase,
        configId: config, mintA: a.mint, mintB: a.quoteMint, vaultA: a.tokenVault, vaultB: a.quoteVault, creator: creator.address,
      })
      return { data, priceInQuote: toWholePrice(rawPrice), curve: curve(Number((sold * 10_000n) / totalSell) / 100) }
    }
    const threshold = BigInt(p.curve!.migrationQuoteWhole!) * 10n ** BigInt(a.quoteDecimals)
    const sqrt = sqrtPriceX64(p.price!, spec.decimals, a.quoteDecimals)
    const config = await curveConfig(DBC_POOL_CONFIG, 'tokenrisk dbc config', pool, { quote_mint: a.quoteMint, migration_quote_threshold: threshold })
    const data = idlAccountData(DBC_VIRTUAL_POOL, {
      'pool_state.config': config, 'pool_state.creator': creator.address, 'pool_state.base_mint': a.mint, 'pool_state.base_vault': a.tokenVault, 'pool_state.quote_vault': a.quoteVault,
      'pool_state.base_reserve': a.tokenAmount, 'pool_state.quote_reserve': quoteBase, 'pool_state.sqrt_price': sqrt, 'pool_state.is_migrated': 0,
    })
    const raw = (Number(sqrt) / 2 ** 64) ** 2
    return { data, priceInQuote: toWholePrice(raw), curve: curve(Number((quoteBase * 10_000n) / threshold) / 100) }
  }

  /**
   * A launchpad curve that completed: nothing left to sell, the quote it raised gone with the
   * migration, its settings naming the exchange it migrated to. A Meteora DBC `VirtualPool` migrated
   * (`is_migrated`) with its `PoolConfig`; a Raydium LaunchLab `PoolState` migrated (status 2) with
   * its config. The token trades in the pool it migrated to.
   */
  async function graduatedCurve(g: NonNullable<MintSpec['graduated']>, p: PoolSpec, creator: KeyPairSigner, mint: Address, program: string, decimals: number, graduatedPool: string): Promise<SolanaManifestCurve> {
    const quoteMint = p.quote === 'SOL' ? (WRAPPED_SOL_MINT as Address) : usdc.address
    const quoteDecimals = p.quote === 'SOL' ? 9 : 6
    const pool = await poolAddress(g.launchpad, mint, quoteMint)
    const [baseVault, quoteVault] = [await ata(creator, pool, mint, program), await ata(creator, pool, quoteMint, TOKEN_PROGRAM)]
    const threshold = BigInt(g.migrationQuoteWhole) * 10n ** BigInt(quoteDecimals)
    if (g.launchpad === 'raydium-launchlab') {
      const sold = (DEMO_SUPPLY_WHOLE * 10n ** BigInt(decimals) * 80n) / 100n
      const config = await curveConfig(RAYDIUM_LAUNCHLAB_CONFIG, 'tokenrisk launchlab config', pool, { curveType: LAUNCHLAB_CURVES['constant-product'], mintB: quoteMint })
      setProgramAccount(ledger, pool, RAYDIUM_LAUNCHLAB_POOL_STATE.program, idlAccountData(RAYDIUM_LAUNCHLAB_POOL_STATE, {
        status: LAUNCHLAB_MIGRATED, mintDecimalsA: decimals, mintDecimalsB: quoteDecimals, migrateType: migrationCode(LAUNCHLAB_MIGRATE_TYPES, g), supply: DEMO_SUPPLY_WHOLE * 10n ** BigInt(decimals),
        totalSellA: sold, virtualA: sold + sold / 4n, virtualB: threshold / 4n, realA: sold, realB: 0n,
        configId: config, mintA: mint, mintB: quoteMint, vaultA: baseVault, vaultB: quoteVault, creator: creator.address,
      }))
      return { venue: ammName('raydium-launchlab'), address: pool, tokenVault: baseVault, complete: true, progressPercent: 100, creator: creator.address, graduatedPool }
    }
    const config = await curveConfig(DBC_POOL_CONFIG, 'tokenrisk dbc config', pool, { quote_mint: quoteMint, migration_quote_threshold: threshold, migration_option: migrationCode(DBC_MIGRATION_OPTIONS, g) })
    setProgramAccount(ledger, pool, DBC_VIRTUAL_POOL.program, idlAccountData(DBC_VIRTUAL_POOL, {
      'pool_state.config': config, 'pool_state.creator': creator.address, 'pool_state.base_mint': mint, 'pool_state.base_vault': baseVault, 'pool_state.quote_vault': quoteVault,
      'pool_state.base_reserve': 0n, 'pool_state.quote_reserve': 0n, 'pool_state.sqrt_price': sqrtPriceX64(p.price!, decimals, quoteDecimals), 'pool_state.is_migrated': 1,
    }))
    return { venue: ammName('meteora-dbc'), address: pool, tokenVault: baseVault, complete: true, progressPercent: 100, creator: creator.address, graduatedPool }
  }

  /**
   * A Meteora DAMM v1 pool: a Meteora vault per side (its token account holds the side's tokens,
   * `totalAmount` says so), each vault's LP mint, of which the pool holds DAMM_V1_VAULT_SHARE_PERCENT
   * (another pool of the vault holds the rest), and the pool's own LP token, the creator's but
   * what it locks (the pool's `totalLockedLp` counts what its lock escrows hold).
   */
  async function dammV1Pool(spec: MintSpec, p: PoolSpec, creator: KeyPairSigner, pool: Address, a: { mint: Address; mintA: Address; mintB: Address; vaultA: Address; vaultB: Address; amountA: bigint; amountB: bigint; quoteDecimals: number }): Promise<{ data: Uint8Array; lpMint: string; lpLocked?: LpLockTruth }> {
    const vaultProgram = METEORA_VAULT_VAULT.program as Address
    const side = async (label: string, mint: Address, tokenAccount: Address, amount: bigint) => {
      const [vault] = await getProgramDerivedAddress({ programAddress: vaultProgram, seeds: [new TextEncoder().encode(`tokenrisk vault ${label}`), enc.encode(pool)] })
      const vaultLp = await namedSigner(`${spec.key} vault lp ${label}`)
      await ledger.send(lpOperator, [ix.createAccount(lpOperator, vaultLp, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, vaultLp.address, 9, lpOperator.address, null)])
      const shares = await ata(lpOperator, pool, vaultLp.address, TOKEN_PROGRAM)
      const others = await ata(lpOperator, (await namedSigner(`${spec.key} another pool`)).address, vaultLp.address, TOKEN_PROGRAM)
      const supply = 1_000_000n * 10n ** 9n
      const ours = (supply * BigInt(DAMM_V1_VAULT_SHARE_PERCENT)) / 100n
      await ledger.send(lpOperator, [ix.mintTo(TOKEN_PROGRAM, vaultLp.address, shares, lpOperator, ours), ix.mintTo(TOKEN_PROGRAM, vaultLp.address, others, lpOperator, supply - ours)])
      setProgramAccount(ledger, vault, vaultProgram, idlAccountData(METEORA_VAULT_VAULT, { totalAmount: amount, tokenVault: tokenAccount, tokenMint: mint, lpMint: vaultLp.address }))
      return { vault, shares }
    }
    const [sideA, sideB] = [await side('a', a.mintA, a.vaultA, a.amountA), await side('b', a.mintB, a.vaultB, a.amountB)]
    const lp = await namedSigner(`${spec.key} lp mint`)
    await ledger.send(lpOperator, [ix.createAccount(lpOperator, lp, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, lp.address, 9, lpOperator.address, null)])
    const creatorLp = await ata(creator, creator.address, lp.address, TOKEN_PROGRAM)
    const issued = 1_000_000n * 10n ** 9n
    await ledger.send(lpOperator, [ix.mintTo(TOKEN_PROGRAM, lp.address, creatorLp, lpOperator, issued)])
    const lpLocked = p.lpLocks ? await lockLp(p.lpLocks, creator, creatorLp, lp.address, issued, 0, pool) : undefined
    const totalLockedLp = (issued * BigInt(lpLocked?.locks?.permanentPercent ?? 0)) / 100n
    // A stable pool scales both sides to the larger of their decimals.
    const stable = p.stableAmp
      ? (() => {
          const [decimalsA, decimalsB] = a.mintA === a.mint ? [spec.decimals, a.quoteDecimals] : [a.quoteDecimals, spec.decimals]
          const precision = Math.max(decimalsA, decimalsB)
          return {
            curveType: 1, 'curveType.stable.amp': BigInt(p.stableAmp), 'curveType.stable.depeg.depegType': 0,
            'curveType.stable.tokenMultiplier.tokenAMultiplier': 10n ** BigInt(precision - decimalsA), 'curveType.stable.tokenMultiplier.tokenBMultiplier': 10n ** BigInt(precision - decimalsB),
          }
        })()
      : { curveType: 0 }
    const data = idlAccountData(DAMM_V1_POOL, {
      lpMint: lp.address, tokenAMint: a.mintA, tokenBMint: a.mintB, aVault: sideA.vault, bVault: sideB.vault, aVaultLp: sideA.shares, bVaultLp: sideB.shares, enabled: true, totalLockedLp, ...stable,
    }, DAMM_V1_POOL_SIZE)
    return { data, lpMint: lp.address, lpLocked }
  }

  /**
   * The positions of a Whirlpool or a Raydium CLMM pool: an NFT mint each (supply 1, in its
   * owner's account), the position at ["position", NFT mint] with its share of the liquidity, and
   * for a locked one the Whirlpool program's `LockConfig` at ["lock_config", position], or Raydium
   * LP lock's `LockedClmmPositionState` (the NFT then held by the lock's authority).
   */
  async function poolPositions(amm: Amm, pool: Address, positions: NonNullable<PoolSpec['positions']>, creator: KeyPairSigner): Promise<LpLockTruth> {
    const raydium = amm === 'raydium-clmm'
    const program = (raydium ? RAYDIUM_CLMM_PERSONAL_POSITION.program : ORCA_POSITION.program) as Address
    const lpHolders: LpLockTruth['lpHolders'] = []
    const lockers: LpLockTruth['lockers'] = []
    for (const [i, position] of positions.entries()) {
      const wallet = (position.owner === 'creator' ? creator : holders[position.owner]).address
      // Raydium's lock takes the position NFT: its authority holds it.
      const owner = { address: raydium && position.locked ? (RAYDIUM_LP_LOCK.clmmAuthority as Address) : wallet }
      const nft = await namedSigner(`${pool} position ${i}`)
      await ledger.send(lpOperator, [ix.createAccount(lpOperator, nft, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, nft.address, 0, lpOperator.address, null)])
      const account = await ata(lpOperator, owner.address, nft.address, TOKEN_PROGRAM)
      await ledger.send(lpOperator, [ix.mintTo(TOKEN_PROGRAM, nft.address, account, lpOperator, 1n)])
      const [address] = await getProgramDerivedAddress({ programAddress: program, seeds: [new TextEncoder().encode('position'), enc.encode(nft.address)] })
      const liquidity = (WHIRLPOOL_POSITIONS_LIQUIDITY * BigInt(position.percent)) / 100n
      setProgramAccount(ledger, address, program, raydium ? idlAccountData(RAYDIUM_CLMM_PERSONAL_POSITION, { poolId: pool, nftMint: nft.address, liquidity }) : idlAccountData(ORCA_POSITION, { whirlpool: pool, position_mint: nft.address, liquidity }))
      if (position.locked && raydium) {
        const lockProgram = RAYDIUM_CLMM_LOCKED_POSITION.program as Address
        const [lock] = await getProgramDerivedAddress({ programAddress: lockProgram, seeds: [new TextEncoder().encode('locked_position'), enc.encode(address)] })
        setProgramAccount(ledger, lock, lockProgram, idlAccountData(RAYDIUM_CLMM_LOCKED_POSITION, { lockOwner: wallet, poolId: pool, positionId: address, nftAccount: account }))
        lockers.push({ locker: 'Raydium LP lock', holder: account, lockedPercent: position.percent, locked: true })
      } else if (position.locked) {
        const [lock] = await getProgramDerivedAddress({ programAddress: program, seeds: [new TextEncoder().encode('lock_config'), enc.encode(address)] })
        setProgramAccount(ledger, lock, program, idlAccountData(ORCA_LOCK_CONFIG, { position: address, position_owner: owner.address, whirlpool: pool, locked_timestamp: BigInt(ledger.clock.unixTimestamp) }))
        lockers.push({ locker: 'Orca position lock', holder: account, lockedPercent: position.percent, locked: true })
      }
      lpHolders.push({ owner: owner.address, percent: position.percent })
    }
    const locked = lockers.reduce((s, l) => s + l.lockedPercent, 0)
    return { locks: { lockedPercent: locked, permanentPercent: locked, vestingPercent: 0, unlocks: [] }, lpBurnedPercent: '0', lpHolders, lockers }
  }

  /**
   * Puts the creator's LP tokens in lock programs: transfers to the token accounts each locker
   * holds them in (its authority's, a stream's escrow, an escrow's), and the lock accounts written
   * from the lockers' published layouts. Returns what the report must read of them.
   */
  async function lockLp(locks: LpLockSpec[], creator: KeyPairSigner, creatorLp: Address, lpMint: Address, issued: bigint, burnPercent: number, pool: Address): Promise<LpLockTruth> {
    const now = startUnixTime + WORLD_AGE_SECONDS
    const day = 24 * 3600
    const pda = async (program: string, seed: string, i: number) => (await getProgramDerivedAddress({ programAddress: program as Address, seeds: [new TextEncoder().encode(seed), enc.encode(lpMint), Uint8Array.of(i)] }))[0]
    const lockers: NonNullable<SolanaManifestPool['lockers']> = []
    const unlocks: { time: string; percent: number }[] = []
    let permanent = burnPercent
    let vesting = 0
    for (const [i, l] of locks.entries()) {
      const amount = (issued * BigInt(l.percent)) / 100n
      const cliff = now + (l.cliffDays ?? 0) * day
      const cliffAmount = (amount * BigInt(l.cliffPercent ?? 100)) / 100n
      const periods = l.periods ?? 0
      const perPeriod = periods > 0 ? (amount - cliffAmount) / BigInt(periods) : 0n
      const period = (l.periodDays ?? 1) * day
      let owner: Address
      let holder: string
      if (l.locker === 'raydium') {
        owner = RAYDIUM_LP_LOCK.authority as Address
        holder = await ix.findAssociatedTokenAddress(owner, lpMint, TOKEN_PROGRAM)
      } else if (l.locker === 'meteora-damm-v1') {
        // The pool's lock escrow owns its escrow vault, the LP token account that holds what it locks.
        owner = await pda(DAMM_V1_LOCK_ESCROW.program, 'tokenrisk lock escrow', i)
        holder = await ix.findAssociatedTokenAddress(owner, lpMint, TOKEN_PROGRAM)
        setProgramAccount(ledger, owner, DAMM_V1_LOCK_ESCROW.program, idlAccountData(DAMM_V1_LOCK_ESCROW, { pool, owner: creator.address, escrowVault: holder, totalLockedAmount: amount }))
      } else if (l.locker === 'streamflow') {
        const contract = await pda(STREAMFLOW_CONTRACT.program, 'tokenrisk stream', i)
        owner = await pda(STREAMFLOW_CONTRACT.program, 'tokenrisk stream escrow', i)
        holder = await ix.findAssociatedTokenAddress(owner, lpMint, TOKEN_PROGRAM)
        setProgramAccount(ledger, contract, STREAMFLOW_CONTRACT.program, idlAccountData(STREAMFLOW_CONTRACT, {
          mint: lpMint, escrowTokens: holder, sender: creator.address, recipient: creator.address, depositedAmount: amount,
          start: cliff, cliff, cliffAmount, period, amountPerPeriod: perPeriod, end: cliff + periods * period, cancelableBySender: l.cancelable ?? false,
        }))
      } else {
        owner = await pda(JUP_LOCK_VESTING_ESCROW.program, 'tokenrisk escrow', i)
        holder = owner
        setProgramAccount(ledger, owner, JUP_LOCK_VESTING_ESCROW.program, idlAccountData(JUP_LOCK_VESTING_ESCROW, {
          recipient: creator.address, tokenMint: lpMint, creator: creator.address, base: owner, cancelMode: l.cancelable ? 1 : 0,
          cliffTime: cliff, frequency: period, cliffUnlockAmount: cliffAmount, amountPerPeriod: perPeriod, numberOfPeriod: periods, vestingStartTime: cliff,
        }))
      }
      const account = await ata(creator, owner, lpMint, TOKEN_PROGRAM)
      await ledger.send(creator, [ix.transferChecked(TOKEN_PROGRAM, creatorLp, lpMint, account, creator, amount, 9)])
      const forGood = PERMANENT_LOCKERS.includes(l.locker)
      const future = !forGood && !l.cancelable
      const steps = [{ time: cliff, share: l.percent * ((l.cliffPercent ?? 100) / 100) }, ...Array.from({ length: periods }, (_, k) => ({ time: cliff + (k + 1) * period, share: (l.percent * (1 - (l.cliffPercent ?? 100) / 100)) / periods }))]
      const ahead = future ? steps.filter((s) => s.time > now && s.share > 0) : []
      const lockedPercent = forGood ? l.percent : ahead.reduce((s, u) => s + u.share, 0)
      if (forGood) permanent += l.percent
      else vesting += lockedPercent
      unlocks.push(...ahead.map((u) => ({ time: new Date(u.time * 1000).toISOString(), percent: u.share })))
      lockers.push({ locker: LOCKER_NAMES[l.locker], holder, lockedPercent, locked: lockedPercent > 0 })
    }
    const holders = tokenHolders(ledger, lpMint, TOKEN_PROGRAM).map((h) => ({ owner: h.owner, percent: Number((BigInt(h.balance) * 10_000n) / issued) / 100 }))
    return {
      locks: { lockedPercent: permanent + vesting, permanentPercent: permanent, vestingPercent: vesting, unlocks: unlocks.sort((a, b) => (a.time < b.time ? -1 : 1)) },
      lpBurnedPercent: String(burnPercent),
      lpHolders: holders,
      lockers,
    }
  }

  /**
   * The positions of a DAMM v2 pool: 30 % of its liquidity free, 50 % locked for ever, 20 % vesting
   * (10 % at a cliff 30 days from now, then 5 % every 30 days, twice), with its Vesting account.
   */
  async function lockDammLiquidity(pool: Address, creator: KeyPairSigner): Promise<NonNullable<SolanaManifestPool['locks']>> {
    const position = async (i: number) => (await getProgramDerivedAddress({ programAddress: CP_AMM_POOL.program as Address, seeds: [new TextEncoder().encode('tokenrisk position'), enc.encode(pool), Uint8Array.of(i)] }))[0]
    const share = (percent: bigint) => (DAMM_LIQUIDITY * percent) / 100n
    const [free, permanent, vested] = await Promise.all([position(0), position(1), position(2)])
    const write = (address: Address, layout: typeof CP_AMM_POSITION, values: Record<string, string | bigint | number>) => setProgramAccount(ledger, address, CP_AMM_POOL.program, idlAccountData(layout, values))
    write(free, CP_AMM_POSITION, { pool, nft_mint: creator.address, unlocked_liquidity: share(30n) })
    write(permanent, CP_AMM_POSITION, { pool, nft_mint: creator.address, permanent_locked_liquidity: share(50n) })
    write(vested, CP_AMM_POSITION, { pool, nft_mint: creator.address, vested_liquidity: share(20n) })
    const now = BigInt(startUnixTime + WORLD_AGE_SECONDS)
    const cliff = now + BigInt(LOCK_PERIOD_SECONDS)
    const [vesting] = await getProgramDerivedAddress({ programAddress: CP_AMM_POOL.program as Address, seeds: [new TextEncoder().encode('tokenrisk vesting'), enc.encode(vested)] })
    write(vesting, CP_AMM_VESTING, {
      position: vested,
      'inner_vesting.cliff_point': cliff,
      'inner_vesting.period_frequency': BigInt(LOCK_PERIOD_SECONDS),
      'inner_vesting.cliff_unlock_liquidity': share(10n),
      'inner_vesting.liquidity_per_period': share(5n),
      'inner_vesting.number_of_period': 2,
    })
    const at = (point: bigint) => new Date(Number(point) * 1000).toISOString()
    return {
      lockedPercent: 70,
      permanentPercent: 50,
      vestingPercent: 20,
      unlocks: [
        { time: at(cliff), percent: 10 },
        { time: at(cliff + BigInt(LOCK_PERIOD_SECONDS)), percent: 5 },
        { time: at(cliff + 2n * BigInt(LOCK_PERIOD_SECONDS)), percent: 5 },
      ],
    }
  }

  const first = mints[0]
  const wallet = await namedSigner('an empty wallet')
  svm.airdrop(wallet.address, lamports(LAMPORTS_PER_SOL))
  // The world's history ends days before it is built; its clock then moves on to the build's
  // time, which reports (and a saved world loaded later) measure ages and unlocks against.
  const readyUnixTime = startUnixTime + WORLD_AGE_SECONDS
  const behind = readyUnixTime - Number(ledger.clock.unixTimestamp)
  if (behind > 0) ledger.advance(behind)
  const manifest: Omit<SolanaManifest, 'rpcUrl'> = {
    version: 1,
    genesisHash: LOCAL_GENESIS_HASH,
    readyTime: new Date(Number(ledger.clock.unixTimestamp) * 1000).toISOString(),
    epoch: ledger.clock.epoch.toString(),
    pricing: { stablecoins: [{ mint: usdc.address, symbol: 'USDC' }], solUsdPools: [solUsdPool], solUsd: WORLD_SOL_USD },
    notMints: {
      wallet: wallet.address,
      tokenAccount: first.holders.top[0].tokenAccount,
      program: TOKEN_PROGRAM,
      metadataAccount: await metaplexAddress(first.address as Address),
      empty: (await namedSigner('nothing here')).address,
    },
    mints,
  }
  return { ledger, manifest }
}

const AMM_PROGRAMS: Record<Amm, string> = {
  'raydium-amm-v4': RAYDIUM_AMM_V4_PROGRAM,
  'raydium-cpmm': RAYDIUM_CPMM_PROGRAM,
  'raydium-clmm': RAYDIUM_CLMM_POOL_STATE.program,
  'orca-whirlpool': ORCA_WHIRLPOOL_PROGRAM,
  pumpswap: PUMP_AMM_POOL.program,
  'meteora-damm-v2': CP_AMM_POOL.program,
  'meteora-dlmm': DLMM_LB_PAIR.program,
  'raydium-launchlab': RAYDIUM_LAUNCHLAB_POOL_STATE.program,
  'meteora-dbc': DBC_VIRTUAL_POOL.program,
  'meteora-damm-v1': DAMM_V1_POOL.program,
}
/** What a pool whose LP is in lock programs adds to its truth. */
type LpLockTruth = Required<Pick<SolanaManifestPool, 'locks' | 'lpBurnedPercent' | 'lpHolders' | 'lockers'>>
/** Launchpad curves the pool search finds (their token trades on them until they migrate). */
/** Share of each Meteora vault's LP the world's DAMM v1 pool holds. */
const DAMM_V1_VAULT_SHARE_PERCENT = 50
/** A constant-product DAMM v1 pool's data ends with its curve type's one byte. */
/** A DAMM v1 pool's data up to the end of its largest curve (the stable one's last field). */
const U64_BYTES = 8
const DAMM_V1_POOL_SIZE = DAMM_V1_POOL.fields['curveType.stable.lastAmpUpdatedTimestamp'].offset + U64_BYTES
const LAUNCHPAD_CURVES: readonly Amm[] = ['raydium-launchlab', 'meteora-dbc']
const LOCKER_NAMES: Record<LpLockSpec['locker'], string> = { raydium: 'Raydium LP lock', streamflow: 'Streamflow', jupiter: 'Jupiter Lock', 'meteora-damm-v1': 'Meteora DAMM v1 lock' }
/**
 * The world's truth for a stable pool's price: quote paid out for a small swap of the token on
 * the stable-swap invariant (leverage amp · 2: L(x+y) + D = LD + D³/4xy), found by solving the
 * invariant for the quote side after the swap, amounts scaled to the larger of the decimals.
 * Whole quote per whole token.
 */
function stableSwapPrice(amp: bigint, tokenRaw: bigint, quoteRaw: bigint, tokenDecimals: number, quoteDecimals: number): number {
  const precision = BigInt(Math.max(tokenDecimals, quoteDecimals))
  const [mt, mq] = [10n ** (precision - BigInt(tokenDecimals)), 10n ** (precision - BigInt(quoteDecimals))]
  const [x, y] = [tokenRaw * mt, quoteRaw * mq]
  const leverage = amp * 2n
  // D: the root of f(D) = D³/4xy + (L − 1)D − L(x+y), by bisection.
  const f = (d: bigint) => (d * d * d) / (4n * x * y) + (leverage - 1n) * d - leverage * (x + y)
  let [lo, hi] = [0n, 2n * (x + y)]
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (f(mid) < 0n) lo = mid
    else hi = mid
  }
  const d = hi
  // y' for x' = x + dx: the root of L·y'² + (L·x' + D − L·D)·y' − D³/4x' = 0.
  const dx = x / STABLE_PROBE_DIVISOR
  const x2 = x + dx
  const g = (yy: bigint) => leverage * yy * yy + (leverage * x2 + d - leverage * d) * yy - (d * d * d) / (4n * x2)
  let [ylo, yhi] = [0n, y]
  while (yhi - ylo > 1n) {
    const mid = (ylo + yhi) / 2n
    if (g(mid) < 0n) ylo = mid
    else yhi = mid
  }
  const paid = Number(y - yhi) / Number(mq)
  return (paid / (Number(dx) / Number(mt))) * 10 ** (tokenDecimals - quoteDecimals)
}
/** The probing swap of the stable price truth: this fraction of the pool's token side. */
const STABLE_PROBE_DIVISOR = 1_000_000n
/** Lockers that lock for good. */
const PERMANENT_LOCKERS: readonly LpLockSpec['locker'][] = ['raydium', 'meteora-damm-v1']
const AMM_NAMES: Record<Amm, string> = {
  'raydium-amm-v4': 'Raydium AMM v4',
  'raydium-cpmm': 'Raydium CPMM',
  'raydium-clmm': 'Raydium CLMM',
  'orca-whirlpool': 'Orca Whirlpool',
  pumpswap: 'PumpSwap',
  'meteora-damm-v2': 'Meteora DAMM v2',
  'meteora-dlmm': 'Meteora DLMM',
  'raydium-launchlab': 'Raydium LaunchLab',
  'meteora-dbc': 'Meteora DBC',
  'meteora-damm-v1': 'Meteora DAMM v1',
}

function ammProgram(amm: Amm): string {
  return AMM_PROGRAMS[amm]
}

function ammName(amm: Amm): string {
  return AMM_NAMES[amm]
}

function setProgramAccount(ledger: SolanaLedger, address: Address, owner: string, data: Uint8Array): void {
  ledger.setAccount({
    address,
    data,
    executable: false,
    lamports: lamports(ledger.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    programAddress: owner as Address,
    space: BigInt(data.length),
  })
}

async function metaplexAddress(mint: Address): Promise<Address> {
  const program = METAPLEX_TOKEN_METADATA_PROGRAM as Address
  const [pda] = await getProgramDerivedAddress({ programAddress: program, seeds: [new TextEncoder().encode('metadata'), enc.encode(program), enc.encode(mint)] })
  return pda
}

async function setMetaplex(ledger: SolanaLedger, mint: Address, m: { updateAuthority: string; name: string; symbol: string; uri: string; isMutable: boolean }): Promise<void> {
  setProgramAccount(ledger, await metaplexAddress(mint), METAPLEX_TOKEN_METADATA_PROGRAM, metaplexMetadataData({ ...m, mint, tokenStandard: 2 }))
}

/** Deploys the Memo program's code under the upgradeable loader: buffer, writes, deploy. */
async function deployUpgradeable(ledger: SolanaLedger, authority: KeyPairSigner, programSigner: KeyPairSigner, rent: (n: number) => bigint): Promise<Address> {
  const memo = ledger.svm.getAccount(MEMO_PROGRAM as Address)
  if (!memo.exists) throw new Error('LiteSVM has no Memo program to deploy as a hook program')
  const code = new Uint8Array(memo.data)
  const buffer = await namedSigner(`buffer of ${programSigner.address}`)
  await ledger.send(authority, [
    ix.createAccount(authority, buffer, rent(ix.bufferSize(code.length)), ix.bufferSize(code.length), BPF_LOADER_UPGRADEABLE),
    ix.loaderInitializeBuffer(buffer.address, authority.address),
  ])
  for (let offset = 0; offset < code.length; offset += ix.LOADER_WRITE_CHUNK) {
    await ledger.send(authority, [ix.loaderWrite(buffer.address, authority, offset, code.subarray(offset, offset + ix.LOADER_WRITE_CHUNK))])
  }
  const programData = await ix.findProgramDataAddress(programSigner.address)
  await ledger.send(authority, [
    ix.createAccount(authority, programSigner, rent(ix.PROGRAM_ACCOUNT_SIZE), ix.PROGRAM_ACCOUNT_SIZE, BPF_LOADER_UPGRADEABLE),
    ix.loaderDeployWithMaxDataLen(authority, programData, programSigner.address, buffer.address, authority, code.length * 2),
  ])
  return programSigner.address
}

/** The balance of a token account (bytes 64..72). */
function tokenBalance(ledger: SolanaLedger, account: Address): bigint {
  const a = ledger.svm.getAccount(account)
  if (!a.exists) return 0n
  const data = new Uint8Array(a.data)
  return new DataView(data.buffer, data.byteOffset).getBigUint64(64, true)
}

/** The supply the token program records in the mint (bytes 36..44). */
function mintSupply(ledger: SolanaLedger, mint: Address): bigint {
  const account = ledger.svm.getAccount(mint)
  if (!account.exists) throw new Error(`mint ${mint} vanished`)
  const data = new Uint8Array(account.data)
  return new DataView(data.buffer, data.byteOffset).getBigUint64(36, true)
}

/** Every token account of `mint` with a balance, largest first, read back from the ledger. */
function tokenHolders(ledger: SolanaLedger, mint: Address, program: string): SolanaManifestHolder[] {
  const decoderOffsets = { mint: 0, owner: 32, amount: 64 }
  const decoder = getAddressDecoder()
  const addressOf = (data: Uint8Array, offset: number) => decoder.decode(data.subarray(offset, offset + 32))
  return ledger.svm
    .getProgramAccounts(program as Address)
    .filter((a) => a.data.length >= 165 && (a.data.length === 165 || a.data[165] === 2) && addressOf(new Uint8Array(a.data), decoderOffsets.mint) === mint)
    .map((a) => {
      const data = new Uint8Array(a.data)
      const owner = addressOf(data, decoderOffsets.owner)
      return {
        owner,
        tokenAccount: a.address as string,
        balance: new DataView(data.buffer, data.byteOffset).getBigUint64(decoderOffsets.amount, true).toString(),
        isContract: isOffCurveAddress(owner as Address),
        isLocked: owner === INCINERATOR,
      }
    })
    .filter((h) => h.balance !== '0')
    .sort((a, b) => (a.balance === b.balance ? (a.tokenAccount < b.tokenAccount ? -1 : 1) : BigInt(b.balance) > BigInt(a.balance) ? 1 : -1))
}


export interface StartedSolanaWorld {
  rpcUrl: string
  manifest: SolanaManifest
  /** Whether a saved world was loaded rather than built. */
  loaded: boolean
  stop(): Promise<void>
}

/**
 * The saved world of these sources — this data directory's, else the one this install keeps
 * for every data directory — or a new one, built and saved in both places.
 */
async function loadOrBuildSolanaWorld(dir: string, useSaved: boolean): Promise<SolanaWorld & { loaded: boolean }> {
  const key = solanaWorldKey()
  if (useSaved) {
    const own = readSavedSolanaWorld(dir, key)
    const found = own ?? readSavedSolanaWorld(SHARED_SOLANA_WORLD_DIR, key)
    if (found) {
      const ledger = new SolanaLedger({ restored: found.snapshot })
      // A data directory that took the install's world keeps its own copy; the install keeps one too.
      if (!own) saveSolanaWorld(dir, key, found.snapshot, found.saved.manifest, found.saved.builtAt)
      else if (!existsSync(savedSolanaWorldPath(SHARED_SOLANA_WORLD_DIR, key))) saveSolanaWorld(SHARED_SOLANA_WORLD_DIR, key, found.snapshot, found.saved.manifest, found.saved.builtAt)
      return { ledger, manifest: found.saved.manifest, loaded: true }
    }
  }
  const builtAt = Date.now()
  const world = await buildSolanaWorld({ now: builtAt })
  const snapshot = world.ledger.snapshot()
  saveSolanaWorld(dir, key, snapshot, world.manifest, builtAt)
  saveSolanaWorld(SHARED_SOLANA_WORLD_DIR, key, snapshot, world.manifest, builtAt)
  return { ...world, loaded: false }
}

/**
 * Serves the world on 127.0.0.1 as a Solana JSON-RPC and writes its manifest to
 * `<dataDir>/devnet/solana-manifest.json`. `npm start` runs it when SOLANA_RPC_URL is unset.
 * A world built before from the same sources (in this data directory, or by this install for any
 * data directory) is loaded instead of built, whatever its age: its clock, and so every time a
 * report measures against it, is the one it was built with.
 *
 * @example
 * const world = await startSolanaWorld({ dataDir: './data', log: console.log })
 * const service = createSolanaReportService({ rpcUrls: [world.rpcUrl], cache, logger, options: { pricing: world.manifest.pricing } })
 */
export async function startSolanaWorld(options: {
  dataDir: string
  port?: number
  log?: (line: string) => void
  /** Hooks for tests: programs refused by getProgramAccounts, intercepted calls. */
  rpc?: Pick<SolanaRpcServerOptions, 'refuseProgramAccounts' | 'intercept'>
  /** false builds a new world even when a saved one is there. */
  useSaved?: boolean
}): Promise<StartedSolanaWorld> {
  const started = performance.now()
  const dir = join(options.dataDir, 'devnet')
  const { ledger, manifest: base, loaded } = await loadOrBuildSolanaWorld(dir, options.useSaved !== false)
  let server: SolanaRpcServer | undefined
  try {
    server = await startSolanaRpcServer({ ledger, port: options.port, log: options.log, ...options.rpc })
    const manifest: SolanaManifest = { ...base, rpcUrl: server.url }
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'solana-manifest.json'), JSON.stringify(manifest, null, 2))
    writeLocalSolanaFile(dir, manifest)
    options.log?.(`solana world ${loaded ? 'loaded' : 'built'}: ${manifest.mints.length} demo mints, ${ledger.transactionCount()} transactions in ${Math.round(performance.now() - started)} ms`)
    const running = server
    return {
      rpcUrl: server.url,
      manifest,
      loaded,
      stop: async () => {
        removeLocalFile(dir, LOCAL_SOLANA_FILE, running.url)
        await running.stop()
      },
    }
  } catch (error) {
    await server?.stop()
    throw error
  }
}
