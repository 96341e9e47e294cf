/**
 * The risk labels: one ordered assessment of the token, worst first, as the hosted service
 * publishes them (its newer shape numbers them from 0 as `riskRating`). A present risky power
 * carries its severity (Critical, RISKY, Medium Risk, Neutral), its absence a positive label;
 * a market figure carries the band its value falls in. `""` means the value is unknown or
 * carries no rating. See docs/scoring.md.
 *
 * A module of its own, free of the schema library, so that the token pages' browser code
 * (src/web/client/) reads the scale without bundling the schemas.
 */
export const RISK_SCALE = ['Critical', 'RISKY', 'Medium Risk', 'Neutral', 'Nice To Have', 'Good To Have', 'Great To Have'] as const
export const RISK_LABELS = [...RISK_SCALE, ''] as const
export type RiskLabel = (typeof RISK_LABELS)[number]
/** A label of the scale (a known rating). */
export type RatedLabel = (typeof RISK_SCALE)[number]

/** The label's place on the scale, 0 (Critical) to 6 (Great To Have); undefined for "" (unknown). */
export function riskRating(label: RiskLabel): number | undefined {
  const i = RISK_SCALE.indexOf(label as RatedLabel)
  return i < 0 ? undefined : i
}
