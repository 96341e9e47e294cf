import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BUNDLED_TOKEN_LISTS, createBundledTokenListProvider, layeredProvider } from '../src/metadata/bundled-lists.ts'
import { createTokenListProvider } from '../src/metadata/providers.ts'
import { tokenListProvider } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'

/** Well-known tokens of the bundled lists (their published addresses). */
const USDC_SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const USDC_ETHEREUM = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const signal = AbortSignal.timeout(30_000)
/** A token only the operator's list names. */
const OPERATOR_TOKEN = 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr'

let dir: string
let userList: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tokenrisk-token-lists-'))
  userList = join(dir, 'mine.json')
  await writeFile(
    userList,
    JSON.stringify({
      name: 'an operator list',
      tokens: [
        { chainId: 101, address: USDC_SOLANA, logoURI: 'https://images.operator.example/usdc.png', extensions: { twitter: 'operator_usdc' } },
        { chainId: 101, address: OPERATOR_TOKEN, symbol: 'OPR', name: 'Operator Token' },
      ],
    }),
  )
})

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the bundled token lists', () => {
  it('pin exact versions of the packages they come from', async () => {
    const pkg = (await import('../package.json', { with: { type: 'json' } })).default as { dependencies: Record<string, string> }
    for (const list of BUNDLED_TOKEN_LISTS) {
      const name = list.file.split('/').slice(0, 2).join('/')
      expect(pkg.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/)
    }
  })

  it('give a well-known Solana mint its image, category, website and CoinGecko id', async () => {
    const found = await createBundledTokenListProvider().lookup(101, USDC_SOLANA, signal)
    expect(found?.imageUrl).toMatch(/^https:\/\//)
    expect(found?.categories).toContain('stablecoin')
    expect(found?.coinGeckoId).toBe('usd-coin')
    expect(found?.marketAggregatorLink).toBe('https://www.coingecko.com/en/coins/usd-coin')
    expect(found?.website).toMatch(/^https:\/\//)
  })

  it('give a well-known EVM token its image, whatever the address case', async () => {
    const provider = createBundledTokenListProvider()
    const found = await provider.lookup(1, USDC_ETHEREUM.toLowerCase(), signal)
    expect(found?.imageUrl).toMatch(/^https:\/\//)
    // The same address on a chain the list does not name it for: nothing.
    expect(await provider.lookup(31337, USDC_ETHEREUM, signal)).toBeUndefined()
    // A Solana mint is not found under an EVM chain id, nor an EVM address under a Solana one.
    expect(await provider.lookup(1, USDC_SOLANA, signal)).toBeUndefined()
    expect(await provider.lookup(101, USDC_ETHEREUM, signal)).toBeUndefined()
  })

  it('read a list only when a lookup of a chain it covers comes', async () => {
    const missing = { name: 'a Solana list that is not installed', file: '@tokenrisk/not-installed/list.json', covers: 'solana' as const }
    const provider = createBundledTokenListProvider({ lists: [BUNDLED_TOKEN_LISTS.find((l) => l.covers === 'evm')!, missing] })
    expect((await provider.lookup(1, USDC_ETHEREUM, signal))?.imageUrl).toMatch(/^https:/)
    await expect(provider.lookup(101, USDC_SOLANA, signal)).rejects.toThrow(/not-installed/)
  })
})

describe('TOKEN_LIST beside the bundled lists', () => {
  it('wins field by field; what it does not say comes from the bundled list', async () => {
    const provider = layeredProvider([createTokenListProvider(userList), createBundledTokenListProvider()])
    const found = await provider.lookup(101, USDC_SOLANA, signal)
    expect(found?.imageUrl).toBe('https://images.operator.example/usdc.png')
    expect(found?.microblog?.name).toBe('operator_usdc')
    expect(found?.coinGeckoId).toBe('usd-coin')
    expect(found?.categories).toContain('stablecoin')
  })

  it('is what the engines are given, with the bundled lists behind it, and the bundled lists alone without it', async () => {
    const withList = tokenListProvider(loadConfig({ TOKEN_LIST: userList }))
    expect((await withList.lookup(101, USDC_SOLANA, signal))?.imageUrl).toBe('https://images.operator.example/usdc.png')
    const defaults = tokenListProvider(loadConfig({}))
    expect(defaults.name).toBe('bundled token lists')
    expect((await defaults.lookup(101, USDC_SOLANA, signal))?.coinGeckoId).toBe('usd-coin')
  })
})

describe('well-known tokens by name, for look-alikes', () => {
  it('the bundled Solana registry names the well-known tokens (with a CoinGecko id) of a symbol or name, without case', async () => {
    const bySymbol = await createBundledTokenListProvider().sameName!(101, '', 'usdc', signal)
    expect(bySymbol.map((t) => t.address)).toContain(USDC_SOLANA)
    const byName = await createBundledTokenListProvider().sameName!(101, '  USD   Coin ', '', signal)
    expect(byName.map((t) => t.address)).toContain(USDC_SOLANA)
    expect(await createBundledTokenListProvider().sameName!(101, 'Nothing Like Any Listed Token', 'ZZZNOPE', signal)).toEqual([])
  })

  it('every token of the operator\'s list is well known, beside the bundled ones', async () => {
    const provider = layeredProvider([createTokenListProvider(userList), createBundledTokenListProvider()])
    const found = await provider.sameName!(101, 'operator token', 'XYZ', signal)
    expect(found).toEqual([{ address: OPERATOR_TOKEN, symbol: 'OPR', name: 'Operator Token', source: `token list ${userList}` }])
  })
})
