import { CompiledQuery, type Compilable, type Kysely } from 'kysely'

/**
 * A query of fixed shape compiled once: building and compiling a Kysely query costs more than
 * running an indexed lookup, so hot paths build it once with marker arguments and afterwards
 * only bind new values. The SQL comes from Kysely, so it is right for either dialect.
 *
 * @example
 * const byId = prepare(db, (id: string) => db.selectFrom('api_keys').selectAll().where('id', '=', id))
 * const rows = await byId('abc')
 */
export function prepare<Args extends unknown[], Row>(
  db: Kysely<any>,
  build: (...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000arg${i}\u0000`) as unknown as Args
  const compiled = build(...markers).compile()
  const positions = compiled.parameters.map((p) => {
    const index = (markers as unknown[]).indexOf(p)
    return index >= 0 ? index : -1
  })
  const constants = compiled.parameters
  for (const [i, m] of (markers as unknown[]).entries()) {
    if (!constants.includes(m)) throw new Error(`prepared query does not use argument ${i}`)
  }
  return async (...args: Args) => {
    const parameters = positions.map((pos, i) => (pos >= 0 ? args[pos] : constants[i]))
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))
    return result.rows
  }
}
