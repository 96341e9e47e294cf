import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox'
import { Flag, Risk, RiskRatedNumber, Str } from './common.ts'
import { CodeCheck, describedCheck } from './token-report.ts'
import { SOLANA_CHECK_CATALOGUE, checkGroupProperties, type SOLANA_OTHER_CHECKS, type SOLANA_OWNERSHIP_CHECKS } from './checks.ts'

/**
 * The body of `GET /api/v1/tokens/solana/{tokenAddress}`: the EVM report's sections and
 * conventions (every scalar a string, "" when unknown, checks as {description, risk, status,
 * comment} (what each check's status "1" means: docs/checks.md) with "1" = risky capability present), with the fields a Solana mint has on top.
 */

const obj = <T extends TProperties>(props: T, description: string): TObject<T> =>
  Type.Object(props, { additionalProperties: false, description })

/** The contract's risk-rated number {number, risk}, with what the number is. */
const Rated = (description: string) => Type.Object(RiskRatedNumber.properties, { additionalProperties: false, description })

const Tri = (description: string) => Str(`${description}: "1" yes, "0" no, "" unknown`)

export const SolanaAuthorities = obj(
  {
    mint: Str('mint authority: can create tokens; "" when revoked'),
    freeze: Str('freeze authority: can freeze any token account; "" when revoked'),
    update: Str('metadata update authority (Metaplex or Token-2022 embedded metadata); "" when none or immutable'),
    permanentDelegate: Str('Token-2022 permanent delegate: can move or burn any balance; "" when none'),
    close: Str('Token-2022 mint close authority; "" when none'),
    transferFeeConfig: Str('Token-2022 transfer-fee config authority: can change the fee; "" when none'),
    withdrawWithheld: Str('Token-2022 authority that collects withheld transfer fees; "" when none'),
    transferHook: Str('Token-2022 transfer-hook authority: can change the hook program; "" when none'),
    pause: Str('Token-2022 pause authority; "" when none'),
    metadataPointer: Str('Token-2022 metadata-pointer authority: can point the metadata elsewhere; "" when none'),
    confidentialTransfer: Str('Token-2022 confidential-transfer authority; "" when none'),
    interestRate: Str('Token-2022 interest-rate authority; "" when none'),
    scaledUiAmount: Str('Token-2022 UI-multiplier authority; "" when none'),
  },
  'Every authority the mint names; "" where the role is unset or the extension absent.',
)

export const SolanaMetadata = obj(
  {
    source: Str('"metaplex" (Token Metadata account), "token-2022" (embedded metadata extension), or "" when the token has none'),
    address: Str('account holding the metadata (the Metaplex PDA, or the mint itself for embedded metadata)'),
    uri: Str('off-chain metadata URI as written on chain'),
    updateAuthority: Str('who can change the metadata; "" when no one'),
    isMutable: Tri('whether the metadata can still change'),
    tokenStandard: Str('Metaplex token standard (e.g. "Fungible"); "" when not recorded'),
  },
  'On-chain metadata of the token.',
)

export const SolanaTransferFee = obj(
  {
    currentBasisPoints: Str('fee charged on transfers in the current epoch, basis points (100 = 1 %); "" without a transfer fee'),
    currentMaximumFee: Str('cap of the current fee per transfer, whole tokens'),
    scheduledBasisPoints: Str('fee that takes over at `scheduledEpoch`, basis points; "" when none is scheduled'),
    scheduledMaximumFee: Str('cap of the scheduled fee per transfer, whole tokens'),
    scheduledEpoch: Str('epoch from which the scheduled fee applies'),
    currentEpoch: Str('the cluster epoch when the report was made; "" when not read'),
    withheldAmount: Str('fees withheld in the mint, whole tokens'),
  },
  'Token-2022 transfer fee (a tax on every transfer, buys and sells alike); all "" without the extension.',
)

export const SolanaTransferHook = obj(
  {
    programId: Str('program invoked on every transfer; "" when none'),
    programUpgradeable: Tri('whether that program can still be upgraded'),
    programUpgradeAuthority: Str('who can upgrade that program; "" when no one or unknown'),
  },
  'Token-2022 transfer hook: a program that runs on every transfer and can make it fail.',
)

export const SolanaMarketData = obj(
  {
    currentPriceUsd: Str('USD price of one whole token, from the deepest priced pool; "" when no pool prices it'),
    marketCapUsd: Str('price × total supply, USD'),
    pastOneDayHigh: Str('highest USD price of the last 24 h; "" (JSON-RPC keeps no price history)'),
    pastOneDayLow: Str('lowest USD price of the last 24 h; "" (JSON-RPC keeps no price history)'),
  },
  'Market figures derived from on-chain pools.',
)

export const SolanaSocialInformation = obj(
  {
    codeHostLinks: Type.Array(Type.String(), { description: 'links to source repositories, from the token list or the off-chain metadata JSON (github); empty when neither gives one' }),
    microblog: obj({ name: Str('microblog account (twitter/X link), from the token list or the off-chain metadata JSON; "" when neither gives one'), followers: Str('followers; "" (not on chain)') }, 'microblog account'),
    socialNetwork: obj({ name: Str('social network page (facebook), from the token list or the off-chain metadata JSON; "" when neither gives one'), likes: Str('likes; "" (not on chain)') }, 'social network page'),
    messenger: obj({ name: Str('messenger group (telegram), from the token list or the off-chain metadata JSON; "" when neither gives one'), users: Str('members; "" (not on chain)') }, 'messenger group'),
    forum: obj({ url: Str('forum or community URL (discord), from the token list or the off-chain metadata JSON; "" when neither gives one'), subscribers: Str('forum subscribers; "" (not on chain)') }, 'forum'),
  },
  'Social links, in the shape of the EVM report; a Solana mint records none, so all are empty.',
)

export const SolanaExternalLinks = obj(
  {
    marketAggregatorLink: Str('market aggregator page, from the token list (coingeckoId); "" when it has none'),
    blockExplorerLink: Str('block explorer page of the mint on a public cluster; "" on a private cluster'),
    poolTerminal: Str('explorer page of the deepest pool; "" when none'),
  },
  'Links about the token.',
)

export const SolanaTokenInformation = obj(
  {
    tokenAddress: Str('mint address, base58'),
    tokenName: Str('name from the metadata; "" when the token has none'),
    tokenSymbol: Str('symbol from the metadata; may be empty'),
    tokenImageLink: Str('image URL (https, or an ipfs/ar gateway URL): from the token list, else from the off-chain JSON at metadata.uri when METADATA_FETCH is on; "" when neither gives one'),
    tokenCreationDate: Str('ISO 8601 time of the transaction that initialised the mint; "" when the RPC no longer keeps it'),
    creationSignature: Str('signature of that transaction'),
    totalSupply: Str('supply in whole tokens (decimal)'),
    rawSupply: Str('supply in base units (integer)'),
    decimals: Str('decimals of the mint'),
    tokenProgram: Str('program that owns the mint: SPL Token or Token-2022 address'),
    tokenProgramName: Str('"spl-token" or "token-2022"'),
    ownerAddress: Str('the mint authority (who can mint); "" when revoked'),
    ownerBalance: Str('tokens held by the mint authority, whole tokens; "" when unknown or no authority'),
    creatorAddress: Str('fee payer of the transaction that initialised the mint; "" when unknown'),
    creatorBalance: Str('tokens held by the creator, whole tokens; "" when unknown'),
    tokenCategories: Type.Array(Type.String(), { description: 'token program name, metadata token standard and notable kinds ("non-transferable", "confidential")' }),
    authorities: SolanaAuthorities,
    metadata: SolanaMetadata,
    extensions: Type.Array(Type.String(), { description: 'names of the Token-2022 extensions on the mint, in account order (e.g. "TransferFeeConfig"); empty for SPL Token' }),
    transferFee: SolanaTransferFee,
    transferHook: SolanaTransferHook,
    defaultAccountState: Str('state new token accounts start in: "initialized" or "frozen"; "" without the extension'),
    paused: Tri('whether transfers are paused now (Token-2022 Pausable)'),
    marketData: SolanaMarketData,
    socialInformation: SolanaSocialInformation,
    externalLinks: SolanaExternalLinks,
  },
  'General information about the mint.',
)

const ScorePart = obj(
  {
    achievedScore: Str('points earned'),
    maxScore: Str('points possible from the decided figures'),
    minScore: Str('lowest possible points'),
  },
  'Points of one part of the score (docs/scoring.md).',
)

export const SolanaTokenScore = obj(
  {
    checksPerformed: Str('how many of the code checks were decided ("0" or "1"); the others ("") count in no score'),
    checksTotal: Str('how many code checks the report has'),
    totalScorePercentage: Str('code and market points together, percent of their maximum; may be negative'),
    codeScorePercentage: Str('code points, percent of their maximum; may be negative'),
    marketScorePercentage: Str('market points, percent of their maximum'),
    codeScore: ScorePart,
    marketScore: ScorePart,
  },
  'Score, same model as the EVM report (docs/scoring.md).',
)

export const SolanaHolderEntry = obj(
  {
    address: Str('owner of the token account (the wallet or program address that controls it)'),
    tokenAccount: Str('the token account holding the balance'),
    percent: Str('share of the total supply, percent'),
    isContract: Flag('"1" when the owner is a program or a program-derived address (only a program can move the tokens)'),
    isLocked: Flag('"1" when the owner is a burn address (no one can move the tokens)'),
    balance: Str('balance, whole tokens'),
    tag: Str('what the owner is, when known: "burn", "pool vault (<dex>)", "mint authority", "creator"; "" otherwise'),
  },
  'One holder (by token account, largest first).',
)

const DistributionMember = (description: string) =>
  obj({ percent: Str('share of the supply, percent'), balance: Str('whole tokens'), risk: Risk }, description)

export const SolanaDistribution = obj(
  {
    topThree: DistributionMember('the three largest holders, pool vaults and burn addresses excluded'),
    topTen: DistributionMember('the ten largest holders, pool vaults and burn addresses excluded'),
    owner: DistributionMember('the mint authority'),
    creator: DistributionMember('the creator'),
  },
  'How concentrated the supply is.',
)

export const SolanaAvailableDex = obj(
  {
    name: Str('exchange (AMM) name, e.g. "Raydium CPMM"'),
    link: Str('explorer page of the pool; "" on a private cluster'),
    liquidity: Str('USD value of both sides of the pool; "" when its quote token is not priced'),
    pair: Str('pool address'),
  },
  'A pool the token trades in.',
)

export const SolanaMarketChecks = obj(
  {
    exchangabilityChecks: obj(
      {
        numberOfTradingPairs: Rated('pools found for the token; "" when the RPC refuses pool searches'),
        currentLiquidity: Rated('USD value of the priced pools (both sides); "" when pools are unknown'),
        availableDex: Type.Array(SolanaAvailableDex, { description: 'pools found on Raydium AMM v4, Raydium CPMM and Orca Whirlpools, deepest first' }),
        centralisedExchanges: Type.Array(obj({ name: Str('exchange name'), link: Str('may be empty') }, 'a centralised exchange'), {
          description: 'always empty: listings on centralised exchanges are not on chain',
        }),
      },
      'Where the token can be traded. numberOfTradingPairs and currentLiquidity (USD) are "" when the RPC refuses pool searches.',
    ),
    holdersChecks: obj(
      {
        holdersCount: Rated('distinct owners holding a balance'),
        keyHolders: Type.Array(SolanaHolderEntry, { description: 'the largest token accounts (at most 20, from getTokenLargestAccounts)' }),
        percentDistributed: SolanaDistribution,
      },
      'Who holds the token. holdersCount counts distinct owners with a balance, through getProgramAccounts; "" when the RPC refuses it or the answer is too large.',
    ),
    liquidityChecks: obj(
      {
        totalLpSupply: Str('LP tokens of the deepest constant-product pool in circulation, whole LP tokens; "" without one'),
        lpHolderCount: Rated('distinct owners holding the LP token; "" when more than the largest-accounts list shows'),
        keyLpHolders: Type.Array(SolanaHolderEntry, { description: 'largest holders of those LP tokens' }),
        percentDistributed: SolanaDistribution,
        liquidityLockedDetails: obj(
          {
            upcomingUnlockDetails: Type.Array(
              obj({ balance: Str('LP tokens'), percent: Str('percent of LP'), time: Str('ISO 8601'), risk: Risk, tag: Str('locker name') }, 'an unlock'),
              { description: 'always empty: no Solana locker program is read' },
            ),
            totalLiquidityPercentageLocked: Rated('percent of the LP tokens the pool issued that are burned or held by burn addresses'),
          },
          'Share of the LP tokens burned (issued by the pool but no longer in supply) or held by burn addresses.',
        ),
      },
      'LP tokens of the deepest Raydium pool (who could withdraw the liquidity).',
    ),
  },
  'Market checks: pools, holders and LP tokens.',
)

export const SolanaCodeChecks = obj(
  {
    ownershipChecks: obj(
      checkGroupProperties<(typeof SOLANA_OWNERSHIP_CHECKS)[number], typeof CodeCheck>(SOLANA_CHECK_CATALOGUE.ownershipChecks, describedCheck),
      'Powers someone holds over the token or its holders.',
    ),
    otherChecks: obj(
      checkGroupProperties<(typeof SOLANA_OTHER_CHECKS)[number], typeof CodeCheck>(SOLANA_CHECK_CATALOGUE.otherChecks, describedCheck),
      'Behaviours of the token on every transfer.',
    ),
  },
  'Code checks: {description, risk, status, comment}; status "1" = the risky capability is present, "0" = absent or not determinable (then risk is "" and comment says why).',
)

export const SolanaHoneypotDetail = obj(
  {
    buyTax: Rated('transfer fee paid on a buy, percent'),
    sellTax: Rated('transfer fee paid on a sell, percent'),
    transferTax: Rated('transfer fee paid on a wallet-to-wallet transfer, percent'),
    isPairHoneypot: Flag('"1" when a buyer could not sell: non-transferable, paused, accounts start frozen, or the pool’s token vault is frozen'),
    honeypotReason: Str('why it is a honeypot; "" when it is not'),
    dex: Str('exchange name; "" for the token-level entry given when no pool is found'),
    pair: Type.Array(Type.String(), { description: 'the two mints of the pool; empty for the token-level entry' }),
    pairAddress: Str('pool address; "" for the token-level entry'),
  },
  'Taxes per pool. The Token-2022 transfer fee is charged on buys, sells and transfers alike, in percent; the AMM swap fee is not a tax. "0" when the token has no transfer fee.',
)

export const SolanaReport = Type.Object(
  {
    tokenInformation: SolanaTokenInformation,
    tokenScore: SolanaTokenScore,
    marketChecks: SolanaMarketChecks,
    codeChecks: SolanaCodeChecks,
    honeypotDetails: Type.Array(SolanaHoneypotDetail, { description: 'one element per pool, or one token-level element when no pool is found' }),
  },
  {
    additionalProperties: false,
    $id: 'SolanaReport',
    description: 'Risk report of a Solana SPL Token or Token-2022 mint. Every scalar is a string; "" means unknown.',
  },
)
export type SolanaReport = Static<typeof SolanaReport>
