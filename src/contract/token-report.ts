import { Type, type Static } from '@sinclair/typebox'
import { EVM_CHECK_CATALOGUE, checkGroupProperties, type OTHER_CHECKS, type OWNERSHIP_CHECKS } from './checks.ts'
import { Flag, Risk, RiskRatedNumber, Str } from './common.ts'

const obj = <T extends Parameters<typeof Type.Object>[0]>(props: T, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) })

export const MarketData = obj({
  currentPriceUsd: Str('USD price of one whole token'),
  marketCapUsd: Str('price × total supply, USD'),
  pastOneDayHigh: Str('highest USD price seen in the last 24 h of swaps'),
  pastOneDayLow: Str('lowest USD price seen in the last 24 h of swaps'),
})

export const SocialInformation = obj({
  codeHostLinks: Type.Array(Type.String(), { description: 'links to source repositories' }),
  microblog: obj({ name: Str(), followers: Str() }),
  socialNetwork: obj({ name: Str(), likes: Str() }),
  messenger: obj({ name: Str(), users: Str() }),
  forum: obj({ url: Str(), subscribers: Str() }),
})

export const ExternalLinks = obj({
  marketAggregatorLink: Str('URL'),
  blockExplorerLink: Str('URL'),
  poolTerminal: Str('URL'),
})

export const TokenInformation = obj({
  tokenAddress: Str('token contract address'),
  tokenName: Str(),
  tokenSymbol: Str('may be empty'),
  tokenImageLink: Str('URL'),
  tokenCreationDate: Str('ISO 8601 timestamp of the creation transaction'),
  totalSupply: Str('decimal number, in whole tokens'),
  ownerAddress: Str(),
  ownerBalance: Str('decimal number, in whole tokens'),
  creatorAddress: Str(),
  creatorBalance: Str('decimal number, in whole tokens'),
  tokenCategories: Type.Array(Type.String()),
  anomalies: Type.Array(Type.String(), {
    description: 'what is wrong with the contract as a token, e.g. a totalSupply() or balanceOf() that reverts, or balances no Transfer event explains (held now by an account the token names, or written at creation: its code run again or its transaction traced), with their share of the supply; empty when nothing is',
  }),
  isOpenSource: Type.String({
    description: '"1" when the configured explorer publishes verified source for the code that runs (a proxy\'s implementation), "0" when it lists the contract unverified, "" when not determinable (no explorer configured, or it failed)',
  }),
  openSourceComment: Str('which explorer answered, or why it is not determinable'),
  lastUpdated: Str('ISO 8601 time the report was measured (its block read from the node); a cached report keeps its time'),
  marketData: MarketData,
  socialInformation: SocialInformation,
  externalLinks: ExternalLinks,
})

export const ScorePart = obj({ achievedScore: Str('decimal with two places'), maxScore: Str('decimal with two places'), minScore: Str('decimal with two places, negative') })

export const TokenScore = obj({
  checksPerformed: Str('how many of the code checks were decided ("0" or "1"); the others ("") count in no score'),
  checksTotal: Str('how many code checks the report has'),
  totalScorePercentage: Str('decimal with two places, may be negative ("73.61", "-37.50")'),
  codeScorePercentage: Str('decimal with two places, may be negative'),
  marketScorePercentage: Str('decimal with two places, may be negative (market penalties)'),
  codeScore: ScorePart,
  marketScore: ScorePart,
})

export const HolderEntry = obj({
  address: Str(),
  percent: Str('share of the supply, percent'),
  isContract: Flag('whether the holder is a contract'),
  isLocked: Flag('held by a known locker or burn address'),
  balance: Str('decimal number, in whole tokens'),
})

const DistributionMember = obj({ percent: Str(), balance: Str(), risk: Risk })
const distributionMembers = {
  topThree: DistributionMember,
  topTen: DistributionMember,
  owner: DistributionMember,
  creator: DistributionMember,
}
/** Beyond the contract: what burn addresses hold (not rated: `risk` is ""). */
const BurntMember = obj({ percent: Str(), balance: Str(), risk: Risk }, 'beyond the contract: held by burn addresses (the chain\'s `burnAddresses`); "" when the holder index cannot tell; not rated')
export const Distribution = obj(distributionMembers)
export const DistributionWithBurnt = obj({ ...distributionMembers, burnt: BurntMember })

export const AvailableDex = obj({
  name: Str('exchange name'),
  link: Str('pool page URL'),
  liquidity: Str('USD value of the pool'),
  pair: Str('pair (pool) address'),
  // Beyond the contract: the pool as the newer view's per-pair information shows it.
  token0Symbol: Str('beyond the contract: symbol of the pair\'s token0'),
  token1Symbol: Str('beyond the contract: symbol of the pair\'s token1'),
  token0Balance: Str('beyond the contract: the pool\'s reserve of token0, whole tokens'),
  token1Balance: Str('beyond the contract: the pool\'s reserve of token1, whole tokens'),
  lpTotalSupply: Str('beyond the contract: LP token supply of a Uniswap V2 type pair, whole LP tokens; "" for pools without an LP token'),
  explorerLink: Str('beyond the contract: the pair\'s page on the block explorer'),
  poolId: Type.Optional(Str("beyond the contract: a Uniswap V4 pool's id (its `pair` is the PoolManager's, which holds every V4 pool); absent for other pools")),
})

export const MarketChecks = obj({
  exchangabilityChecks: obj({
    numberOfTradingPairs: RiskRatedNumber,
    currentLiquidity: RiskRatedNumber,
    availableDex: Type.Array(AvailableDex),
    centralisedExchanges: Type.Array(obj({ name: Str(), link: Str('may be empty') })),
  }),
  holdersChecks: obj({
    holdersCount: RiskRatedNumber,
    keyHolders: Type.Array(HolderEntry),
    percentDistributed: DistributionWithBurnt,
  }),
  liquidityChecks: obj({
    pairAddress: Str('beyond the contract: the Uniswap V2 type pair whose LP token this section describes (the deepest); "" when there is none'),
    totalLpSupply: Str(),
    lpHolderCount: RiskRatedNumber,
    keyLpHolders: Type.Array(HolderEntry),
    percentDistributed: DistributionWithBurnt,
    liquidityLockedDetails: obj({
      upcomingUnlockDetails: Type.Array(
        obj({ balance: Str(), percent: Str(), time: Str('ISO 8601'), risk: Risk, tag: Str('locker name') }),
      ),
      totalLiquidityPercentageLocked: RiskRatedNumber,
    }),
  }),
})

export const CodeCheck = Type.Object(
  {
    description: Str('sentence stating the finding for the status found'),
    risk: Risk,
    status: Flag('"1" = the risky capability is present; "0" = measured and absent; "" = it could not be determined (then `risk` is "" and `comment` starts with "not determinable:" and the reason)'),
    comment: Str('how it was decided (simulated, bytecode, state, or "not determinable:" with the reason) and the evidence'),
  },
  { additionalProperties: false },
)
export type CodeCheck = Static<typeof CodeCheck>

/** A code check, described by what its status "1" means. */
export const describedCheck = (meaning: string): typeof CodeCheck =>
  Type.Object(CodeCheck.properties, { additionalProperties: false, description: `status "1": ${meaning}` })

export const CodeChecks = obj({
  ownershipChecks: obj(checkGroupProperties<(typeof OWNERSHIP_CHECKS)[number], typeof CodeCheck>(EVM_CHECK_CATALOGUE.ownershipChecks, describedCheck)),
  otherChecks: obj(checkGroupProperties<(typeof OTHER_CHECKS)[number], typeof CodeCheck>(EVM_CHECK_CATALOGUE.otherChecks, describedCheck)),
})

export const HolderSell = obj({
  address: Str(),
  balance: Str('its balance before the sell, in whole tokens'),
  outcome: Str('"sold", "clamped" (the sell went through and part of the balance stayed), "limit" (the whole balance does not sell, a thousandth does), "blocked" (nothing sells), or "" when it could not be tried'),
  sellTax: Str('percent of what it sold that the pool did not receive; "" when nothing sold'),
  leftPercent: Str('percent of its balance left after a whole sell that went through; "" otherwise'),
  reason: Str('the revert or what was seen; may be empty'),
})

export const HolderSells = obj(
  {
    path: Str('"router" when each sold as wallets do (approve, then the router pulls with transferFrom), "pair" by a transfer to the pair'),
    holdersTried: Str('holders of record made to sell: the largest, up to 20 (pools, the token, burn addresses and lockers excluded)'),
    canSell: Str('how many sold their whole balance'),
    cannotSell: Str('how many could not (blocked, limited or clamped)'),
    holders: Type.Array(HolderSell),
    note: Str(),
  },
  'beyond the original contract: the largest holders of record selling their whole balance on this pair, from their real state (present on the pair where they sold)',
)

export const FeeCeiling = obj(
  {
    buyTax: Str('the highest buy tax a privileged account can set, percent; with no such account, the pool\'s current buy tax; "" when not measured on this pool'),
    sellTax: Str('the highest sell tax a privileged account can set while sales still go through, percent (searched for numeric setters); with no such account, the current sell tax; "" when not measured on this pool'),
    sellsStopped: Flag('whether some value a privileged account can set makes every sale fail; "" when not measured on this pool'),
    account: Str('the privileged account that reaches that sell tax (for a power in two steps, the account that appoints); "" when none'),
    function: Str('the function it calls: its signature and selector when the signature is known, else its selector; "" when none'),
    proceedsTo: Str('where that tax goes: "owner-set wallet" (a wallet a privileged call can replace), "token contract", "burned", "fixed wallet", or "" when not seen'),
    proceedsAccounts: Type.Array(Type.String(), { description: 'the accounts the tax was seen paid to' }),
    measuredOn: Str('the pool the owner powers were measured on (the token\'s main pool); "" when no privileged account could call anything (every pool\'s own taxes are then its ceiling)'),
    summary: Str('the ceiling in one sentence, e.g. "the owner can raise the sell tax to 99 %, paid to a wallet it sets"; "" when no privileged account changes the taxes'),
  },
  'beyond the original contract: the fee ceiling, the highest taxes a privileged account can reach and where they are paid (present when the owner powers were measured with a pool)',
)

export const HoneypotDetail = obj({
  buyTax: RiskRatedNumber,
  sellTax: RiskRatedNumber,
  transferTax: RiskRatedNumber,
  isPairHoneypot: Flag('whether a holder could not sell on this pool; "" when the pool could not be simulated (honeypotReason then says why)'),
  honeypotReason: Str('may be empty'),
  dex: Str('exchange name'),
  pair: Type.Array(Type.String(), { description: 'the two token addresses of the pair' }),
  pairAddress: Str('the pool; for a Uniswap V4 pool, the PoolManager holding it (its id is in `venue`)'),
  poolId: Type.Optional(Str("a Uniswap V4 pool's id (its `pairAddress` is the PoolManager's, which holds every V4 pool): the pool of `availableDex` with the same `pair` and `poolId`; absent for other pools")),
  venue: Type.Optional(Str("where the pool lives and what runs on its swaps, as measured: a Uniswap V4 pool's id, fee and hook (the permissions its address grants, and whether it refused or took a share of the simulated sells)")),
  holderSells: Type.Optional(HolderSells),
  feeCeiling: Type.Optional(FeeCeiling),
})

export const TokenReport = Type.Object(
  {
    tokenInformation: TokenInformation,
    tokenScore: TokenScore,
    marketChecks: MarketChecks,
    codeChecks: CodeChecks,
    honeypotDetails: Type.Array(HoneypotDetail, { description: 'one element per trading pair' }),
  },
  { additionalProperties: false, $id: 'TokenReport' },
)
export type TokenReport = Static<typeof TokenReport>
