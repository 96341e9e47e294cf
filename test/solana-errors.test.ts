import { PUMPSWAP } from '../src/engines/solana/venues/pumpswap.ts'
import { RAYDIUM_CLMM } from '../src/engines/solana/venues/raydium-clmm.ts'
import { METEORA_DAMM_V2 } from '../src/engines/solana/venues/meteora-damm-v2.ts'
import { METEORA_DBC } from '../src/engines/solana/venues/meteora-dbc.ts'
import { METEORA_DAMM_V1 } from '../src/engines/solana/venues/meteora-damm-v1.ts'
import { RAYDIUM_LAUNCHLAB } from '../src/engines/solana/venues/raydium-launchlab.ts'
import { METEORA_DLMM } from '../src/engines/solana/venues/meteora-dlmm.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMemoryCache } from '../src/cache/cache.ts'
import { DeadlineError, InputError, NotFoundError, UpstreamError } from '../src/errors.ts'
import { startDelayProxy } from '@tokenrisk/devworld/solana/delay-proxy'
import { startSolanaWorld, type StartedSolanaWorld } from '@tokenrisk/devworld/solana/world'
import type { InterceptAnswer } from '@tokenrisk/devworld/solana/rpc-server'
import { isSolanaAddress, parseSolanaAddress } from '../src/engines/solana/address.ts'
import { silentLogger } from '../src/engines/solana/logger.ts'
import { ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_AMM_V4_PROGRAM, RAYDIUM_CPMM_PROGRAM, TOKEN_PROGRAM } from '../src/engines/solana/programs.ts'
import { SolanaRpcError } from '../src/engines/solana/rpc/errors.ts'
import { createSolanaRpcClient } from '../src/engines/solana/rpc/client.ts'
import { createSolanaReportService, type SolanaReportServiceOptions } from '../src/engines/solana/service.ts'

/**
 * What a caller gets for bad input, for accounts that are not mints, and when the RPC is down,
 * slow, broken or lying: a clear error or an honest partial report, never a crash or a hang.
 */

type Hostile = (call: { method: string; params: unknown[] }, next: () => unknown) => InterceptAnswer
let world: StartedSolanaWorld
let dataDir: string
let hostile: Hostile | undefined
const calls: string[] = []
/** Accounts whose history was asked for (getSignaturesForAddress), in order. */
const histories: string[] = []
const servers: Server[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tokenrisk-solana-errors-'))
  world = await startSolanaWorld({
    dataDir,
    rpc: {
      intercept: (call, next) => {
        calls.push(call.method)
        if (call.method === 'getSignaturesForAddress') histories.push(String(call.params[0]))
        return hostile?.(call, next)
      },
    },
  })
})

afterEach(() => {
  hostile = undefined
})

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  await world?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const mint = (key: string) => world.manifest.mints.find((m) => m.key === key)!
const service = (options: Partial<SolanaReportServiceOptions> = {}, rpcUrls = [world.rpcUrl]) =>
  createSolanaReportService({ rpcUrls, cache: createMemoryCache(), logger: silentLogger, options: { pricing: world.manifest.pricing, ...options } })

/** Answers getMultipleAccounts truthfully except for `address`, which gets `account`. */
const replaceAccount =
  (address: string, account: unknown): Hostile =>
  (call, next) => {
    if (call.method !== 'getMultipleAccounts') return undefined
    const real = next() as { context: unknown; value: unknown[] }
    const list = call.params[0] as string[]
    return { result: { ...real, value: real.value.map((v, i) => (list[i] === address ? account : v)) } }
  }

const account = (owner: string, data: Uint8Array) => ({ data: [Buffer.from(data).toString('base64'), 'base64'], executable: false, lamports: 1_000_000, owner, rentEpoch: 0, space: data.length })

/** An HTTP server that answers every request with `status` and `body`. */
async function fixedServer(status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(body)
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return `http://127.0.0.1:${port}/?api-key=SECRET-KEY`
}

describe('bad addresses (400)', () => {
  it.each([
    ['', 'required'],
    ['0x6b175474e89094c44da98b954eedeac495271d0f', 'base58'],
    ['So1111111111111111111111111111111111111111O', 'base58'],
    ['abc def', 'base58'],
    ['1111', '32 bytes'],
    ['3'.repeat(45), 'at most 44 characters'],
    ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 'decode to 32 bytes'],
  ])('%j is refused: %s', async (input, message) => {
    expect(isSolanaAddress(input)).toBe(false)
    const error = await service().report(input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).statusCode).toBe(400)
    expect((error as Error).message).toContain(message)
  })

  it('accepts every 32-byte base58 address', () => {
    expect(parseSolanaAddress('So11111111111111111111111111111111111111112')).toBe('So11111111111111111111111111111111111111112')
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true)
  })
})

describe('accounts that are not mints (404, saying what they are)', () => {
  it.each([
    ['empty', 'no account exists'],
    ['wallet', 'System Program'],
    ['tokenAccount', 'token account (of mint'],
    ['program', 'is a program'],
    ['metadataAccount', 'Metaplex metadata account'],
  ] as const)('%s', async (kind, message) => {
    const error = await service().report(world.manifest.notMints[kind]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotFoundError)
    expect((error as NotFoundError).statusCode).toBe(404)
    expect((error as Error).message).toContain(message)
  })

  it('remembers a missing mint for a while instead of asking the RPC again', async () => {
    const s = service()
    await expect(s.report(world.manifest.notMints.empty)).rejects.toBeInstanceOf(NotFoundError)
    const before = calls.length
    await expect(s.report(world.manifest.notMints.empty)).rejects.toThrow('no account exists')
    expect(calls.length).toBe(before)
  })
})

describe('hostile or broken answers about the mint (clear error, no crash)', () => {
  it('an account the RPC says belongs to another program is not a mint (404)', async () => {
    const target = mint('clean-spl').address
    hostile = replaceAccount(target, account(RAYDIUM_CPMM_PROGRAM, new Uint8Array(82)))
    await expect(service().report(target)).rejects.toThrow(/not a token mint: the account is owned by program CPMM/)
  })

  it('truncated mint data under the token program is a malformed answer (503)', async () => {
    const target = mint('clean-spl').address
    hostile = replaceAccount(target, account(TOKEN_PROGRAM, new Uint8Array(40)))
    const error = await service().report(target).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SolanaRpcError)
    expect((error as SolanaRpcError).failure).toBe('malformed')
    expect((error as SolanaRpcError).statusCode).toBe(503)
    expect((error as Error).message).toContain('40 bytes are not a valid spl-token account')
  })

  it('a Token-2022 extension running past the end of the data is malformed (503)', async () => {
    const target = mint('t22-transfer-fee')
    const real = (await createSolanaRpcClient({ urls: [world.rpcUrl] }).getAccounts([target.address]))[0]!
    const data = new Uint8Array(real.data)
    data[167 + 2] = 0xff // first extension's length byte: far past the end
    data[167 + 3] = 0x7f
    hostile = replaceAccount(target.address, account(real.owner, data))
    await expect(service().report(target.address)).rejects.toThrow(/not a valid token-2022 account.*claims/)
  })

  it('a mint option tag that is neither 0 nor 1 is malformed (503)', async () => {
    const target = mint('mintable-spl').address
    const real = (await createSolanaRpcClient({ urls: [world.rpcUrl] }).getAccounts([target]))[0]!
    const data = new Uint8Array(real.data)
    data[0] = 7
    hostile = replaceAccount(target, account(TOKEN_PROGRAM, data))
    await expect(service().report(target)).rejects.toThrow(/mint authority option tag is 7/)
  })

  it.each([
    ['data that is not base64', { data: ['%%%', 'base64'], executable: false, lamports: 1, owner: TOKEN_PROGRAM, rentEpoch: 0, space: 3 }, 'data is not base64'],
    ['an owner that is not an address', { data: ['', 'base64'], executable: false, lamports: 1, owner: 'nobody', rentEpoch: 0, space: 0 }, 'owner is not a base58 address'],
    ['a string instead of an account', 'surprise', 'not an object'],
  ])('%s is malformed (503)', async (_label, bad, message) => {
    const target = mint('clean-spl').address
    hostile = replaceAccount(target, bad)
    const error = await service().report(target).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SolanaRpcError)
    expect((error as Error).message).toContain(message)
  })

  it('a getMultipleAccounts answer with the wrong number of accounts is malformed (503)', async () => {
    hostile = (call) => (call.method === 'getMultipleAccounts' ? { result: { context: { slot: 1 }, value: [] } } : undefined)
    await expect(service().report(mint('clean-spl').address)).rejects.toThrow(/getMultipleAccounts: unexpected answer: expected/)
  })

  it('a node error is passed on with its code, as 503', async () => {
    hostile = (call) => (call.method === 'getMultipleAccounts' ? { error: { code: -32602, message: 'Invalid params: nope' } } : undefined)
    const error = await service().report(mint('clean-spl').address).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SolanaRpcError)
    expect((error as SolanaRpcError).code).toBe(-32602)
    expect((error as UpstreamError).statusCode).toBe(503)
  })
})

describe('RPC endpoints that fail (fallback in order, then 503)', () => {
  it('moves past a dead endpoint and one answering HTTP 503', async () => {
    const s = service({}, [await deadUrl(), await fixedServer(503, 'busy'), world.rpcUrl])
    const report = await s.report(mint('clean-spl').address)
    expect(report.tokenInformation.generalInformation.tokenName).toBe('Clean Coin')
    expect(s.stats().fallbacks).toBeGreaterThan(0)
  })

  it('gives up with 503 when no endpoint answers: hosts and reasons in the details for the logs, none in the message', async () => {
    const s = service({}, [await deadUrl(), await fixedServer(500, 'oops'), await fixedServer(200, '{"jsonrpc":"2.0","result":')])
    const error = await s.report(mint('clean-spl').address).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SolanaRpcError)
    expect((error as SolanaRpcError).failure).toBe('unavailable')
    expect((error as SolanaRpcError).statusCode).toBe(503)
    expect((error as Error).message).toBe('Solana RPC getMultipleAccounts: no RPC endpoint answered (3 tried)')
    const details = (error as SolanaRpcError).details ?? ''
    expect(details).toMatch(/HTTP 500/)
    expect(details).toMatch(/not JSON/)
    expect(details).not.toContain('SECRET')
  })

  it('cuts an answer larger than the response limit', async () => {
    const client = createSolanaRpcClient({ urls: [world.rpcUrl], maxResponseBytes: 500 })
    await expect(client.getHealth()).resolves.toBe('ok')
    const error = await client.getAccounts([mint('t22-transfer-fee').address]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SolanaRpcError)
    expect((error as SolanaRpcError).failure).toBe('too-large')
  })

  it('answers a slow RPC with a DeadlineError within the deadline', async () => {
    // Each answer takes 3 s; the 250 ms deadline must end the report long before the first one.
    const proxy = await startDelayProxy({ target: world.rpcUrl, delayMs: 3_000 })
    try {
      const started = performance.now()
      const error = await service({ deadlineMs: 250 }, [proxy.url]).report(mint('clean-spl').address).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeadlineError)
      expect((error as DeadlineError).statusCode).toBe(503)
      expect(performance.now() - started).toBeLessThan(2_000)
    } finally {
      await proxy.stop()
    }
  })

  it("stops waiting when the caller's signal aborts", async () => {
    const proxy = await startDelayProxy({ target: world.rpcUrl, delayMs: 300 })
    try {
      const error = await service({}, [proxy.url]).report(mint('clean-spl').address, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeadlineError)
    } finally {
      await proxy.stop()
    }
  })
})

describe('optional facts that fail leave "" and the report stands', () => {
  it('a node refusing pool searches: pairs and liquidity unknown, one token-level honeypot entry', async () => {
    hostile = (call) =>
      call.method === 'getProgramAccounts' && [RAYDIUM_AMM_V4_PROGRAM, RAYDIUM_CPMM_PROGRAM, ORCA_WHIRLPOOL_PROGRAM].includes(call.params[0] as string)
        ? { error: { code: -32010, message: 'excluded from account secondary indexes' } }
        : undefined
    const report = await service().report(mint('clean-spl').address)
    const liquidity = report.marketChecks.marketCheckDescription.liquidityDescription
    const ag = liquidity.aggregatedInformation
    expect([ag.tradingPairCount.number, ag.totalLpSupplyInUsd.number, liquidity.pairByPairInformation.length]).toEqual(['', '', 0])
    expect(report.honeypotDetails.pools).toHaveLength(1)
    expect(report.honeypotDetails.isPairHoneypot).toBe('')
    expect(report.honeypotDetails.isTokenHoneypot).toBe('')
    expect(report.tokenInformation.tokenSupplyInformation.currentPriceUsd).toBe('')
    expect(ag.totalLpSupply).toBe('')
  })

  it('a node refusing only the newer venues\' searches: pools unknown, never 0, for a token on its curve too', async () => {
    for (const program of [PUMPSWAP.programId, METEORA_DAMM_V2.programId, METEORA_DLMM.programId, RAYDIUM_CLMM.programId, RAYDIUM_LAUNCHLAB.programId, METEORA_DBC.programId, METEORA_DAMM_V1.programId]) {
      hostile = (call) =>
        call.method === 'getProgramAccounts' && call.params[0] === program ? { error: { code: -32010, message: 'excluded from account secondary indexes' } } : undefined
      for (const key of ['pump-curve', 'meteora-dlmm']) {
        const report = await service().report(mint(key).address)
        const ag = report.marketChecks.marketCheckDescription.liquidityDescription.aggregatedInformation
        expect([ag.tradingPairCount.number, ag.totalLpSupplyInUsd.number], `${key} ${program}`).toEqual(['', ''])
        expect(ag.tradingPairCount.risk, `${key} ${program}`).toBe(3)
        expect(report.honeypotDetails.isPairHoneypot, `${key} ${program}`).toBe('')
        // The curve is derived from the mint, not searched: it is still known.
        if (key === 'pump-curve') expect(ag.launchCurve.state).toBe('on curve')
        // A curve found only by the search is unknown with the pools, never "none".
        if (key === 'meteora-dlmm') expect(ag.launchCurve.state).toBe('')
      }
    }
  })

  it('a node lying about the largest accounts: no report from it (503), nothing invented', async () => {
    const other = mint('mintable-spl').address
    // Answer for the clean mint with the largest accounts of another mint.
    const otherLargest = await createSolanaRpcClient({ urls: [world.rpcUrl] }).getTokenLargestAccounts(other)
    hostile = (call) =>
      call.method === 'getTokenLargestAccounts'
        ? { result: { context: { slot: 1 }, value: otherLargest.map((l) => ({ address: l.address, amount: l.amount.toString(), decimals: 6, uiAmount: 1, uiAmountString: '1' })) } }
        : undefined
    const failed = service().report(mint('clean-spl').address)
    await expect(failed).rejects.toBeInstanceOf(UpstreamError)
    await expect(failed).rejects.toThrow(/largest accounts are not the mint's/)
  })

  it('a node without transaction history: creation date and creator unknown', async () => {
    hostile = (call) => (call.method === 'getSignaturesForAddress' ? { result: [] } : undefined)
    const report = await service().report(mint('pump-curve').address)
    const info = report.tokenInformation.generalInformation
    expect([info.tokenCreationDate, info.tokenCreationTime, info.creationSignature, info.creatorAddress, info.creatorBalance]).toEqual(['', '', '', '', ''])
    // The launch is read from the same history: "" with the reason, never "no bundle".
    const launch = report.marketChecks.marketCheckDescription.holdersDescription.launch
    expect([launch.bundledCount, launch.sniperCount, launch.insiderCount, launch.heldPercent]).toEqual(['', '', '', ''])
    expect(launch.reason).toMatch(/history is not available/)
    const checks = Object.fromEntries(Object.values(report.codeChecks.codeCheckDescription).flat().map((i) => [i.check, i.status]))
    expect([checks.bundledLaunch, checks.snipedLaunch]).toEqual(['', ''])
  })

  it('a pruned history (oldest kept transaction is not the creation): creation unknown', async () => {
    hostile = (call, next) => {
      if (call.method !== 'getSignaturesForAddress') return undefined
      const list = next() as unknown[]
      return { result: list.slice(0, -1) }
    }
    const info = (await service().report(mint('t22-transfer-fee').address)).tokenInformation.generalInformation
    expect(info.tokenCreationDate).toBe('')
    expect(info.creatorAddress).toBe('')
  })

  it('a node refusing getProgramAccounts on token programs: the count comes from a complete largest-accounts list', async () => {
    hostile = (call) =>
      call.method === 'getProgramAccounts' && call.params[0] === TOKEN_PROGRAM ? { error: { code: -32010, message: 'excluded from account secondary indexes' } } : undefined
    const report = await service().report(mint('mintable-spl').address)
    expect(report.marketChecks.marketCheckDescription.holdersDescription.holdersCount.number).toBe(mint('mintable-spl').holders.count)
  })

  it('the transfer-hook program refused by the node: its upgradeability is undetermined, not guessed', async () => {
    const hooked = mint('t22-hook-upgradeable')
    const program = (await service().report(hooked.address)).tokenInformation.generalInformation.transferHook.programId
    hostile = (call) =>
      call.method === 'getMultipleAccounts' && (call.params[0] as string[]).includes(program) ? { error: { code: -32010, message: 'excluded from account secondary indexes' } } : undefined
    const report = await service().report(hooked.address)
    const [externalCall, check] = report.codeChecks.codeCheckDescription.externalContractDescription
    expect(check).toMatchObject({ check: 'transferHookUpgradeable', status: '', risk: 3, riskStatus: '', heading: 'Transfer Hook Upgradeability is Unknown' })
    expect(check.comment).toMatch(/^not determinable: transfer-hook program/)
    expect(report.tokenInformation.generalInformation.transferHook.programUpgradeable).toBe('')
    expect(externalCall).toMatchObject({ check: 'externalCall', status: '1' })
  })

  it('the transfer-hook program read failing with a node error: no report (503), not an unknown check', async () => {
    const hooked = mint('t22-hook-upgradeable')
    const program = (await service().report(hooked.address)).tokenInformation.generalInformation.transferHook.programId
    hostile = (call) =>
      call.method === 'getMultipleAccounts' && (call.params[0] as string[]).includes(program) ? { error: { code: -32602, message: 'Invalid params: no' } } : undefined
    await expect(service().report(hooked.address)).rejects.toBeInstanceOf(UpstreamError)
  })
})

describe('cache and single flight', () => {
  it('computes a report once for concurrent callers and serves the next one from the cache', async () => {
    const s = service()
    const address = mint('t22-clean').address
    calls.length = 0
    histories.length = 0
    const reports = await Promise.all(Array.from({ length: 5 }, () => s.report(address)))
    expect(new Set(reports.map((r) => JSON.stringify(r))).size).toBe(1)
    // One computation walks the mint's history once: five callers, one getSignaturesForAddress of
    // it (a request of the previous test, cancelled by its client while on its way, may still
    // reach the node now: it is another mint's).
    expect(histories.filter((a) => a === address)).toHaveLength(1)
    calls.length = 0
    await s.report(address)
    expect(calls).toEqual([])
  })
})

describe('readiness', () => {
  it('ping resolves against a healthy node and fails with 503 otherwise', async () => {
    await expect(service().ping()).resolves.toBeUndefined()
    await expect(service({}, [await deadUrl()]).ping()).rejects.toBeInstanceOf(UpstreamError)
    hostile = (call) => (call.method === 'getHealth' ? { error: { code: -32005, message: 'Node is behind by 42 slots' } } : undefined)
    await expect(service().ping()).rejects.toBeInstanceOf(UpstreamError)
  })
})
