// How the EVM token route reads an address: all lowercase and all uppercase hex are plain
// spellings; mixed case is an EIP-55 checksum, and a wrong one is a 400 that says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createEvmEngine, createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import { evmAddressProblem } from '../src/evm-address.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

const CHECKSUMMED = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
/** The same address with one letter's case flipped: the checksum no longer matches. */
const BAD_CHECKSUM = '0xa0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

describe('EVM token addresses', () => {
  let t: TestStore
  let api: TestApp
  let key = ''

  beforeAll(async () => {
    t = await embeddedStore()
    // Ethereum's entry points at a closed port: an accepted address gets as far as the node (503).
    const deps = { config: loadConfig({}), env: { RPC_URL_1: 'http://127.0.0.1:9' }, cache: createMemoryCache(), store: t.store, logger: silent }
    const evm = createEvmEngine(deps)
    const solana = createSolanaEngine({ ...deps, rpcUrls: [] })
    api = await buildTestApp(t.store, { tokens: { evm: evm.service, solana } })
    key = (await api.keys.create({ userId: 'wallet' })).key
  })

  afterAll(async () => {
    await api?.app.close()
    await t?.cleanup()
  })

  const get = (address: string) => api.app.inject({ url: `/api/v1/tokens/information/${address}?chainId=1`, headers: { 'x-api-key': key } })

  it('answers 400 for a mixed-case address whose EIP-55 checksum does not match, and says so', async () => {
    const res = await get(BAD_CHECKSUM)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(`tokenAddress ${BAD_CHECKSUM} has a mixed-case EIP-55 checksum that does not match: write it all lowercase, or checksummed correctly`)
  })

  it('accepts the checksummed, all-lowercase and all-uppercase spellings', async () => {
    for (const address of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]) {
      const res = await get(address)
      expect(res.statusCode, address).toBe(503)
      expect(res.json().message, address).not.toMatch(/checksum/)
    }
  })

  it('is the same rule the chain registry applies', () => {
    expect(evmAddressProblem(CHECKSUMMED)).toBeUndefined()
    expect(evmAddressProblem(BAD_CHECKSUM)).toMatch(/EIP-55/)
    expect(evmAddressProblem('0x1234')).toMatch(/40 hexadecimal/)
  })
})
