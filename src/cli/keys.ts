import { InputError } from '../errors.ts'
import { INSTANCE_DEFAULT_FORMAT } from '../contract/report-formats.ts'
import { createDatabase } from '../store/database.ts'
import { createApiKeyRepository, type ApiKeyRecord } from '../store/repositories/api-keys.ts'
import { parseCommand, required } from './args.ts'
import { noteSecondStore } from './data-dir.ts'
import { COMMANDS } from './commands.ts'
import type { Io } from './io.ts'

function describe(k: ApiKeyRecord): string {
  const flags = [k.admin ? 'admin' : '', k.rateLimitRps ? `${k.rateLimitRps} req/s` : '', k.format ? `format ${k.format}` : '', k.revokedAt ? `revoked ${k.revokedAt}` : '']
    .filter(Boolean)
    .join(', ')
  return `${k.id}  user=${k.userId}${k.name ? `  name=${k.name}` : ''}  created ${k.createdAt}${flags ? `  (${flags})` : ''}`
}

/** `tokenrisk keys …`: create (the key is shown once), list, revoke, set-format. */
export async function keysCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv
  const { config, values, positionals } = parseCommand(COMMANDS.keys, rest, io.env)
  noteSecondStore(config, io)
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    const keys = createApiKeyRepository(store)
    switch (sub) {
      case 'create': {
        const rate = values['rate-limit']
        const created = await keys.create({
          userId: required(values, 'user'),
          name: typeof values.name === 'string' ? values.name : undefined,
          admin: values.admin === true,
          rateLimitRps: typeof rate === 'string' ? Number(rate) : null,
          format: typeof values.format === 'string' ? values.format : undefined,
        })
        if (values.json) io.out(JSON.stringify({ id: created.id, key: created.key, userId: created.userId, format: created.format ?? INSTANCE_DEFAULT_FORMAT }))
        else {
          const notes = [created.admin ? 'admin' : '', created.format ? `reports in ${created.format}` : ''].filter(Boolean).join(', ')
          io.out(`API key ${created.id} for user ${created.userId}${notes ? ` (${notes})` : ''}:`)
          io.out(`  ${created.key}`)
          io.out('It is shown only now: store it safely. Send it in the x-api-key header.')
        }
        return 0
      }
      case 'list': {
        const list = await keys.list()
        if (values.json) io.out(JSON.stringify(list.map((k) => ({ ...k, format: k.format ?? INSTANCE_DEFAULT_FORMAT }))))
        else if (list.length === 0) io.out('no API keys yet: tokenrisk keys create --user <userId>')
        else for (const k of list) io.out(describe(k))
        return 0
      }
      case 'revoke': {
        const id = positionals[0]
        if (!id) throw new InputError('usage: tokenrisk keys revoke <id>')
        const revoked = await keys.revoke(id)
        io.out(`revoked ${revoked.id} (user ${revoked.userId})`)
        return 0
      }
      case 'set-format': {
        const id = positionals[0]
        if (!id) throw new InputError('usage: tokenrisk keys set-format <id> --format F')
        const updated = await keys.setFormat(id, required(values, 'format'))
        io.out(`key ${updated.id} (user ${updated.userId}) now reports in ${updated.format ?? "the instance's DEFAULT_FORMAT"}`)
        return 0
      }
      default:
        throw new InputError(`usage:\n${COMMANDS.keys.usage.join('\n')}`)
    }
  } finally {
    await store.close()
  }
}
