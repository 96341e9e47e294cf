// The one settings table: the configuration's type and validation, each command's flags and
// help, and the README's configuration table all come from it.
import { readFileSync } from 'node:fs'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { COMMANDS } from '../src/cli/commands.ts'
import { main } from '../src/cli/main.ts'
import { COMMAND_NAMES, loadConfig, SETTINGS, settingsOf, type Config } from '../src/config/settings.ts'
import { ConfigError } from '../src/errors.ts'
import { README, withSettingsTable } from '../scripts/gen-settings-doc.ts'
import { captureIo } from './helpers/io.ts'

const problems = (env: NodeJS.ProcessEnv, flags: Record<string, string> = {}): string => {
  try {
    loadConfig(env, flags)
    return ''
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
}

describe('the settings table', () => {
  it('types the configuration from the table: defaults are values, optional settings may be undefined', () => {
    expectTypeOf<Config['port']>().toEqualTypeOf<number>()
    expectTypeOf<Config['databaseUrl']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Config['solanaRpcUrls']>().toEqualTypeOf<string[]>()
    expectTypeOf<Config['only']>().toEqualTypeOf<'tokens' | 'audits' | undefined>()
    expectTypeOf<Config['metadataFetchAllowHttp']>().toEqualTypeOf<boolean>()
    const config = loadConfig({})
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', dataDir: './data', devnet: 'auto', solanaRpcUrls: [], corsOrigins: [], metadataFetchAllowHttp: false })
    expect(config.databaseUrl).toBeUndefined()
    expect(Object.keys(config).sort()).toEqual(Object.keys(SETTINGS).sort())
  })

  it('reads the environment, lets flags win, and takes an empty value for an unset one', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0', LOG_LEVEL: '', IPFS_GATEWAY: 'https://gw.example/ipfs', PUBLIC_BASE_URL: 'https://r.example//' }, { port: '9090' })
    expect(config).toMatchObject({ port: 9090, host: '0.0.0.0', logLevel: 'info', ipfsGateway: 'https://gw.example/ipfs/', publicBaseUrl: 'https://r.example' })
    expect(loadConfig({ SOLANA_RPC_URL: 'https://a.example/rpc?api-key=x, http://127.0.0.1:8899\nhttps://b.example' }).solanaRpcUrls).toEqual([
      'https://a.example/rpc?api-key=x',
      'http://127.0.0.1:8899',
      'https://b.example',
    ])
  })

  it('reports every bad value at once, naming the flag or the variable, never echoing a credential', () => {
    const message = problems({ PORT: 'eighty', DEVNET: 'maybe', SOLANA_RPC_URL: 'https://ok.example, wss://SECRET@x.example' }, { 'metrics-token': 'short-secret' })
    expect(message).toMatch(/PORT="eighty": must be a whole number from 0 to 65535/)
    expect(message).toMatch(/DEVNET="maybe": must be one of auto, on, off/)
    expect(message).toMatch(/SOLANA_RPC_URL=\(hidden\): entry 2 must be a URL \(http, https\)/)
    expect(message).toMatch(/--metrics-token=\(hidden\): must be at least 16 characters/)
    expect(message).not.toMatch(/SECRET|short-secret/)
    // A URL's password is masked; the rest of it helps to see what is wrong.
    expect(problems({ REDIS_URL: 'http://user:hunter2@cache.example' })).toMatch(/REDIS_URL="http:\/\/user:\*\*\*@cache\.example\/": must be a URL \(redis, rediss\)/)
  })

  it('gives each command the flags of its own settings only', async () => {
    expect(settingsOf('keys').map(([, s]) => s.flag)).toEqual(['data-dir', 'database-url'])
    expect(settingsOf('devnet').map(([, s]) => s.flag)).toEqual(['data-dir'])
    expect(settingsOf('serve')).toHaveLength(Object.keys(SETTINGS).length)
    const io = captureIo({ DATA_DIR: '/nonexistent' })
    expect(await main(['keys', 'list', '--port', '80'], io)).toBe(2)
    expect(io.stderr.join('\n')).toMatch(/unknown option --port/)
    expect(io.stderr.join('\n')).toMatch(/tokenrisk keys --help/)
  })

  it("prints each command's help from the table: its usage, its options, its settings and no other", async () => {
    for (const name of COMMAND_NAMES) {
      const io = captureIo({})
      expect(await main([name, '--help'], io)).toBe(0)
      const help = io.stdout.join('\n')
      for (const usage of COMMANDS[name].usage) expect(help).toContain(usage)
      for (const [, s] of settingsOf(name)) expect(help, `${name} --${s.flag}`).toContain(`${s.env}, --${s.flag}`)
      for (const [, s] of Object.entries(SETTINGS).filter(([, s]) => !s.commands.includes(name))) expect(help, `${name} without --${s.flag}`).not.toContain(`${s.env}, --${s.flag}`)
    }
    const io = captureIo({})
    expect(await main(['--help'], io)).toBe(0)
    const help = io.stdout.join('\n')
    for (const s of Object.values(SETTINGS)) expect(help).toContain(`${s.env}, --${s.flag}`)
    expect(help).toContain('RPC_URL_<chainId>')
    expect(help).not.toMatch(/--queue/)
  })

  it('the README configuration table is the table (npm run docs)', () => {
    const readme = readFileSync(README, 'utf8')
    expect(withSettingsTable(readme)).toBe(readme)
  })
})
