import { Type, type Static } from '@sinclair/typebox'
import { RISK_LABELS } from './risk-scale.ts'

/** A scalar of a report: always a JSON string, `""` when unknown. */
export const Str = (description?: string) => Type.String(description ? { description } : {})

/**
 * A flag: "1" yes, "0" no — measured — and "" when it could not be determined (the contract's
 * convention that unknown is the empty string covers flags too: "0" is a claim, never a default).
 * Used by flags and by a check's `status` ("1" = the risky capability is present). A string with
 * an enum rather than a union of literals: the same values, but the response serializer writes it
 * as a string, where a union makes it compile a validator on the first report it serializes (over
 * a second of a blocked event loop).
 */
export const Flag = (description?: string) =>
  Type.Unsafe<'0' | '1' | ''>(
    Type.String({ enum: ['0', '1', ''], description: `${description ? `${description}. ` : ''}"1" yes, "0" no (measured), "" not determinable` }),
  )

// The risk scale lives in a module without the schema library (the token pages read it); its
// names are exported from here too, where the contract's other parts are.
export { RISK_LABELS, RISK_SCALE, riskRating, type RatedLabel, type RiskLabel } from './risk-scale.ts'

export const Risk = Type.String({
  description: `One of ${RISK_LABELS.map((r) => JSON.stringify(r)).join(', ')}: the token's assessment for this value, worst to best; "" when unknown. See docs/scoring.md.`,
})

export const RiskRatedNumber = Type.Object(
  { number: Str('decimal number, "" when unknown'), risk: Risk },
  { additionalProperties: false },
)
export type RiskRatedNumber = Static<typeof RiskRatedNumber>

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
  },
  { $id: 'Error', description: 'Every error answer: a JSON object with a human-readable `message`.' },
)
export type ErrorBody = Static<typeof ErrorBody>

/** `errorStatus` of the hosted service's answer for an address that is not a supported token. */
export const NOT_SUPPORTED_ERROR_STATUS = 420

export const NotSupportedBody = Type.Object(
  {
    errorStatus: Type.Literal(NOT_SUPPORTED_ERROR_STATUS, { description: 'always 420: the address is not a token this instance supports' }),
    message: Type.String({ description: 'why: no contract or no mint at the address, not a token, or a chain this instance does not serve' }),
  },
  {
    $id: 'NotSupported',
    additionalProperties: false,
    description:
      'The hosted service\'s answer, with status 200, for an address that is not a supported token (its clients read `errorStatus === 420`): given by the `quillcheck-v2` format and the widget paths, where the `v1` format answers 404 (docs/compat.md). Never a body that reads as a token.',
  },
)
export type NotSupportedBody = Static<typeof NotSupportedBody>
