import type { TSchema } from '@sinclair/typebox'

/** A value of the schema's shape where every scalar is unknown (""), every list empty: a report to fill in a test. */
export function blankOf(schema: TSchema): unknown {
  if (schema.type === 'object') return Object.fromEntries(Object.entries(schema.properties as Record<string, TSchema>).map(([k, v]) => [k, blankOf(v)]))
  if (schema.type === 'array') return []
  const first = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined
  return first ? blankOf(first[0]) : ''
}
