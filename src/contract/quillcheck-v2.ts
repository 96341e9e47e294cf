import { Type, type Static, type TProperties } from '@sinclair/typebox'
import { RISK_LABELS, RISK_SCALE } from './common.ts'
import { RiskCategories } from './description.ts'

/**
 * The newer EVM shape public clients of the hosted service read (`?format=quillcheck-v2`, or a
 * key made with `--format quillcheck-v2`): numbers where those clients compute, booleans for
 * flags, `{riskRating, riskStatus}` for every risk. A view of the contract's report
 * (src/report/views/quillcheck-v2.ts); docs/compat.md maps every field.
 *
 * Unknown stays unknown: a number, flag or rating that could not be determined is `""` (the
 * hosted service's own convention for `isContract` and `isLocked`), never 0 or `false`.
 */

const obj = <T extends TProperties>(props: T, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) })
const Str = (description?: string) => Type.String(description ? { description } : {})
const Unknown = Type.Literal('', { description: 'not determinable' })

/** A number, or "" when it could not be determined. */
export const NumberOrUnknown = (description?: string) => Type.Union([Type.Number(), Unknown], description ? { description } : {})
/** A boolean, or "" when it could not be determined. */
export const BoolOrUnknown = (description?: string) => Type.Union([Type.Boolean(), Unknown], description ? { description } : {})
/** 1 yes, 0 no (measured), "" not determinable. */
export const ZeroOneOrUnknown = (description: string) => Type.Union([Type.Literal(0), Type.Literal(1), Unknown], { description })

export const RiskObject = obj(
  {
    riskRating: Type.Union([Type.Integer({ minimum: 0, maximum: RISK_SCALE.length - 1 }), Unknown], {
      description: `place on the scale, 0 (${RISK_SCALE[0]}) to ${RISK_SCALE.length - 1} (${RISK_SCALE[RISK_SCALE.length - 1]}); "" when unknown or not rated`,
    }),
    riskStatus: Type.String({ enum: [...RISK_LABELS], description: 'the label of `riskRating`; "" when unknown or not rated' }),
  },
  "the token's assessment for this value, worst (0, Critical) to best (6, Great To Have); see docs/scoring.md",
)
export type RiskObject = Static<typeof RiskObject>

const RatedNumber = (description: string) => obj({ number: NumberOrUnknown(), risk: RiskObject }, description)

export const ScoreV2 = obj({
  percent: NumberOrUnknown('achievedScore / maxScore × 100, two decimals; may be negative'),
  achievedScore: NumberOrUnknown(),
  maxScore: NumberOrUnknown(),
  minScore: NumberOrUnknown(),
})

export const CodeCheckV2 = obj({
  description: Str('sentence stating the finding'),
  risk: RiskObject,
  status: BoolOrUnknown('true: the capability is present (for isOpenSource: the source is published); false: measured and absent; "" not determinable'),
  comment: Str('beyond the hosted shape: how it was decided and the evidence, or "not determinable:" and the reason'),
})

const checks = (names: readonly string[]) => obj(Object.fromEntries(names.map((n) => [n, CodeCheckV2])))

/** The ownership checks of the view, in the order the clients' types list them, then the older extra. */
export const V2_OWNERSHIP_CHECKS = [
  'ownerChangeBalance', 'ownerCanChangeBalance', 'hiddenOwner', 'isMintable', 'selfDestruct', 'transferPausable',
  'isOpenSource', 'isBlacklisted', 'isWhitelisted', 'slippageModifiable', 'antiwhaleModifiable', 'personalSlippageModifiable',
] as const
export const V2_OTHER_CHECKS = ['externalCall', 'isProxy', 'tradingCooldown', 'isAntiWhale', 'cannotBuy', 'cannotSellAll'] as const

const HolderMember = obj({ percent: NumberOrUnknown('percent of the supply'), balance: Str('whole tokens'), risk: RiskObject })
const LpMember = obj({ percent: NumberOrUnknown('percent of the LP supply'), balanceInUsd: Str('USD'), risk: RiskObject })

export const PairV2 = obj({
  dexName: Str(),
  token0Address: Str(),
  token1Address: Str(),
  token0Symbol: Str(),
  token1Symbol: Str(),
  token0Balance: Str('pool reserve, whole tokens'),
  token1Balance: Str('pool reserve, whole tokens'),
  lpTotalSupply: Str('whole LP tokens; "" for a pool without an LP token'),
  lpSupplyInUsd: Str('USD value of the pool'),
  pairAddress: Str(),
  lpHolders: Type.Array(
    obj({ address: Str(), isContract: BoolOrUnknown(), balance: Str('whole LP tokens'), balanceInUsd: Str('USD') }),
    { description: 'the largest LP holders, for the pair whose LP holders were indexed (`liquidityChecks.pairAddress` of the contract shape); empty for the others' },
  ),
  pairExplorerLink: Str('URL'),
  // Beyond the hosted shape: what the simulation measured on this pair.
  buyTax: RatedNumber('beyond the hosted shape: buy tax measured on this pair, percent'),
  sellTax: RatedNumber('beyond the hosted shape: sell tax measured on this pair, percent'),
  transferTax: RatedNumber('beyond the hosted shape: transfer tax, percent'),
  isPairHoneypot: ZeroOneOrUnknown('beyond the hosted shape: 1 when a holder could not sell on this pair'),
  honeypotReason: Str('beyond the hosted shape: why it is a honeypot, or why that could not be determined'),
})

export const QuillcheckV2Report = Type.Object(
  {
    tokenInformation: obj({
      tokenAddress: Str(),
      tokenName: Str(),
      tokenSymbol: Str(),
      tokenImageLink: Str('URL'),
      tokenCreationDate: Str('ISO 8601'),
      totalSupply: Str('whole tokens'),
      ownerAddress: Str(),
      ownerBalance: Str('whole tokens'),
      creatorAddress: Str(),
      creatorBalance: Str('whole tokens'),
      tokenCategories: Type.Array(Type.String()),
      anomalies: Type.Array(Type.String(), { description: 'beyond the hosted shape: what is wrong with the contract as a token' }),
      lastUpdated: Str('ISO 8601 time the report was measured (a cached report keeps its time)'),
      marketData: obj({ currentPriceUsd: Str(), marketCapUsd: Str(), pastOneDayHigh: Str(), pastOneDayLow: Str() }),
      socialInformation: obj({
        githubLinks: Type.Array(Type.String()),
        twitter: obj({ name: Str(), followers: NumberOrUnknown() }),
        facebook: obj({ name: Str(), likes: NumberOrUnknown() }),
        telegram: obj({ name: Str(), members: NumberOrUnknown() }),
        reddit: obj({ url: Str(), subscribers: NumberOrUnknown() }),
      }),
      externalLinks: obj({ coinGeckoLink: Str('market aggregator page'), blockExplorerLink: Str(), geckoTerminal: Str('pool terminal page of the deepest pool') }),
      totalChecksInformation: obj(
        {
          totalChecks: Type.Integer({ description: 'the code checks of `codeChecks` and the token-level honeypot verdict' }),
          checksPerformed: Type.Integer({ description: 'of those, the ones decided' }),
          aggregatedCount: Type.Array(obj({ id: Type.Integer({ description: 'the riskRating counted' }), name: Str('its riskStatus'), count: Type.Integer() }), {
            description: 'decided checks by risk, one entry per label of the scale in rating order: Critical, RISKY, Medium Risk, Neutral, Nice To Have, Good To Have, Great To Have',
          }),
        },
        'how many checks the report has, were decided, and how many fall on each risk label',
      ),
    }),
    tokenScore: obj({
      totalScore: ScoreV2,
      codeScore: ScoreV2,
      marketScore: ScoreV2,
      checksPerformed: Type.Integer({ description: 'beyond the hosted shape: code checks decided' }),
      checksTotal: Type.Integer({ description: 'beyond the hosted shape: code checks of the contract shape' }),
    }),
    marketChecks: obj({
      holdersChecks: obj({
        holdersCount: RatedNumber('holders with a non-zero balance'),
        keyHolders: Type.Array(
          obj({ address: Str(), percent: NumberOrUnknown(), isContract: BoolOrUnknown(), isLocked: BoolOrUnknown('held by a known locker or burn address'), balance: Str('whole tokens') }),
          { description: 'the three largest holders' },
        ),
        percentDistributed: obj({
          topThree: HolderMember,
          topTen: HolderMember,
          owner: HolderMember,
          creator: HolderMember,
          burnt: HolderMember,
          other: obj(HolderMember.properties, 'the supply outside the top ten'),
        }),
      }),
      liquidityChecks: obj({
        aggregatedInformation: obj({
          totalLpSupplyInUsd: obj({ number: Str('USD, all pools'), risk: RiskObject }),
          lpHolderCount: RatedNumber('holders of the main pair\'s LP token'),
          tradingPairCount: RatedNumber('pools found'),
          keyLpHolders: Type.Array(obj({ address: Str(), isContract: BoolOrUnknown(), balanceInUsd: Str('USD') })),
          liquidityLockedDetails: obj({
            upcomingUnlockDetails: Type.Array(obj({ balance: Str('LP tokens'), percent: NumberOrUnknown('percent of the LP supply'), time: Str('ISO 8601'), risk: RiskObject, tag: Str('locker') })),
          }),
          percentDistributed: obj({
            topThree: LpMember,
            topTen: LpMember,
            owner: LpMember,
            creator: LpMember,
            burnt: LpMember,
            locked: obj(LpMember.properties, 'LP locked in a known locker or burned: the liquidity that cannot be pulled'),
            other: obj(LpMember.properties, 'LP outside the top ten holders'),
          }),
        }),
        pairByPairInformation: Type.Array(PairV2, { description: 'one element per pair found' }),
      }),
      pairByPairInformation: Type.Array(PairV2, { description: 'the same pairs, where some clients read them' }),
    }),
    codeChecks: obj({ ownershipChecks: checks(V2_OWNERSHIP_CHECKS), otherChecks: checks(V2_OTHER_CHECKS) }),
    honeypotDetails: obj({
      isTokenHoneypot: ZeroOneOrUnknown('1 when selling failed on any pair, 0 when a sale was measured to work on every pair decided, "" when no sale could be simulated'),
      honeypotFound: obj({
        poolsSimulated: Type.Integer({ description: 'pairs where a sale was simulated and a verdict reached' }),
        totalPools: Type.Integer({ description: 'pairs found' }),
        honeypotPools: Type.Integer({ description: 'pairs where a holder could not sell' }),
      }),
      honeypotPairs: Type.Array(obj({ pairAddress: Str(), dex: Str(), honeypotReason: Str() }), { description: 'the pairs judged honeypots' }),
      holderSells: Type.Optional(
        obj(
          {
            pairAddress: Str('the pair they sold on'),
            path: Str('"router" (approve, then the router pulls with transferFrom, as wallets sell) or "pair" (a transfer to the pair)'),
            holdersTried: Type.Integer({ description: 'the largest holders of record made to sell, up to 20' }),
            canSell: Type.Integer({ description: 'how many sold their whole balance' }),
            cannotSell: Type.Integer({ description: 'how many could not (blocked, limited or clamped)' }),
            holders: Type.Array(
              obj({
                address: Str(),
                balance: Str('whole tokens'),
                canSell: BoolOrUnknown('whether it sold its whole balance; "" when it could not be tried'),
                outcome: Str('"sold", "clamped", "limit", "blocked", or "" when it could not be tried'),
                sellTax: NumberOrUnknown('percent of what it sold that the pool did not receive'),
                reason: Str(),
              }),
            ),
          },
          'beyond the typed shape: the largest holders of record selling their whole balance from their real state; absent when none was tried',
        ),
      ),
      0: Type.Optional(
        obj(
          {
            buyTax: RatedNumber('buy tax measured on this pair, percent'),
            sellTax: RatedNumber('sell tax measured on this pair, percent'),
            transferTax: RatedNumber('transfer tax, percent'),
            isPairHoneypot: ZeroOneOrUnknown('1 when a holder could not sell on this pair'),
            honeypotReason: Str('why it is a honeypot, or why that could not be determined'),
            dex: Str(),
            pair: Type.Array(Type.String(), { description: 'the two token addresses of the pair' }),
            pairAddress: Str(),
          },
          'beyond the typed shape, for a client that reads the older array (`honeypotDetails[0].buyTax.number` once `length > 0`): the pair a client shows, the deepest one that traps sellers, else the deepest; absent without pairs',
        ),
      ),
      length: Type.Integer({ description: 'beyond the typed shape: 1 when element `0` is there, 0 without pairs (the older array\'s length as that client tests it)' }),
    }),
    riskCategories: RiskCategories,
  },
  { additionalProperties: false, $id: 'QuillcheckV2Report', description: 'The newer EVM shape (docs/compat.md).' },
)
export type QuillcheckV2Report = Static<typeof QuillcheckV2Report>
