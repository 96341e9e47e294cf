import { readFile, stat } from 'node:fs/promises'
import { InputError } from '../errors.ts'
import { createDatabase } from '../store/database.ts'
import { MAX_IMPORT_FILE_BYTES, parseAuditImport } from '../store/import-audits.ts'
import { createAuditRepository } from '../store/repositories/audits.ts'
import { parseCommand, required } from './args.ts'
import { noteSecondStore } from './data-dir.ts'
import { COMMANDS } from './commands.ts'
import type { Io } from './io.ts'

const AUDITS_USAGE = COMMANDS.audits.usage[0]

/** `tokenrisk audits import`: records audits from a JSON file, all of them or none. */
export async function auditsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'import') throw new InputError(`usage: ${AUDITS_USAGE}`)
  const { config, values, positionals } = parseCommand(COMMANDS.audits, rest, io.env)
  const file = positionals[0]
  if (!file) throw new InputError(`usage: ${AUDITS_USAGE}`)
  const projectId = required(values, 'project')
  const userId = required(values, 'user')
  let json: unknown
  try {
    const { size } = await stat(file)
    if (size > MAX_IMPORT_FILE_BYTES) throw new Error(`the file is ${size} bytes; at most ${MAX_IMPORT_FILE_BYTES} are read`)
    json = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new InputError(`cannot read ${file} as JSON: ${(error as Error).message}`)
  }
  const audits = parseAuditImport(json)
  noteSecondStore(config, io)
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    const recorded = await createAuditRepository(store).record({
      projectId,
      userId,
      projectName: typeof values.name === 'string' ? values.name : undefined,
      audits,
    })
    io.out(`imported ${recorded.length} audit${recorded.length === 1 ? '' : 's'} into project ${projectId}`)
    return 0
  } finally {
    await store.close()
  }
}
