// The report format stored on an API key: on both stores (SQLite and PostgreSQL), through the
// repository and through `tokenrisk keys`; a key without one of its own answers in the instance's
// DEFAULT_FORMAT. The HTTP side (a key's format answering, `?format` overriding it, DEFAULT_FORMAT)
// is in compat-evm.test.ts and compat-clients.test.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.ts'
import { InputError, NotFoundError } from '../src/errors.ts'
import { createApiKeyRepository } from '../src/store/repositories/api-keys.ts'
import { MIGRATIONS } from '../src/store/migrations/index.ts'
import { captureIo } from './helpers/io.ts'
import { storeKinds, type TestStore } from './helpers/services.ts'

for (const kind of storeKinds()) {
  describe(`key formats on ${kind.name}`, () => {
    let t: TestStore
    beforeAll(async () => {
      t = await kind.open()
    })
    afterAll(async () => {
      await t?.cleanup()
    })

    it('stores a key\'s format, answers it with the principal, and changes it', async () => {
      const keys = createApiKeyRepository(t.store, { cacheMs: 60_000 })
      const plain = await keys.create({ userId: 'dana' })
      const v2 = await keys.create({ userId: 'dana', format: 'quillcheck-v2' })
      const pinned = await keys.create({ userId: 'dana', format: 'v1' })
      // Without --format, a key has no format of its own: the instance's DEFAULT_FORMAT applies.
      expect(plain.format).toBeUndefined()
      expect(v2.format).toBe('quillcheck-v2')
      expect(pinned.format).toBe('v1')
      expect((await keys.verify(plain.key))?.format).toBeUndefined()
      expect((await keys.verify(v2.key))?.format).toBe('quillcheck-v2')
      expect((await keys.verify(pinned.key))?.format).toBe('v1')
      expect((await keys.list()).map((k) => [k.id, k.format])).toEqual(expect.arrayContaining([[plain.id, undefined], [v2.id, 'quillcheck-v2'], [pinned.id, 'v1']]))
      // A change takes effect at once in this process, past the key cache.
      expect((await keys.setFormat(plain.id, 'quillcheck-v2')).format).toBe('quillcheck-v2')
      expect((await keys.verify(plain.key))?.format).toBe('quillcheck-v2')
      const row = await t.store.db.selectFrom('api_keys').select('report_format').where('id', '=', plain.id).executeTakeFirstOrThrow()
      expect(row.report_format).toBe('quillcheck-v2')
      // `default` hands it back to the instance's DEFAULT_FORMAT.
      expect((await keys.setFormat(plain.id, 'default')).format).toBeUndefined()
      expect((await keys.verify(plain.key))?.format).toBeUndefined()
      expect((await keys.create({ userId: 'dana', format: 'default' })).format).toBeUndefined()
    })

    it('migrates keys stored in v1 before keys could go without a format of their own', async () => {
      // A key as the store held it before migration 0400: 'v1', whether or not --format v1 was given.
      const keys = createApiKeyRepository(t.store)
      const old = await keys.create({ userId: 'dana', format: 'v1' })
      const migration = MIGRATIONS.find((m) => m.name === '0400_key_format_default')!
      await migration.up(t.store.db as never, t.store.dialect)
      expect((await createApiKeyRepository(t.store).verify(old.key))?.format).toBeUndefined()
    })

    it('refuses an unknown format, and an unknown key', async () => {
      const keys = createApiKeyRepository(t.store)
      await expect(keys.create({ userId: 'dana', format: 'v2' })).rejects.toBeInstanceOf(InputError)
      await expect(keys.create({ userId: 'dana', format: 'v2' })).rejects.toThrow("unknown format 'v2': use one of v1, quillcheck-v2, or default (the instance's DEFAULT_FORMAT)")
      const k = await keys.create({ userId: 'dana' })
      await expect(keys.setFormat(k.id, 'json')).rejects.toBeInstanceOf(InputError)
      await expect(keys.setFormat('ffffffffffff', 'v1')).rejects.toBeInstanceOf(NotFoundError)
    })
  })
}

describe('tokenrisk keys --format', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-key-format-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  const cli = async (...argv: string[]) => {
    const io = captureIo({ DATA_DIR: dataDir })
    const code = await main(argv, io)
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') }
  }

  it('creates a key answered in the newer shape, lists its format, and sets it back', async () => {
    const created = await cli('keys', 'create', '--user', 'erin', '--format', 'quillcheck-v2', '--json')
    expect(created.code).toBe(0)
    const { id, format } = JSON.parse(created.out)
    expect(format).toBe('quillcheck-v2')
    expect((await cli('keys', 'list')).out).toMatch(new RegExp(`${id}  user=erin .*format quillcheck-v2`))
    const text = await cli('keys', 'create', '--user', 'erin', '--format', 'quillcheck-v2')
    expect(text.out).toMatch(/\(reports in quillcheck-v2\)/)
    expect(await cli('keys', 'set-format', id, '--format', 'v1')).toMatchObject({ code: 0, out: `key ${id} (user erin) now reports in v1` })
    expect((await cli('keys', 'list')).out).toMatch(new RegExp(`${id}  user=erin .*format v1`))
    expect(await cli('keys', 'set-format', id, '--format', 'default')).toMatchObject({ code: 0, out: `key ${id} (user erin) now reports in the instance's DEFAULT_FORMAT` })
    expect((await cli('keys', 'list')).out).not.toMatch(new RegExp(`${id}.*format`))
    const plain = JSON.parse((await cli('keys', 'create', '--user', 'erin', '--json')).out)
    expect(plain.format).toBe('default')
    const listed = JSON.parse((await cli('keys', 'list', '--json')).out) as { id: string; format: string }[]
    expect(listed.find((k) => k.id === plain.id)?.format).toBe('default')
    expect(listed.find((k) => k.id === id)?.format).toBe('default')
  })

  it('explains a bad format or a missing one', async () => {
    expect(await cli('keys', 'create', '--user', 'erin', '--format', 'xml')).toMatchObject({ code: 2, err: "unknown format 'xml': use one of v1, quillcheck-v2, or default (the instance's DEFAULT_FORMAT)" })
    expect(await cli('keys', 'set-format', 'ffffffffffff')).toMatchObject({ code: 2, err: '--format is required' })
    expect((await cli('keys', 'set-format', 'ffffffffffff', '--format', 'v1')).code).toBe(1)
  })
})
