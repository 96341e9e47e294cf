// The chain registry: shipped entries (canonical addresses, checksummed), the user file that adds
// or overrides chains (validated, errors naming the bad field), RPC URLs from the environment,
// and the local world's entry from its manifest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isAddress } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { fillLink, loadChainRegistry, parseChainsFile, shippedChains } from '../src/config/chains.ts'
import type { DevnetManifest } from '@tokenrisk/devworld/manifest'
import { ConfigError } from '../src/errors.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const dir = mkdtempSync(join(tmpdir(), 'tokenrisk-chains-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('shipped chains', () => {
  const chains = shippedChains()

  it('ships Ethereum, BNB Chain, Polygon, Arbitrum, Base and the local world', () => {
    expect(chains.map((c) => c.chainId)).toEqual([1, 56, 137, 8453, 31337, 42161])
  })

  it('every address is valid and correctly checksummed; every real chain has a V2 DEX and stablecoins', () => {
    for (const c of chains) {
      const addresses = [c.wrappedNative, c.multicall3, ...c.stablecoins, ...c.majors, ...c.burnAddresses, ...c.lockers.map((l) => l.address), ...c.dexes.flatMap((d) => [d.factory, d.router, d.quoter, d.lens].filter((x): x is `0x${string}` => !!x))]
      for (const a of addresses) expect(isAddress(a, { strict: true }), `${c.name} ${a}`).toBe(true)
      if (c.chainId === 31337) continue
      expect(c.dexes.some((d) => d.type === 'uniswap-v2'), c.name).toBe(true)
      expect(c.stablecoins.length, c.name).toBeGreaterThan(0)
      expect(c.links.explorerToken, c.name).toMatch(/\{address\}/)
      expect(c.rpcUrls, 'RPC URLs come from the user').toEqual([])
    }
  })

  it('knows the canonical addresses', () => {
    const eth = chains.find((c) => c.chainId === 1)!
    expect(eth.wrappedNative).toBe('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2')
    expect(eth.dexes.find((d) => d.name === 'Uniswap V2')?.factory).toBe('0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f')
    const bsc = chains.find((c) => c.chainId === 56)!
    expect(bsc.dexes.find((d) => d.name === 'PancakeSwap V2')).toMatchObject({ factory: '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73', feeBps: 25 })
    expect(chains.find((c) => c.chainId === 8453)!.wrappedNative).toBe('0x4200000000000000000000000000000000000006')
  })

  it('no chain is servable without RPC URLs', () => {
    expect(loadChainRegistry({ env: {} }).servable()).toEqual([])
  })
})

describe('RPC URLs and the user file', () => {
  it('RPC_URL_<chainId> (comma-separated) makes a shipped chain servable', () => {
    const r = loadChainRegistry({ env: { RPC_URL_1: 'https://a.example/rpc, https://b.example/rpc' } })
    expect(r.servable().map((c) => c.chainId)).toEqual([1])
    expect(r.get(1)?.rpcUrls).toEqual(['https://a.example/rpc', 'https://b.example/rpc'])
  })

  it('RPC_URL of an unknown chain asks for a chains file', () => {
    expect(() => loadChainRegistry({ env: { RPC_URL_777: 'https://x.example' } })).toThrow(/chain 777 is not known: add it to a chains file/)
  })

  it('the user file adds a chain and overrides fields of a shipped one', () => {
    const path = file('chains.json', [
      {
        chainId: 31337,
        name: 'local',
        rpcUrls: ['http://127.0.0.1:8545'],
        wrappedNative: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        stablecoins: ['0xa513e6e4b8f2a923d98304ec87f64353c4d5c853'],
        dexes: [{ name: 'UniswapV2', type: 'uniswap-v2', factory: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', router: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0' }],
      },
      { chainId: 10, name: 'OP Mainnet', rpcUrls: ['https://op.example'], wrappedNative: '0x4200000000000000000000000000000000000006', blockTimeSeconds: 2 },
      { chainId: 1, rpcUrls: ['https://eth.example'], links: { pool: 'https://pools.example/{pair}' } },
    ])
    const r = loadChainRegistry({ env: { CHAINS_FILE: path } })
    expect(r.servable().map((c) => c.chainId)).toEqual([1, 10, 31337])
    expect(r.get(31337)?.dexes[0]).toMatchObject({ type: 'uniswap-v2', feeBps: 30, factory: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' })
    expect(r.get(10)).toMatchObject({ name: 'OP Mainnet', multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11', dexes: [] })
    const eth = r.get(1)!
    expect(eth.rpcUrls).toEqual(['https://eth.example'])
    expect(eth.dexes.length).toBeGreaterThan(1)
    expect(eth.links.pool).toBe('https://pools.example/{pair}')
    expect(eth.links.explorerToken).toMatch(/etherscan/)
    expect(fillLink(eth.links.pool, { pair: '0xabc' })).toBe('https://pools.example/0xabc')
  })

  it('errors name every bad field with its path', () => {
    const bad = [
      { chainId: 5, name: '', rpcUrls: ['ftp://x'], wrappedNative: '0x12', dexes: [{ name: 'X', type: 'uniswap-v9', factory: 'nope' }], colour: 'blue' },
    ]
    let message = ''
    try {
      parseChainsFile(JSON.stringify(bad), 'bad.json')
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toContain('bad.json')
    expect(message).toContain('[0].name: must be a non-empty string')
    expect(message).toContain('[0].rpcUrls[0]: must be an http(s) URL')
    expect(message).toContain('[0].wrappedNative: must be a 0x-prefixed 20-byte hex address')
    expect(message).toContain('[0].dexes[0].type: must be one of "uniswap-v2", "uniswap-v3", "pancake-v3", "uniswap-v4", "solidly", "slipstream"')
    expect(message).toContain('[0].dexes[0].factory: must be a 0x-prefixed 20-byte hex address')
    expect(message).toContain('[0].colour: is not a known field')
  })

  it('reads tick spacings for Slipstream-style DEXes only, defaulting to Aerodrome\'s', () => {
    const base = { chainId: 8453, dexes: [{ name: 'CL', type: 'slipstream', factory: '0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A' }] }
    const [entry] = parseChainsFile(JSON.stringify([base]), 'f')
    expect(entry.dexes?.[0].tickSpacings).toEqual([1, 50, 100, 200, 2000])
    const [given] = parseChainsFile(JSON.stringify([{ ...base, dexes: [{ ...base.dexes[0], tickSpacings: [100] }] }]), 'f')
    expect(given.dexes?.[0].tickSpacings).toEqual([100])
    expect(() => parseChainsFile(JSON.stringify([{ ...base, dexes: [{ ...base.dexes[0], tickSpacings: [0] }] }]), 'f')).toThrow(/dexes\[0\]\.tickSpacings: must be a non-empty array/)
    expect(() => parseChainsFile(JSON.stringify([{ ...base, dexes: [{ ...base.dexes[0], type: 'uniswap-v3', tickSpacings: [100] }] }]), 'f')).toThrow(/tickSpacings: is read only for DEXes of type "slipstream"/)
    const shipped = shippedChains().find((c) => c.chainId === 8453)!
    expect(shipped.dexes.find((d) => d.type === 'slipstream')?.factory).toBe('0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A')
  })

  it("a four.meme-interface launchpad needs its helper as lens, which no other DEX type takes; BNB Chain ships four.meme's", () => {
    const manager = '0x5c952063c7fc8610FFDB798152D69F0B9550762b'
    const helper = '0xF251F83e40a78868FcfA3FA4599Dad6494E46034'
    const [entry] = parseChainsFile(JSON.stringify([{ chainId: 56, dexes: [{ name: 'four.meme', type: 'four-meme', factory: manager, lens: helper }] }]), 'f')
    expect(entry.dexes?.[0]).toMatchObject({ type: 'four-meme', factory: manager, lens: helper })
    expect(() => parseChainsFile(JSON.stringify([{ chainId: 56, dexes: [{ name: 'four.meme', type: 'four-meme', factory: manager }] }]), 'f')).toThrow(/dexes\[0\]\.lens: is required for DEXes of type "four-meme"/)
    expect(() => parseChainsFile(JSON.stringify([{ chainId: 56, dexes: [{ name: 'V2', type: 'uniswap-v2', factory: manager, lens: helper }] }]), 'f')).toThrow(/dexes\[0\]\.lens: is read only for DEXes of type "four-meme"/)
    expect(() => parseChainsFile(JSON.stringify([{ chainId: 56, dexes: [{ name: 'four.meme', type: 'four-meme', factory: manager, lens: helper.toLowerCase().replace('f251', 'F251') }] }]), 'f')).toThrow(/dexes\[0\]\.lens/)
    const bsc = shippedChains().find((c) => c.chainId === 56)!
    expect(bsc.dexes.find((d) => d.type === 'four-meme')).toMatchObject({ name: 'four.meme', factory: manager, lens: helper })
  })

  it('rejects a wrong checksum, duplicates, a new chain without its basics, and files that are not JSON arrays', () => {
    expect(() => parseChainsFile('[{"chainId":1,"wrappedNative":"0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756cc2"}]', 'f')).toThrow(/checksum/)
    expect(() => parseChainsFile('[{"chainId":1},{"chainId":1}]', 'f')).toThrow(/\[1\]\.chainId: 1 appears twice/)
    expect(() => loadChainRegistry({ chainsFile: file('new.json', [{ chainId: 12345, rpcUrls: ['https://x.example'] }]) })).toThrow(/chain 12345 is missing name, wrappedNative/)
    expect(() => parseChainsFile('{"chainId":1}', 'f')).toThrow(/must be a JSON array/)
    expect(() => parseChainsFile('not json', 'f')).toThrow(/not valid JSON/)
    expect(() => loadChainRegistry({ chainsFile: join(dir, 'missing.json') })).toThrow(/cannot be read: ENOENT/)
  })
})

describe('the local world', () => {
  it('gives its chain as a chains-file entry that completes the shipped 31337 placeholder', () => {
    const manifest = {
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:9999',
      burnAddresses: ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD'],
      contracts: {
        weth: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        usd: '0xa513e6e4b8f2a923d98304ec87f64353c4d5c853',
        multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
        v2Factory: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
        v2Router: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
        v3Factory: '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9',
        locker: '0x610178da211fef7d417bc0e6fed39f05609ad788',
      },
    } as unknown as DevnetManifest
    const entry = loadChainRegistry({ chains: localChains(manifest) }).get(31337)!
    expect(entry).toMatchObject({ chainId: 31337, name: 'local', rpcUrls: ['http://127.0.0.1:9999'], stablecoins: ['0xa513E6E4b8f2a923D98304ec87F64353C4D5C853'] })
    expect(entry.dexes.map((d) => [d.name, d.type])).toEqual([['Uniswap V2', 'uniswap-v2'], ['Uniswap V3', 'uniswap-v3']])
    expect(entry.lockers).toEqual([{ name: 'tokenrisk LpLocker', type: 'tokenrisk-locker', address: '0x610178dA211FEF7D417bC0e6FeD39F05609AD788' }])
    expect(entry.blockTimeSeconds).toBe(1)
    expect(loadChainRegistry({ chains: localChains(manifest) }).servable().map((c) => c.chainId)).toEqual([31337])
  })
})
