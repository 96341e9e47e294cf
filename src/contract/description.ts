import { Kind, Type, TypeRegistry, type TObject, type TProperties, type TUnsafe } from '@sinclair/typebox'
import { Flag, RISK_SCALE, Str } from './common.ts'

/**
 * The parts of the description shape shared by its two bodies: the hosted service's Solana body
 * (`SolanaReport`) and the same shape for EVM tokens that its report widgets read
 * (`QuillcheckDescriptionReport`, docs/compat.md). Scores, counts, percents and risk ratings are
 * JSON numbers; a value that could not be determined is `""`, except a risk number (below).
 */

export const obj = <T extends TProperties>(props: T, description: string): TObject<T> =>
  Type.Object(props, { additionalProperties: false, description })

/** A JSON number, or "" when the value is unknown. */
TypeRegistry.Set('NumberOrUnknown', (_schema, value) => (typeof value === 'number' && Number.isFinite(value)) || value === '')
/** A JSON boolean, or "" when the value is unknown. */
TypeRegistry.Set('BooleanOrUnknown', (_schema, value) => typeof value === 'boolean' || value === '')

/**
 * A number, or "" when unknown. A type array rather than a union: the response serializer writes
 * it by `typeof`, where a union makes it compile a validator on the first report it serializes.
 */
export const Num = (description: string): TUnsafe<number | ''> =>
  Type.Unsafe<number | ''>({ [Kind]: 'NumberOrUnknown', type: ['number', 'string'], description: `${description}; "" when unknown` })
/** A boolean, or "" when unknown. */
export const Bool = (description: string): TUnsafe<boolean | ''> =>
  Type.Unsafe<boolean | ''>({ [Kind]: 'BooleanOrUnknown', type: ['boolean', 'string'], description: `${description}; "" when unknown` })
/** A count or figure that is always known. */
export const Int = (description: string) => Type.Integer({ description })

/**
 * A risk number: the place of the value's risk label on the published scale, worst to best:
 * 0 Critical, 1 RISKY, 2 Medium Risk, 3 Neutral, 4 Nice To Have, 5 Good To Have, 6 Great To Have.
 * Always a number: 3 when the value is unknown or carries no rating.
 */
export const RiskNumber = (what = 'the assessment of this value') =>
  Type.Integer({
    minimum: 0,
    maximum: RISK_SCALE.length - 1,
    description: `${what} on the published scale, worst to best: 0 Critical, 1 RISKY, 2 Medium Risk, 3 Neutral, 4 Nice To Have, 5 Good To Have, 6 Great To Have (docs/scoring.md); 3 also when the value is unknown or carries no rating (what clients draw as neutral; docs/compat.md)`,
  })

/** {number, risk} with a numeric number. */
export const RatedNum = (description: string) => obj({ number: Num(description), risk: RiskNumber() }, description)

/** Who holds a power: the address, "Renounced" when no one does, "" when it could not be determined. */
export const Holder = (what: string) => Str(`${what}: the address; "Renounced" when it was measured that no one holds it; "" when it could not be determined`)

export const CheckItem = obj(
  {
    heading: Str('one line clients match on, e.g. "Token Minting Authority is Enabled" / "Token Minting Authority is Disabled" / "Token Minting Authority is Unknown" (docs/compat.md lists them)'),
    description: Str('what the check found, one sentence'),
    risk: RiskNumber('the check\'s risk label'),
    riskStatus: Str('that label by name; "" when the check could not be decided'),
    tags: Type.Array(Type.String(), { description: 'the check\'s name in tokenrisk (e.g. "isMintable") and its group' }),
    value: Str('the evidence: what was found, or why it could not be decided'),
    check: Str('the check\'s name in tokenrisk (docs/checks.md)'),
    status: Flag('whether the risky capability is present'),
    comment: Str('how the check was decided and its evidence; "not determinable: <reason>" when status is ""'),
  },
  'One code check.',
)

export const Items = (description: string) => Type.Array(CheckItem, { description })

export const DistributionMember = (description: string) =>
  obj(
    {
      percent: Num('share, percent'),
      balance: Num('whole tokens, as a number'),
      balanceFormatted: Str('whole tokens, exact decimal'),
      risk: RiskNumber(),
    },
    description,
  )

export const RiskCounts = Type.Array(
  obj(
    {
      id: Int('the label\'s rating on the published scale (0 Critical … 6 Great To Have)'),
      name: Str('"Critical", "RISKY", "Medium Risk", "Neutral", "Nice To Have", "Good To Have", "Great To Have"'),
      count: Int('checks and rated figures carrying that label'),
    },
    'one label of the scale',
  ),
  { description: 'every label of the scale, worst first (element 0 is "Critical")' },
)

export const RiskCategories = obj(
  {
    critical: Int('checks and figures rated Critical'),
    risky: Int('rated RISKY'),
    medium: Int('rated Medium Risk'),
    neutral: Int('rated Neutral'),
  },
  '`tokenInformation.totalChecksInformation.aggregatedCount` again, by key, where the first report widget counts risks',
)

/** The total score as the description shape writes it, in `honeypotDetails`. */
export const OverallScore = {
  overAllScore: Num('code and market points together (may be negative)'),
  overAllScorePercentage: Num(
    'the total score on its published 0–100 scale: code and market points, percent of their joint maximum; 0 when the points are negative or no pool lets a holder sell',
  ),
  overAllMaxScore: Num('joint maximum'),
  overAllMinScore: Num('joint minimum'),
}
