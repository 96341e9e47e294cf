import { Type, type Static, type TProperties } from '@sinclair/typebox'
import { Str } from './common.ts'
import { Bool, CheckItem, DistributionMember, Holder, Int, Items, Num, OverallScore, RatedNum, RiskCategories, RiskCounts, RiskNumber, obj } from './description.ts'

/**
 * The body of `GET /api/v1/tokens/solana/{tokenAddress}`: the Solana body the hosted service
 * publishes (sections, keys, JSON types and the headings clients match on, as gathered in
 * docs/compat.md), filled from what tokenrisk measures, with what it measures beyond that under
 * extra keys. Scores, counts, percents and risk ratings are JSON numbers there; every value that
 * could not be determined is `""`, never a number or `false` that reads as a measurement (a risk
 * number is 3, what clients draw as neutral). The parts it shares with the same shape for EVM
 * tokens are in description.ts.
 */

const Tri = (description: string) => Str(`${description}: "1" yes, "0" no, "" unknown`)

export const SolanaAuthorities = obj(
  {
    mint: Holder('mint authority: can create tokens'),
    freeze: Holder('freeze authority: can freeze any token account'),
    update: Holder('metadata update authority (Metaplex or Token-2022 embedded metadata); "Renounced" also when the metadata is immutable or the token has none'),
    permanentDelegate: Holder('Token-2022 permanent delegate: can move or burn any balance'),
    close: Holder('Token-2022 mint close authority'),
    transferFeeConfig: Holder('Token-2022 transfer-fee config authority: can change the fee'),
    withdrawWithheld: Holder('Token-2022 authority that collects withheld transfer fees'),
    transferHook: Holder('Token-2022 transfer-hook authority: can change the hook program'),
    pause: Holder('Token-2022 pause authority'),
    metadataPointer: Holder('Token-2022 metadata-pointer authority: can point the metadata elsewhere'),
    confidentialTransfer: Holder('Token-2022 confidential-transfer authority'),
    interestRate: Holder('Token-2022 interest-rate authority'),
    scaledUiAmount: Holder('Token-2022 UI-multiplier authority'),
  },
  'Every authority a mint can name: its holder, "Renounced" when no one holds it (revoked, never set, or the mint has not the extension that would hold it), "" when it could not be read (only `update`, when the metadata account could not be read).',
)

export const SolanaMetadata = obj(
  {
    source: Str('"metaplex" (Token Metadata account), "token-2022" (embedded metadata extension), or "" when the token has none'),
    address: Str('account holding the metadata (the Metaplex PDA, or the mint itself for embedded metadata)'),
    uri: Str('off-chain metadata URI as written on chain'),
    updateAuthority: Holder('who can change the metadata; "Renounced" when no one can (immutable, or no metadata)'),
    isMutable: Tri('whether the metadata can still change ("0" also when the token has none)'),
    tokenStandard: Str('Metaplex token standard (e.g. "Fungible"); "" when not recorded'),
    offChainStatus: Str('the off-chain document at `uri`: "read"; "missing" when no uri is named (or the token has no metadata); "unreachable" when it could not be fetched or is not metadata; "" when not fetched (METADATA_FETCH off) or the metadata account could not be read'),
    offChainReason: Str('why the document is missing, unreachable or not known; "" when it was read'),
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


export const SolanaGeneralInformation = obj(
  {
    lastUpdated: Str('ISO 8601 time the report was computed (a cached report keeps its time)'),
    tokenAddress: Str('mint address, base58'),
    mint: Str('mint address, base58 (same as tokenAddress)'),
    chainId: Str('Token Lists chain id of the cluster: "101" mainnet-beta, "102" testnet, "103" devnet; "" for a cluster not identified by its genesis hash'),
    chainName: Str('"Solana", "Solana devnet" or "Solana testnet"; "Solana (unidentified cluster)" for a private one'),
    cluster: Str('cluster the RPC serves, from its genesis hash: "mainnet-beta", "devnet", "testnet"; "" when not a public one'),
    tokenName: Str('name from the metadata; "" when the token has none'),
    tokenSymbol: Str('symbol from the metadata; may be empty'),
    tokenImageLink: Str('image URL (https, or an ipfs/ar gateway URL): from the token list, else from the off-chain JSON at metadata.uri when METADATA_FETCH is on; "" when neither gives one'),
    tokenCreationDate: Str('UTC day of the transaction that initialised the mint, DD/MM/YYYY as clients of the published body parse it; "" when the RPC no longer keeps it'),
    tokenCreationTime: Str('the same moment, ISO 8601'),
    lookAlikeOf: Type.Array(
      obj({ address: Str('the well-known mint'), symbol: Str('its symbol'), name: Str('its name ("" when the list gives none)'), source: Str('which list or reference names it') }, 'a well-known token the mint imitates'),
      { description: 'well-known tokens whose symbol or name the mint takes without being them (check lookAlike); empty when none or unknown' },
    ),
    creatorHistory: obj(
      {
        earlierMintCount: Num('mints the creator initialised before this one, in the transactions read'),
        pulledCount: Num('those whose liquidity the creator pulled (check creatorRugHistory)'),
        earlierMints: Type.Array(obj({ mint: Str('the earlier mint'), signature: Str('the transaction that shows it') }, 'an earlier mint'), { description: 'the earlier mints' }),
        liquidityPulled: Type.Array(obj({ mint: Str('the earlier mint'), signature: Str('the transaction that took its token and quote out of the pool') }, 'a pull'), { description: 'the pulls' }),
        complete: Tri("whether every transaction of the creator before this mint was read (the budget is 20)"),
        deadMintCount: Num('earlier mints that are dead, of the first 10 checked: never traded (only their creation), or a pump.fun curve no one bought from'),
        deadMints: Type.Array(obj({ mint: Str('the earlier mint'), evidence: Str('why it is dead') }, 'a dead mint'), { description: 'the dead earlier mints' }),
        pumpCurves: obj(
          {
            created: Num('pump.fun curves the creator launched, of any age (this mint\'s excluded), from one search'),
            graduated: Num('of those, complete'),
            dead: Num('of those, not complete and bought from by no one'),
          },
          'The creator\'s pump.fun launches; "" when the search was refused.',
        ),
        reason: Str('why the history is unknown; "" when it was read'),
      },
      "The creator's earlier tokens, from its transactions before this mint's creation.",
    ),
    tokenAgeDays: RatedNum('days since that transaction, when the report was made (young tokens are rated risky: under a day Medium Risk, under an hour RISKY)'),
    creationSignature: Str('signature of that transaction'),
    ownerAddress: Holder('the mint authority (who can mint); "Renounced" when it is revoked'),
    ownerBalance: Str('tokens held by the mint authority, whole tokens; "" when unknown or revoked'),
    creatorAddress: Str('fee payer of the transaction that initialised the mint; "" when unknown'),
    creatorBalance: Str('tokens held by the creator, whole tokens; "" when unknown'),
    categories: Type.Array(Type.String(), { description: 'token program name, metadata token standard, notable kinds ("non-transferable", "confidential") and the token list\'s tags' }),
    decimals: Str('decimals of the mint'),
    tokenProgram: Str('program that owns the mint: SPL Token or Token-2022 address'),
    tokenProgramName: Str('"spl-token" or "token-2022"'),
    authorities: SolanaAuthorities,
    metadata: SolanaMetadata,
    extensions: Type.Array(Type.String(), { description: 'names of the Token-2022 extensions on the mint, in account order (e.g. "TransferFeeConfig"); empty for SPL Token' }),
    transferFee: SolanaTransferFee,
    transferHook: SolanaTransferHook,
    defaultAccountState: Str('state new token accounts start in: "initialized" or "frozen"; "" without the extension'),
    paused: Tri('whether transfers are paused now (Token-2022 Pausable)'),
  },
  'What the mint is. Published keys: lastUpdated, tokenAddress, mint, chainId, chainName, tokenName, tokenSymbol, tokenImageLink, tokenCreationDate, ownerAddress, categories, creatorAddress; the others are tokenrisk\'s.',
)

export const SolanaSupplyInformation = obj(
  {
    centralisedExchanges: Type.Array(obj({ name: Str('exchange name'), link: Str('may be empty') }, 'a centralised exchange'), {
      description: 'always empty: listings on centralised exchanges are not on chain',
    }),
    tokenHoldersCount: Num('distinct owners holding a balance (getProgramAccounts); also when the RPC refuses it or the answer is too large'),
    totalSupply: Str('supply in whole tokens (decimal)'),
    rawSupply: Str('supply in base units (integer)'),
    currentPriceUsd: Str('USD price of one whole token, from the deepest priced pool; "" when no pool prices it'),
    marketCapUsd: Str('price × total supply, USD; "" without a price'),
    pastOneDayHigh: Str('highest USD price of the last 24 h; "" (JSON-RPC keeps no price history)'),
    pastOneDayLow: Str('lowest USD price of the last 24 h; "" (JSON-RPC keeps no price history)'),
  },
  'Supply, holders and market figures (derived from on-chain pools).',
)

const Named = <T extends TProperties>(what: string, counts: T) =>
  obj(
    {
      name: Str(`${what}: the handle or name; "" when neither the token list nor the off-chain JSON gives one`),
      url: Str(`${what}: the link; "" when unknown`),
      ...counts,
    },
    what,
  )
const Count = (what: string) => Num(`${what} (in neither source: always "")`)

export const SolanaSocialInformation = obj(
  {
    githubLinks: Type.Array(Type.String(), { description: 'source repositories, from the token list or the off-chain metadata JSON; empty when neither gives one' }),
    reddit: Named('subreddit', { subscribers: Count('subscribers') }),
    facebook: Named('facebook page', { likes: Count('likes') }),
    twitter: Named('twitter/X account', { followers: Count('followers') }),
    telegram: Named('telegram group', { members: Count('members') }),
    discord: Named('discord server', {}),
    website: obj({ url: Str('project website (https); "" when unknown') }, 'website'),
    externalLinks: obj(
      {
        coinGeckoLink: Str('CoinGecko page, from the token list\'s coingeckoId; "" when it has none'),
        coinGeckoId: Str('CoinGecko id from the token list; "" when it has none'),
        blockExplorerLink: Str('block explorer page of the mint on a public cluster; "" on a private cluster'),
        geckoTerminal: Str('GeckoTerminal page of the deepest pool on mainnet-beta; "" otherwise'),
      },
      'Links about the token.',
    ),
  },
  'Social links, from the token list (bundled, or TOKEN_LIST) and the off-chain metadata JSON; follower counts are in neither, so they are "".',
)

export const SolanaChecksInformation = obj(
  {
    totalChecks: Int('code checks and market figures the report rates'),
    checksPerformed: Int('those decided (the others are unknown and count in no score)'),
    aggregatedCount: RiskCounts,
  },
  'How many checks the report holds, and how many carry each risk label.',
)

export const SolanaTokenInformation = obj(
  {
    generalInformation: SolanaGeneralInformation,
    tokenSupplyInformation: SolanaSupplyInformation,
    socialInformation: SolanaSocialInformation,
    totalChecksInformation: SolanaChecksInformation,
  },
  'General information about the mint.',
)

export const SolanaCheckItem = CheckItem

export const SolanaCodeChecks = obj(
  {
    maxCodeCheckScore: Num('highest code score the decided checks allow'),
    minCodeCheckScore: Num('lowest code score they allow (negative)'),
    codeCheckScore: Num('code points earned (may be negative)'),
    availableChecks: Int('code checks the report has'),
    checksPerformed: Int('code checks decided; the others count in no score'),
    codeCheckScorePercentage: Num('code points, percent of their maximum (may be negative)'),
    codeCheckDescription: obj(
      {
        ownershipPermissionsDescription: Items(
          'powers someone holds over the token: mint authority, freeze authority, metadata mutability and transfer fee first, in that order, then the others',
        ),
        externalContractDescription: Items('programs every transfer runs: the transfer hook'),
        transactionLimitersDescription: Items('what limits transfers now: non-transferable, paused, transfer fee, confidential transfers, frozen holder accounts; and whether the token imitates a well-known one'),
      },
      'Every code check, grouped as the published body groups them.',
    ),
  },
  'Code checks and the code score (docs/scoring.md).',
)

export const SolanaHolder = obj(
  {
    address: Str('owner of the token account (the wallet or program address that controls it)'),
    percent: Num('share of the total supply, percent'),
    isContract: Bool('true when the owner is a program or a program-derived address (only a program can move the tokens)'),
    isLocked: Bool('true when the owner is a burn address (no one can move the tokens)'),
    balance: Str('balance, whole tokens'),
    tokenAccount: Str('the token account holding the balance'),
    tag: Str('what the owner is, when known: "burn", "pool vault (<dex>)", "mint authority", "creator"; "" otherwise'),
    isFrozen: Type.Boolean({ description: 'true when the token account is frozen: its owner cannot move or sell the balance until the freeze authority thaws it' }),
  },
  'One holder (by token account, largest first).',
)

const Distribution = (of: string) =>
  obj(
    {
      topThree: DistributionMember(of === 'supply' ? 'the three largest holders, pool vaults and burn addresses excluded' : 'the three largest holders; LP shares are of the LP the pool issued (burned LP included)'),
      topTen: DistributionMember('the ten largest holders, pool vaults and burn addresses excluded'),
      largest: DistributionMember(of === 'supply' ? 'the largest single holder (an owner\'s token accounts added), pool vaults and burn addresses excluded, rated' : 'the largest single holder of the LP (not rated)'),
      owner: DistributionMember('the mint authority; "" without one'),
      creator: DistributionMember('the creator'),
      burnt: DistributionMember('burned, or held by burn addresses (not rated)'),
      locked: DistributionMember(of === 'supply' ? 'locked in a locker: "" (no Solana locker program is read)' : 'LP burned or held by burn addresses (locked for ever) and LP a lock program holds (Streamflow, Jupiter Lock, Raydium\'s LP lock, Meteora DAMM v1\'s lock escrows; for ever, or until its unlocks), rated as locked liquidity'),
      other: DistributionMember('everything outside the ten largest holders and the burnt part (pool vaults included; not rated)'),
    },
    `How the ${of} is spread.`,
  )

export const SolanaPair = obj(
  {
    pairAddress: Str('pool address'),
    dexName: Str('exchange (AMM) name, e.g. "Raydium CPMM"'),
    dexImageLink: Str('"" (no image is bundled for exchanges)'),
    token0Address: Str('first mint of the pool, in pool order'),
    token1Address: Str('second mint'),
    token0Symbol: Str('its symbol: the token\'s own, or the quote\'s when it is a known quote (SOL, a configured stablecoin); "" otherwise'),
    token1Symbol: Str('likewise for the second mint'),
    token0ImageLink: Str('the token\'s image for the token\'s side; "" for the quote'),
    token1ImageLink: Str('likewise for the second mint'),
    token0Balance: Str('the pool\'s reserve of the first mint, whole tokens; "" for the quote side (its decimals are not kept)'),
    token1Balance: Str('likewise for the second mint'),
    pairExplorerLink: Str('explorer page of the pool; "" on a private cluster'),
    lpSupplyInUsd: Str('USD value of both sides of the pool; "" when its quote token is not priced'),
    rawLpSupplyInUsd: Num('the same, as a number'),
  },
  'A pool the token trades in.',
)

export const SolanaDex = obj(
  {
    dexName: Str('exchange (AMM) name'),
    dexImageLink: Str('"" (no image is bundled for exchanges)'),
    numberOfPairs: Int('pools of the token on this exchange'),
    totalLpSupplyInUsd: Str('USD value of those pools; "" when one of them is not priced'),
    pairsInformation: Type.Array(SolanaPair, { description: 'the pools, deepest first' }),
  },
  'One exchange and the token\'s pools on it.',
)

export const SolanaMarketChecks = obj(
  {
    minMarketCheckScore: Num('lowest market score the known figures allow (negative)'),
    maxMarketCheckScore: Num('highest market score they allow'),
    marketCheckScore: Num('market points earned (may be negative)'),
    availableChecks: Int('market figures the report rates'),
    checksPerformed: Int('market figures known (the others count in no score)'),
    marketCheckScorePercentage: Num('market points, percent of their maximum (may be negative)'),
    marketCheckDescription: obj(
      {
        holdersDescription: obj(
          {
            holdersCount: RatedNum('distinct owners holding a balance'),
            keyHolders: Type.Array(SolanaHolder, { description: 'the largest token accounts (at most 20, from getTokenLargestAccounts)' }),
            eoaHolders: Type.Array(SolanaHolder, { description: 'those owned by a wallet' }),
            contractHolders: Type.Array(SolanaHolder, { description: 'those owned by a program or a program-derived address' }),
            percentDistributed: Distribution('supply'),
            launch: obj(
              {
                bundledCount: Num('wallets (not the creator) that bought from a pool or curve in the creation slot'),
                sniperCount: Num('wallets that bought in the first seconds after the creation slot (checks bundledLaunch, snipedLaunch)'),
                insiderCount: Num('wallets the creator funded with SOL before the launch, or sent tokens to, that bought or hold the token'),
                heldPercent: Str('share of the supply those wallets still hold, percent, from the largest accounts; "" when one of them is not among them and the list is not complete'),
                bundled: Type.Array(obj({ wallet: Str('the wallet'), slot: Str('slot of the transaction that shows it'), signature: Str('that transaction'), evidence: Str('what it did') }, 'a wallet seen at launch'), { description: 'the bundled wallets' }),
                snipers: Type.Array(obj({ wallet: Str('the wallet'), slot: Str('slot of the transaction that shows it'), signature: Str('that transaction'), evidence: Str('what it did') }, 'a wallet seen at launch'), { description: 'the snipers' }),
                insiders: Type.Array(obj({ wallet: Str('the wallet'), slot: Str('slot of the transaction that shows it'), signature: Str('that transaction'), evidence: Str('what it did') }, 'a wallet seen at launch'), { description: 'the insiders' }),
                creationSlot: Str('the slot of the creation transaction'),
                transactionsRead: Str('the mint\'s first transactions read, and the creator\'s before them: "<mint> + <creator>"'),
                reason: Str('why the launch could not be read ("" when it was): a node without the history, a pruned one'),
              },
              'Who bought at launch: all counts "" when the history is not available (reason says why).',
            ),
          },
          'Who holds the token.',
        ),
        liquidityDescription: obj(
          {
            aggregatedInformation: obj(
              {
                totalLpSupplyInUsd: obj({ number: Str('USD value of the priced pools (both sides); "" when the pools are unknown'), risk: RiskNumber() }, 'liquidity in USD'),
                lpHolderCount: RatedNum('distinct owners of the LP token of the deepest constant-product pool; also "" when more than the largest-accounts list shows'),
                tradingPairCount: RatedNum('pools found for the token; "" when the RPC refuses pool searches'),
                keyLpHolders: Type.Array(SolanaHolder, { description: 'largest holders of that LP token' }),
                eoaLpHolders: Type.Array(SolanaHolder, { description: 'those owned by a wallet' }),
                contractLpHolders: Type.Array(SolanaHolder, { description: 'those owned by a program or a program-derived address' }),
                liquidityLockedDetails: obj(
                  {
                    upcomingUnlockDetails: Type.Array(obj({ time: Str('ISO 8601; "" when the pool counts in slots'), percent: Num('percent of the pool\'s liquidity that unlocks then'), pool: Str('the pool'), slot: Str('the slot, when the pool counts in slots; "" otherwise') }, 'an unlock'), {
                      description: 'unlocks still to come of liquidity locked in positions with a vesting schedule (Meteora DAMM v2) or of LP tokens in a lock program with a schedule (Streamflow, Jupiter Lock), earliest first',
                    }),
                    lockedPools: Type.Array(
                      obj(
                        {
                          pool: Str('the pool'),
                          dexName: Str('its exchange'),
                          lockedPercent: Num('percent of its liquidity locked: permanently, or vesting'),
                          permanentPercent: Num('locked for ever'),
                          vestingPercent: Num('locked until its unlocks'),
                          lockers: Type.Array(
                            obj(
                              {
                                locker: Str('the lock program'),
                                address: Str('the lock account (the locker\'s authority for a permanent lock)'),
                                holder: Str('the LP holder it is: the token account holding the LP, or its owner'),
                                recipient: Str('who receives the LP as it unlocks; "" for a permanent lock'),
                                lockedPercent: Num('percent of the LP the pool issued still locked in it'),
                                permanent: Str('"1" when locked for good'),
                                notLocked: Str('why it locks nothing although it holds LP (cancelable, cancelled, closed); "" when it locks'),
                              },
                              'a lock holding LP tokens',
                            ),
                            { description: 'for the pool of the LP token: the locks holding its LP; empty for positions' },
                          ),
                        },
                        'a pool whose liquidity is held in positions, or whose LP tokens a lock program holds',
                      ),
                      { description: 'the token\'s Meteora DAMM v2 pools (at most 3), and the pool of its LP token when lock programs hold some of it, with how much of their liquidity is locked; empty when none' },
                    ),
                    reason: Str('why the locks could not be read; "" when they were (the locks of a pool read beside the deepest one that could not be read are said here, beside what was read)'),
                  },
                  'Locked liquidity and its unlocks.',
                ),
                percentDistributed: Distribution('LP token'),
                launchCurve: obj(
                  {
                    state: Str('"on curve" (trading on its launch curve), "graduated" (the curve is complete; trading moved to a pool), "none" (the token has no launch curve), "" when the curve could not be read'),
                    venue: Str('the launchpad, e.g. "pump.fun bonding curve"; "" without a curve'),
                    address: Str('the curve account (derived from the mint)'),
                    complete: Tri('whether the curve is complete (graduated)'),
                    progressPercent: Str('percent of the curve\'s tokens sold, 100 once complete; "" when not known'),
                    creator: Str('who launched the token on the curve'),
                    tokenReserve: Str('tokens the curve still sells, whole tokens'),
                    quoteReserve: Str('quote (SOL) the curve holds from buyers, whole'),
                    graduatedPool: Str('the pool the token trades in after graduation (the deepest pool found on the exchange the launchpad graduates to); "" otherwise'),
                    reason: Str('why the curve is unknown; "" otherwise'),
                  },
                  'The launchpad bonding curve the token was created on: a token on its curve trades there (it is one of the pools), not "without pools".',
                ),
                lpPool: Str('pool whose LP token these figures describe (the deepest constant-product pool); "" without one'),
                lpMint: Str('its LP mint'),
                totalLpSupply: Str('LP tokens in circulation, whole LP tokens; "" without one'),
              },
              'Across all pools: liquidity, pools, and the LP token of the deepest constant-product pool (who could withdraw the liquidity).',
            ),
            pairByPairInformation: Type.Array(SolanaDex, { description: 'one element per exchange (Raydium AMM v4, Raydium CPMM, Raydium CLMM, Orca Whirlpool, PumpSwap, Meteora DAMM v2, Meteora DLMM, and the pump.fun bonding curve while the token trades on it), deepest first' }),
          },
          'Where the token trades and who holds its liquidity.',
        ),
      },
      'Holders and liquidity.',
    ),
  },
  'Market checks and the market score (docs/scoring.md).',
)

const Tax = (description: string) => RatedNum(`${description}, percent`)

const PoolVerdict = {
  buyTax: Tax('transfer fee paid on a buy'),
  sellTax: Tax('transfer fee paid on a sell'),
  transferTax: Tax('transfer fee paid on a wallet-to-wallet transfer'),
  token0Symbol: Str('symbol of the first mint of the pool ("" for the token-level verdict)'),
  token1Symbol: Str('symbol of the second mint'),
  isPairHoneypot: Num('1 when a buyer could not sell (non-transferable, paused, accounts start frozen, or the pool\'s token vault is frozen), 0 when nothing stops a sale'),
  honeypotReason: Str('why it is a honeypot, or why it could not be determined; "" when it is not'),
  dex: Str('exchange name; "" for the token-level verdict given when no pool is found'),
  pair: Type.Array(Type.String(), { description: 'the two mints of the pool; empty for the token-level verdict' }),
  pairAddress: Str('pool address; "" for the token-level verdict'),
}

export const SolanaHoneypotDetails = obj(
  {
    ...OverallScore,
    ...PoolVerdict,
    isTokenHoneypot: Num('1 when no pool was measured to let a holder sell and some pool is a honeypot, 0 when some pool lets a holder sell'),
    pools: Type.Array(obj(PoolVerdict, 'the verdict of one pool'), { description: 'every pool\'s verdict, deepest first (one token-level verdict when no pool is found)' }),
  },
  'The total score and the verdict a client shows: the deepest pool\'s, or the deepest honeypot pool\'s when a pool traps sellers (the token-level one when no pool is found). The Token-2022 transfer fee is charged on buys, sells and transfers alike; the AMM swap fee is not a tax; 0 when the token has no transfer fee, "" when it cannot be traded at all.',
)

export const SolanaReport = Type.Object(
  {
    tokenInformation: SolanaTokenInformation,
    codeChecks: SolanaCodeChecks,
    marketChecks: SolanaMarketChecks,
    honeypotDetails: SolanaHoneypotDetails,
    riskCategories: RiskCategories,
  },
  {
    additionalProperties: false,
    $id: 'SolanaReport',
    description:
      'Risk report of a Solana SPL Token or Token-2022 mint, in the Solana body the hosted service publishes (docs/compat.md). Scores, counts, percents and risk ratings are numbers; "" means unknown (a risk number is then 3, Neutral); who holds a power is its address, "Renounced" or "".',
  },
)
export type SolanaReport = Static<typeof SolanaReport>
