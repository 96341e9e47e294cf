import { Type, type Static } from '@sinclair/typebox'
import { Flag, Str } from './common.ts'
import { Bool, DistributionMember, Holder, Int, Items, Num, OverallScore, RatedNum, RiskCategories, RiskCounts, RiskNumber, obj } from './description.ts'

/**
 * The description shape for EVM tokens: what the hosted service's report widgets read on
 * `GET /api/v1/tokens/frontend/information/{tokenAddress}` and `/tokens/ui/information/…` — the
 * sections, keys and JSON types of its Solana body (`SolanaReport`), filled from the contract's
 * report (src/report/views/quillcheck-description.ts). docs/compat.md maps every field.
 */

const EvmHolder = obj(
  {
    address: Str('holder address'),
    percent: Num('share of the supply, percent'),
    isContract: Bool('whether the holder is a contract'),
    isLocked: Bool('held by a known locker or burn address'),
    balance: Str('whole tokens'),
  },
  'One holder, largest first.',
)

const Distribution = (of: string, locked: string) =>
  obj(
    {
      topThree: DistributionMember('the three largest holders'),
      topTen: DistributionMember('the ten largest holders'),
      owner: DistributionMember('the owner'),
      creator: DistributionMember('the creator'),
      burnt: DistributionMember('held by burn addresses (not rated)'),
      locked: DistributionMember(locked),
      other: DistributionMember('outside the ten largest holders (not rated)'),
    },
    `How the ${of} is spread.`,
  )

const Pair = obj(
  {
    pairAddress: Str('pool address'),
    dexName: Str('exchange name'),
    dexImageLink: Str('"" (no image is bundled for exchanges)'),
    token0Address: Str('first token of the pool; "" when the pool was not simulated'),
    token1Address: Str('second token'),
    token0Symbol: Str('its symbol'),
    token1Symbol: Str('likewise'),
    token0ImageLink: Str('the token\'s image on its own side; "" for the quote'),
    token1ImageLink: Str('likewise'),
    token0Balance: Str('the pool\'s reserve of token0, whole tokens'),
    token1Balance: Str('the pool\'s reserve of token1, whole tokens'),
    pairExplorerLink: Str('the pool\'s page on the block explorer'),
    lpSupplyInUsd: Str('USD value of the pool'),
    rawLpSupplyInUsd: Num('the same, as a number'),
    lpTotalSupply: Str('LP token supply of a Uniswap V2 type pair, whole LP tokens; "" for pools without an LP token'),
  },
  'A pool the token trades in.',
)

const Verdict = {
  buyTax: RatedNum('buy tax measured on this pool, percent'),
  sellTax: RatedNum('sell tax measured on this pool, percent ("" when no sale could be made)'),
  transferTax: RatedNum('transfer tax, percent'),
  token0Symbol: Str('symbol of the pool\'s token0'),
  token1Symbol: Str('symbol of the pool\'s token1'),
  isPairHoneypot: Num('1 when a holder could not sell on this pool, 0 when a sale was measured to work'),
  honeypotReason: Str('why it is a honeypot, or why it could not be determined; "" when it is not'),
  dex: Str('exchange name'),
  pair: Type.Array(Type.String(), { description: 'the two token addresses of the pool' }),
  pairAddress: Str('pool address; "" when no pool was found'),
}

export const QuillcheckDescriptionReport = Type.Object(
  {
    tokenInformation: obj(
      {
        generalInformation: obj(
          {
            lastUpdated: Str('ISO 8601 time the report was measured (a cached report keeps its time)'),
            tokenAddress: Str('token contract address'),
            mint: Str('the same address (the key of the Solana body)'),
            chainId: Str('decimal chain id'),
            chainName: Str('the chain\'s name in this instance\'s registry'),
            tokenName: Str(),
            tokenSymbol: Str('may be empty'),
            tokenImageLink: Str('URL'),
            tokenCreationDate: Str('UTC day of the creation transaction, DD/MM/YYYY as the widgets parse it; "" when unknown'),
            tokenCreationTime: Str('the same moment, ISO 8601'),
            ownerAddress: Holder('the owner (`owner()`, `getOwner()`, else the proxy admin); "Renounced" when it is the zero address'),
            ownerBalance: Str('whole tokens'),
            creatorAddress: Str('the account that created the contract; "" when unknown'),
            creatorBalance: Str('whole tokens'),
            categories: Type.Array(Type.String(), { description: 'the token list\'s categories' }),
            anomalies: Type.Array(Type.String(), { description: 'what is wrong with the contract as a token' }),
            isOpenSource: Flag('whether the configured explorer publishes verified source'),
          },
          'What the token is. Published keys: lastUpdated, tokenAddress, mint, chainId, chainName, tokenName, tokenSymbol, tokenImageLink, tokenCreationDate, ownerAddress, categories, creatorAddress; the others are tokenrisk\'s.',
        ),
        tokenSupplyInformation: obj(
          {
            centralisedExchanges: Type.Array(obj({ name: Str('exchange name'), link: Str('may be empty') }, 'a centralised exchange')),
            tokenHoldersCount: Num('holders with a non-zero balance'),
            totalSupply: Str('whole tokens'),
            currentPriceUsd: Str('USD price of one whole token'),
            marketCapUsd: Str('price × total supply, USD'),
            pastOneDayHigh: Str('highest USD price seen in the last 24 h of swaps'),
            pastOneDayLow: Str('lowest USD price seen in the last 24 h of swaps'),
          },
          'Supply, holders and market figures.',
        ),
        socialInformation: obj(
          {
            githubLinks: Type.Array(Type.String()),
            reddit: obj({ name: Str('"" (the report has the link only)'), url: Str(), subscribers: Num('subscribers') }, 'subreddit'),
            facebook: obj({ name: Str(), url: Str('"" (the report has the name only)'), likes: Num('likes') }, 'facebook page'),
            twitter: obj({ name: Str(), url: Str('"" (the report has the name only)'), followers: Num('followers') }, 'twitter/X account'),
            telegram: obj({ name: Str(), url: Str('"" (the report has the name only)'), members: Num('members') }, 'telegram group'),
            discord: obj({ name: Str('"" (not in the report)'), url: Str('"" (not in the report)') }, 'discord server'),
            website: obj({ url: Str('"" (not in the report)') }, 'website'),
            externalLinks: obj({ coinGeckoLink: Str('market aggregator page'), blockExplorerLink: Str(), geckoTerminal: Str('pool terminal page of the deepest pool') }, 'Links about the token.'),
          },
          'Social links and figures.',
        ),
        totalChecksInformation: obj(
          {
            totalChecks: Int('the code checks, the honeypot verdict and the rated market figures'),
            checksPerformed: Int('those decided'),
            aggregatedCount: RiskCounts,
          },
          'How many checks the report holds, and how many carry each risk label.',
        ),
      },
      'General information about the token.',
    ),
    codeChecks: obj(
      {
        maxCodeCheckScore: Num('highest code score the decided checks allow'),
        minCodeCheckScore: Num('lowest code score they allow (negative)'),
        codeCheckScore: Num('code points earned (may be negative)'),
        availableChecks: Int('code checks the report has'),
        checksPerformed: Int('code checks decided'),
        codeCheckScorePercentage: Num('code points, percent of their maximum (may be negative)'),
        codeCheckDescription: obj(
          {
            ownershipPermissionsDescription: Items(
              'powers over the token: minting, freezing holders (a blacklist), metadata mutability and modifiable fees first, in that order, then the others',
            ),
            externalContractDescription: Items('code the token runs beside its own: external calls, an upgradeable proxy'),
            transactionLimitersDescription: Items('what limits trades: buying blocked, selling everything blocked, cooldowns, anti-whale limits'),
          },
          'Every code check of the contract\'s report, grouped as the description shape groups them.',
        ),
      },
      'Code checks and the code score (docs/scoring.md).',
    ),
    marketChecks: obj(
      {
        minMarketCheckScore: Num('lowest market score the known figures allow (negative)'),
        maxMarketCheckScore: Num('highest market score they allow'),
        marketCheckScore: Num('market points earned (may be negative)'),
        availableChecks: Int('market figures of the report that carry a rating'),
        checksPerformed: Int('of those, the ones known'),
        marketCheckScorePercentage: Num('market points, percent of their maximum (may be negative)'),
        marketCheckDescription: obj(
          {
            holdersDescription: obj(
              {
                holdersCount: RatedNum('holders with a non-zero balance'),
                keyHolders: Type.Array(EvmHolder, { description: 'the largest holders' }),
                eoaHolders: Type.Array(EvmHolder, { description: 'those that are not contracts' }),
                contractHolders: Type.Array(EvmHolder, { description: 'those that are contracts' }),
                percentDistributed: Distribution('supply', 'locked in a locker: "" (the report measures lockers for LP tokens only)'),
              },
              'Who holds the token.',
            ),
            liquidityDescription: obj(
              {
                aggregatedInformation: obj(
                  {
                    totalLpSupplyInUsd: obj({ number: Str('USD value of all pools'), risk: RiskNumber() }, 'liquidity in USD'),
                    lpHolderCount: RatedNum('holders of the LP token of the deepest Uniswap V2 type pair'),
                    tradingPairCount: RatedNum('pools found'),
                    keyLpHolders: Type.Array(EvmHolder, { description: 'largest holders of that LP token' }),
                    eoaLpHolders: Type.Array(EvmHolder, { description: 'those that are not contracts' }),
                    contractLpHolders: Type.Array(EvmHolder, { description: 'those that are contracts' }),
                    liquidityLockedDetails: obj(
                      {
                        upcomingUnlockDetails: Type.Array(
                          obj({ time: Str('ISO 8601'), percent: Num('percent of the LP supply'), balance: Str('LP tokens'), risk: RiskNumber(), tag: Str('locker') }, 'an unlock'),
                          { description: 'LP locked in a known locker, soonest unlock first' },
                        ),
                      },
                      'Unlocks of locked LP.',
                    ),
                    percentDistributed: Distribution('LP token', 'locked in a known locker or burned (the liquidity that cannot be pulled), rated as locked liquidity'),
                    pairAddress: Str('the pair whose LP token these figures describe; "" without one'),
                    totalLpSupply: Str('its LP tokens in circulation, whole LP tokens'),
                  },
                  'Across all pools: liquidity, pools, and the LP token of the deepest Uniswap V2 type pair.',
                ),
                pairByPairInformation: Type.Array(
                  obj(
                    {
                      dexName: Str('exchange name'),
                      dexImageLink: Str('"" (no image is bundled for exchanges)'),
                      numberOfPairs: Int('pools of the token on this exchange'),
                      totalLpSupplyInUsd: Str('USD value of those pools; "" when one of them is not priced'),
                      pairsInformation: Type.Array(Pair, { description: 'the pools, deepest first' }),
                    },
                    'One exchange and the token\'s pools on it.',
                  ),
                  { description: 'one element per exchange, deepest first' },
                ),
              },
              'Where the token trades and who holds its liquidity.',
            ),
          },
          'Holders and liquidity.',
        ),
      },
      'Market checks and the market score (docs/scoring.md).',
    ),
    honeypotDetails: obj(
      {
        ...OverallScore,
        ...Verdict,
        isTokenHoneypot: Num('1 when selling failed on any pool, 0 when a sale was measured to work on every pool decided'),
        pools: Type.Array(obj(Verdict, 'the verdict of one pool'), { description: 'every pool\'s verdict, deepest first' }),
        0: Type.Optional(
          obj(Verdict, 'the verdict shown again, for a widget that reads the older array (`honeypotDetails[0].buyTax.number` once `length > 0`); absent without pools'),
        ),
        length: Int('1 when element `0` is there, 0 without pools (the older array\'s length as that widget tests it)'),
      },
      'The total score and the verdict a client shows: the deepest pool\'s, or the deepest honeypot pool\'s when a pool traps sellers.',
    ),
    riskCategories: RiskCategories,
  },
  {
    additionalProperties: false,
    $id: 'QuillcheckDescriptionReport',
    description:
      'Risk report of an EVM token in the description shape the hosted service\'s report widgets read (its Solana body\'s sections and keys; docs/compat.md). Scores, counts, percents and risk ratings are numbers; "" means unknown (a risk number is then 3, Neutral).',
  },
)
export type QuillcheckDescriptionReport = Static<typeof QuillcheckDescriptionReport>
