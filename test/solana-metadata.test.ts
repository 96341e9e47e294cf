import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeyPairSignerFromPrivateKeyBytes, lamports, type Address, type KeyPairSigner } from '@solana/kit'
import { Value } from '@sinclair/typebox/value'
import { createMemoryCache } from '../src/cache/cache.ts'
import { createSolanaEngine } from '../src/cli/engines.ts'
import { loadConfig } from '../src/config/settings.ts'
import * as ix from '@tokenrisk/devworld/solana/instructions'
import { metaplexMetadataData } from '@tokenrisk/devworld/solana/layouts'
import { SolanaLedger } from '@tokenrisk/devworld/solana/ledger'
import { startSolanaRpcServer, type SolanaRpcServer } from '@tokenrisk/devworld/solana/rpc-server'
import { SolanaReport } from '../src/contract/solana-report.ts'
import { findMetaplexMetadataAddress } from '../src/engines/solana/decode/metaplex.ts'
import { METAPLEX_TOKEN_METADATA_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../src/engines/solana/programs.ts'

/**
 * Images and links from a mint's off-chain metadata JSON, end to end: mints of our own in a
 * LiteSVM ledger served by the local Solana RPC, their metadata uri pointing at a real HTTP server
 * on 127.0.0.1, reports made by the engine as `serve` wires it from configuration. The loopback
 * hatch is opened for that server; every other private range stays refused.
 */

const CID_DOC = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
const CID_IMAGE = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
const AR_IMAGE = 'Yq9b1qk0cZ3M5gKMQmV1d3nY8s0wQ6t2LkPp4fH7xJc'
const MAINNET_GENESIS = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d'
/** Generous, so that a loaded CI machine still completes the fast fetches; the slow server waits it out. */
const FETCH_TIMEOUT_MS = 2_000

let metaServer: Server
let meta: string
/** Paths the metadata server was asked for, in order. */
const asked: string[] = []
/** Paths whose client went away before an answer. */
const abandoned: string[] = []

const documents: Record<string, unknown> = {
  '/doc/full.json': {
    name: 'Full Metadata',
    symbol: 'FULL',
    description: 'A tokenrisk test token with every link.',
    image: 'https://cdn.tokenrisk.dev/full.png',
    external_url: 'https://full.tokenrisk.dev',
    extensions: {
      twitter: '@fulltoken',
      telegram: 'https://t.me/fulltoken',
      discord: 'https://discord.gg/fulltoken',
      github: 'https://github.com/tokenrisk-fixtures/full',
    },
  },
  '/doc/embedded.json': { name: 'Embedded', symbol: 'EMB', image: `ar://${AR_IMAGE}`, properties: { telegram: 'embeddedtoken' } },
  [`/ipfs/${CID_DOC}/token.json`]: { name: 'Content Addressed', symbol: 'CID', image: `ipfs://${CID_IMAGE}/logo.png`, twitter: 'https://x.com/cidtoken' },
  '/doc/script.json': {
    name: 'Script Image',
    image: 'javascript:alert(document.cookie)',
    properties: { files: [{ uri: 'data:image/png;base64,iVBORw0KGgo=', type: 'image/png' }] },
    extensions: { twitter: 'scripttoken', telegram: 'javascript:alert(1)', discord: 'http://discord.gg/plain' },
  },
  '/doc/shared.json': { name: 'Shared', image: 'https://cdn.tokenrisk.dev/shared.png' },
  '/doc/listed.json': { name: 'Listed', image: 'https://cdn.tokenrisk.dev/from-json.png', twitter: '@fromjson', telegram: 'fromjson' },
}

beforeAll(async () => {
  metaServer = createServer((req, res) => {
    const path = req.url ?? '/'
    asked.push(path)
    if (path in documents) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(documents[path]))
    }
    switch (path) {
      case '/doc/big.json': {
        const body = JSON.stringify({ name: 'Big', image: 'https://cdn.tokenrisk.dev/big.png', description: 'z'.repeat(100 * 1024) })
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(body)
      }
      case '/doc/slow.json':
        req.on('close', () => abandoned.push(path))
        return
      case '/doc/to-metadata-service.json':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' })
        return res.end()
      case '/doc/page.html':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<html><head><meta property="og:image" content="https://cdn.tokenrisk.dev/og.png"></head></html>')
      case '/doc/garbage.txt':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return res.end('image=https://cdn.tokenrisk.dev/garbage.png')
      default:
        res.writeHead(404)
        return res.end()
    }
  })
  await new Promise<void>((r) => metaServer.listen(0, '127.0.0.1', () => r()))
  meta = `http://127.0.0.1:${(metaServer.address() as AddressInfo).port}`
})

afterAll(async () => {
  metaServer?.closeAllConnections()
  await new Promise((r) => metaServer?.close(r))
})

beforeEach(() => {
  asked.length = 0
})

/** Our own mints: one per metadata document, created through the real token programs. */
const MINTS = {
  full: { metadata: 'metaplex', uri: () => `${meta}/doc/full.json` },
  embedded: { metadata: 'embedded', uri: () => `${meta}/doc/embedded.json` },
  ipfs: { metadata: 'metaplex', uri: () => `ipfs://${CID_DOC}/token.json` },
  big: { metadata: 'metaplex', uri: () => `${meta}/doc/big.json` },
  slow: { metadata: 'metaplex', uri: () => `${meta}/doc/slow.json` },
  redirect: { metadata: 'metaplex', uri: () => `${meta}/doc/to-metadata-service.json` },
  script: { metadata: 'metaplex', uri: () => `${meta}/doc/script.json` },
  html: { metadata: 'metaplex', uri: () => `${meta}/doc/page.html` },
  garbage: { metadata: 'embedded', uri: () => `${meta}/doc/garbage.txt` },
  sharedA: { metadata: 'metaplex', uri: () => `${meta}/doc/shared.json` },
  sharedB: { metadata: 'embedded', uri: () => `${meta}/doc/shared.json` },
  listed: { metadata: 'metaplex', uri: () => `${meta}/doc/listed.json` },
  reserved: { metadata: 'metaplex', uri: () => 'https://tokenrisk-demo.invalid/token.json' },
  noUri: { metadata: 'metaplex', uri: () => '' },
} as const
type MintKey = keyof typeof MINTS

let ledger: SolanaLedger
let rpc: SolanaRpcServer
/** The same ledger behind an RPC that says it is mainnet-beta (token lists name mainnet mints). */
let mainnetRpc: SolanaRpcServer
const mints = {} as Record<MintKey, string>
let dataDir: string
let tokenListFile: string

const signer = (name: string): Promise<KeyPairSigner> => createKeyPairSignerFromPrivateKeyBytes(createHash('sha256').update(`tokenrisk solana metadata test: ${name}`).digest())

async function createMint(key: MintKey, payer: KeyPairSigner): Promise<string> {
  const spec = MINTS[key]
  const mint = await signer(`${key} mint`)
  const rent = (size: number) => ledger.svm.minimumBalanceForRentExemption(BigInt(size))
  const name = `Meta ${key}`
  const symbol = key.slice(0, 6).toUpperCase()
  if (spec.metadata === 'metaplex') {
    await ledger.send(payer, [ix.createAccount(payer, mint, rent(82), 82, TOKEN_PROGRAM), ix.initializeMint2(TOKEN_PROGRAM, mint.address, 6, payer.address, null)])
    const data = metaplexMetadataData({ updateAuthority: payer.address, mint: mint.address, name, symbol, uri: spec.uri(), isMutable: false, tokenStandard: 2 })
    ledger.setAccount({
      address: await findMetaplexMetadataAddress(mint.address),
      data,
      executable: false,
      lamports: lamports(rent(data.length)),
      programAddress: METAPLEX_TOKEN_METADATA_PROGRAM as Address,
      space: BigInt(data.length),
    })
  } else {
    const size = ix.mintSizeWithExtensions(['MetadataPointer'])
    const program = TOKEN_2022_PROGRAM
    await ledger.send(payer, [
      ix.createAccount(payer, mint, rent(size + ix.embeddedMetadataSize(name, symbol, spec.uri())), size, program),
      ix.initializeMetadataPointer(mint.address, null, mint.address),
      ix.initializeMint2(program, mint.address, 6, payer.address, null),
      ix.initializeTokenMetadata(mint.address, payer.address, payer, name, symbol, spec.uri()),
    ])
  }
  return mint.address
}

beforeAll(async () => {
  ledger = new SolanaLedger({ startUnixTime: Math.floor(Date.now() / 1000) - 86_400, startSlot: 1_000n, epoch: 10n })
  const payer = await signer('payer')
  ledger.svm.airdrop(payer.address, lamports(100_000_000_000n))
  for (const key of Object.keys(MINTS) as MintKey[]) mints[key] = await createMint(key, payer)
  rpc = await startSolanaRpcServer({ ledger })
  mainnetRpc = await startSolanaRpcServer({ ledger, intercept: (call) => (call.method === 'getGenesisHash' ? { result: MAINNET_GENESIS } : undefined) })
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-metadata-'))
  tokenListFile = join(dataDir, 'tokens.json')
  await writeFile(
    tokenListFile,
    JSON.stringify({
      name: 'tokenrisk test list',
      tags: { stable: { name: 'stablecoin' } },
      tokens: [
        {
          chainId: 101,
          address: mints.listed,
          symbol: 'LISTED',
          logoURI: 'https://list.tokenrisk.dev/listed.png',
          tags: ['stable'],
          extensions: { telegram: 'listedtoken', coingeckoId: 'tokenrisk-listed' },
        },
        // Listed under an EVM chain id with the same characters: never a Solana match.
        { chainId: 1, address: mints.full, logoURI: 'https://list.tokenrisk.dev/wrong.png' },
      ],
    }),
  )
}, 60_000)

afterAll(async () => {
  await rpc?.stop()
  await mainnetRpc?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** Debug lines the engine logged, as "message: reason". */
const debugLines: string[] = []
const logger = {
  debug: (obj: object, msg?: string) => void debugLines.push(`${msg}: ${JSON.stringify(obj)}`),
  info: () => {},
  warn: () => {},
  error: () => {},
}

/** The Solana engine as `serve` wires it, from these settings (reports never cached). */
function engine(env: Record<string, string>, rpcUrl = rpc.url) {
  const config = loadConfig({ REPORT_CACHE_TTL_SECONDS: '0', ...env })
  const solana = createSolanaEngine({ config, env: {}, cache: createMemoryCache(), logger, rpcUrls: [rpcUrl] })
  return { report: async (key: MintKey) => (await solana.report(mints[key], {})) as SolanaReport, close: () => solana.close() }
}

const testEnv = () => ({
  METADATA_FETCH_ALLOW_LOOPBACK: '1',
  METADATA_FETCH_ALLOW_HTTP: '1',
  METADATA_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
  IPFS_GATEWAY: `${meta}/ipfs/`,
  ARWEAVE_GATEWAY: `${meta}/ar`,
})

describe('Solana reports with off-chain metadata', () => {
  let service: ReturnType<typeof engine>
  beforeAll(() => {
    service = engine(testEnv())
  })
  afterAll(async () => service.close())

  it('fill the image and the social links from the JSON, in the report schema, counts left ""', async () => {
    const report = await service.report('full')
    expect([...Value.Errors(SolanaReport, report)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
    const info = report.tokenInformation.generalInformation
    expect(info.metadata.uri).toBe(`${meta}/doc/full.json`)
    expect(info.tokenImageLink).toBe('https://cdn.tokenrisk.dev/full.png')
    const { externalLinks, ...social } = report.tokenInformation.socialInformation
    expect(social).toEqual({
      githubLinks: ['https://github.com/tokenrisk-fixtures/full'],
      reddit: { name: '', url: '', subscribers: '' },
      facebook: { name: '', url: '', likes: '' },
      twitter: { name: 'fulltoken', url: 'https://x.com/fulltoken', followers: '' },
      telegram: { name: 'fulltoken', url: 'https://t.me/fulltoken', members: '' },
      discord: { name: '', url: 'https://discord.gg/fulltoken' },
      website: { url: 'https://full.tokenrisk.dev/' },
    })
    // A private cluster: no explorer, no CoinGecko id without a list.
    expect(externalLinks).toEqual({ coinGeckoLink: '', coinGeckoId: '', blockExplorerLink: '', geckoTerminal: '' })
    // On-chain name and symbol stay the report's.
    expect(info.tokenName).toBe('Meta full')
  })

  it('read the uri of Token-2022 embedded metadata and link ar:// images through the gateway', async () => {
    const { generalInformation: info, socialInformation: social } = (await service.report('embedded')).tokenInformation
    expect(info.metadata.source).toBe('token-2022')
    expect(info.tokenImageLink).toBe(`${meta}/ar/${AR_IMAGE}`)
    expect(social.telegram.name).toBe('embeddedtoken')
  })

  it('read an ipfs:// uri through the IPFS gateway and link an ipfs:// image through it', async () => {
    const { generalInformation: info, socialInformation: social } = (await service.report('ipfs')).tokenInformation
    expect(asked).toEqual([`/ipfs/${CID_DOC}/token.json`])
    expect(info.tokenImageLink).toBe(`${meta}/ipfs/${CID_IMAGE}/logo.png`)
    expect(social.twitter).toMatchObject({ name: 'cidtoken', url: 'https://x.com/cidtoken' })
  })

  it('refuse an oversized document: the report answers, image "", the reason logged at debug', async () => {
    debugLines.length = 0
    const report = await service.report('big')
    expect(report.tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(report.tokenInformation.generalInformation.tokenName).toBe('Meta big')
    expect(debugLines.join('\n')).toMatch(/solana fact unknown.*off-chain metadata.*exceeds 65536 bytes/)
  })

  it('give up on a server that does not answer within the fetch timeout, and close the connection', async () => {
    const report = await service.report('slow')
    expect(report.tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(report.tokenInformation.generalInformation.metadata.uri).toBe(`${meta}/doc/slow.json`)
    await expect.poll(() => abandoned).toContain('/doc/slow.json')
    expect(debugLines.join('\n')).toMatch(new RegExp(`no complete answer within ${FETCH_TIMEOUT_MS} ms`))
  })

  it('refuse a redirect to the cloud metadata address even with the loopback hatch open', async () => {
    debugLines.length = 0
    expect((await service.report('redirect')).tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(asked).toEqual(['/doc/to-metadata-service.json'])
    expect(debugLines.join('\n')).toMatch(/169\.254\.169\.254 is refused: link-local address/)
  })

  it('ignore javascript:, data: and plain-http links, keeping the safe ones', async () => {
    const info = (await service.report('script')).tokenInformation
    expect(info.generalInformation.tokenImageLink).toBe('')
    expect(info.socialInformation.twitter.name).toBe('scripttoken')
    expect(info.socialInformation.telegram.name).toBe('')
    expect(info.socialInformation.discord.url).toBe('')
    expect(JSON.stringify(info)).not.toMatch(/javascript:|data:image/)
  })

  it('ignore documents that are not JSON', async () => {
    for (const key of ['html', 'garbage'] as const) {
      const info = (await service.report(key)).tokenInformation
      expect(info.generalInformation.tokenImageLink, key).toBe('')
      expect(info.socialInformation.twitter.name, key).toBe('')
    }
    expect(asked).toEqual(['/doc/page.html', '/doc/garbage.txt'])
  })

  it('fetch a uri once and reuse the document, across reports and across mints', async () => {
    const first = await service.report('sharedA')
    const again = await service.report('sharedA')
    const other = await service.report('sharedB')
    for (const r of [first, again, other]) expect(r.tokenInformation.generalInformation.tokenImageLink).toBe('https://cdn.tokenrisk.dev/shared.png')
    expect(asked).toEqual(['/doc/shared.json'])
  })

  it('fetch nothing for a mint without a uri', async () => {
    expect((await service.report('noUri')).tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(asked).toEqual([])
  })
})

describe('Solana metadata fetching, configured', () => {
  it('without the loopback hatch, refuses the metadata server on this machine without a request', async () => {
    const { METADATA_FETCH_ALLOW_LOOPBACK: _, ...env } = testEnv()
    const strict = engine(env)
    debugLines.length = 0
    expect((await strict.report('full')).tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(asked).toEqual([])
    expect(debugLines.join('\n')).toMatch(/127\.0\.0\.1:\d+ is refused: loopback address/)
    await strict.close()
  })

  it('with METADATA_FETCH=off, never fetches', async () => {
    const off = engine({ ...testEnv(), METADATA_FETCH: 'off' })
    const report = await off.report('full')
    expect(report.tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(report.tokenInformation.generalInformation.metadata.uri).toBe(`${meta}/doc/full.json`)
    expect(asked).toEqual([])
    await off.close()
  })

  it('on the defaults, refuses a reserved .invalid host before any DNS query (the local world stays offline)', async () => {
    const defaults = engine({})
    debugLines.length = 0
    expect((await defaults.report('reserved')).tokenInformation.generalInformation.tokenImageLink).toBe('')
    expect(debugLines.join('\n')).toMatch(/tokenrisk-demo\.invalid is refused: reserved name \(\.invalid\)/)
    await defaults.close()
  })
})

describe('Solana metadata from the token list', () => {
  it('takes image, categories and links from the list on mainnet-beta; the list wins over the JSON', async () => {
    const listed = engine({ ...testEnv(), TOKEN_LIST: tokenListFile }, mainnetRpc.url)
    const { generalInformation: info, socialInformation: social } = (await listed.report('listed')).tokenInformation
    expect(info.tokenImageLink).toBe('https://list.tokenrisk.dev/listed.png')
    expect(info.categories).toEqual(['spl-token', 'Fungible', 'stablecoin'])
    expect([info.chainId, info.chainName, info.cluster]).toEqual(['101', 'Solana', 'mainnet-beta'])
    expect(social.telegram).toMatchObject({ name: 'listedtoken', url: 'https://t.me/listedtoken' })
    // What the list does not say still comes from the JSON.
    expect(social.twitter.name).toBe('fromjson')
    expect(social.externalLinks).toMatchObject({
      coinGeckoId: 'tokenrisk-listed',
      coinGeckoLink: 'https://www.coingecko.com/en/coins/tokenrisk-listed',
      blockExplorerLink: `https://explorer.solana.com/address/${mints.listed}`,
    })
    // A mint the list names only under an EVM chain id gets nothing from it.
    expect((await listed.report('full')).tokenInformation.generalInformation.tokenImageLink).toBe('https://cdn.tokenrisk.dev/full.png')
    await listed.close()
  })

  it('ignores the list on a private cluster, whose mints are not the listed ones', async () => {
    const local = engine({ ...testEnv(), TOKEN_LIST: tokenListFile })
    const info = (await local.report('listed')).tokenInformation.generalInformation
    expect(info.tokenImageLink).toBe('https://cdn.tokenrisk.dev/from-json.png')
    expect(info.categories).toEqual(['spl-token', 'Fungible'])
    expect([info.chainId, info.cluster]).toEqual(['', ''])
    await local.close()
  })
})
