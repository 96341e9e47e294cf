import { createMemoryCache } from '../cache/cache.ts'
import { DEVNET_CHAIN_ID, loadChainRegistry } from '../config/chains.ts'
import type { Config } from '../config/settings.ts'
import { InputError } from '../errors.ts'
import type { SolanaReport } from '../contract/solana-report.ts'
import type { TokenReport } from '../contract/token-report.ts'
import type { SolanaReportService } from '../contract/services.ts'
import { createDatabase } from '../store/database.ts'
import { parseCommand } from './args.ts'
import { noteSecondStore } from './data-dir.ts'
import { COMMANDS } from './commands.ts'
import { createEvmEngine, createSolanaEngine } from './engines.ts'
import { formatSolanaSummary } from './solana-summary.ts'
import { processIo, useColor, type Io } from './io.ts'
import { evmVerdict } from '../report/verdict.ts'
import { checksDecided, verdictSummary } from './verdict-summary.ts'
import { localChainEntries, localSolanaEndpoint } from './local-worlds.ts'

const SCAN_USAGE = COMMANDS.scan.usage[0]

const COLORS = { red: '\x1b[31m', yellow: '\x1b[33m', green: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' }

/** The summary's word for a check's status: measured present, measured absent, or unknown. */
export function statusWord(status: string): 'RISK' | 'ok' | 'unknown' {
  return status === '1' ? 'RISK' : status === '0' ? 'ok' : 'unknown'
}

/**
 * A readable summary of a report: token, score, markets, holders, liquidity, every code check
 * (risks coloured), and the taxes of each pool.
 */
export function formatSummary(report: TokenReport, options: { color: boolean }): string[] {
  const c = (name: keyof typeof COLORS, s: string) => (options.color ? `${COLORS[name]}${s}${COLORS.reset}` : s)
  const v = (s: string) => (s === '' ? c('dim', 'unknown') : s)
  // A figure that could not be measured says so, without a unit after it.
  const m = (s: string | number, unit: string) => (s === '' ? c('dim', 'not measured') : `${s} ${unit}`)
  const info = report.tokenInformation
  const score = report.tokenScore
  const ex = report.marketChecks.exchangabilityChecks
  const holders = report.marketChecks.holdersChecks
  const lp = report.marketChecks.liquidityChecks
  const lines: string[] = [...verdictSummary(evmVerdict(report), options), '']
  lines.push(c('bold', `${info.tokenName || '(no name)'} (${info.tokenSymbol || 'no symbol'})  ${info.tokenAddress}`))
  lines.push(`  supply ${v(info.totalSupply)}   created ${v(info.tokenCreationDate)} by ${v(info.creatorAddress)}`)
  lines.push(`  owner ${v(info.ownerAddress)} holds ${v(info.ownerBalance)}`)
  lines.push(`  price ${m(info.marketData.currentPriceUsd, 'USD')}   market cap ${m(info.marketData.marketCapUsd, 'USD')}   24 h ${v(info.marketData.pastOneDayLow)} – ${v(info.marketData.pastOneDayHigh)}`)
  lines.push('')
  lines.push(c('bold', 'Score'))
  lines.push(`  total ${m(score.totalScorePercentage, '%')}   code ${m(score.codeScorePercentage, '%')}   market ${m(score.marketScorePercentage, '%')}`)
  if ('checksPerformed' in score) lines.push(`  ${checksDecided(score.checksPerformed, score.checksTotal)}`)
  if ('anomalies' in info) for (const a of info.anomalies) lines.push(`  ${c('red', 'anomaly')} ${a}`)
  lines.push('')
  lines.push(c('bold', 'Code checks'))
  const checks = { ...report.codeChecks.ownershipChecks, ...report.codeChecks.otherChecks }
  for (const [name, check] of Object.entries(checks)) {
    const word = statusWord(check.status)
    const mark = word === 'RISK' ? c(check.risk === 'Critical' ? 'red' : 'yellow', 'RISK') : word === 'ok' ? c('green', ' ok ') : c('dim', ' ?? ')
    lines.push(`  ${mark} ${name.padEnd(28)} ${check.description}`)
    if (check.comment) lines.push(`       ${c('dim', check.comment)}`)
  }
  lines.push('')
  lines.push(c('bold', 'Pools'))
  if (report.honeypotDetails.length === 0) lines.push('  no pool found')
  for (const p of report.honeypotDetails) {
    const hp =
      p.isPairHoneypot === '1' ? c('red', `HONEYPOT: ${p.honeypotReason}`) : p.isPairHoneypot === '0' ? c('green', 'sellable') : c('dim', `unknown: ${p.honeypotReason}`)
    lines.push(`  ${p.dex} ${p.pairAddress}${p.poolId ? ` pool ${p.poolId}` : ''}  buy ${m(p.buyTax.number, '%')}  sell ${m(p.sellTax.number, '%')}  transfer ${m(p.transferTax.number, '%')}  ${hp}`)
    // Where the pool lives and what runs on its swaps (a V4 pool's hook and what it did, a curve's progress).
    if (p.venue) lines.push(`    ${c('dim', p.venue)}`)
  }
  for (const d of ex.availableDex) lines.push(`    ${d.name} ${d.pair}${d.poolId ? ` pool ${d.poolId}` : ''} liquidity ${m(d.liquidity, 'USD')}`)
  lines.push('')
  lines.push(c('bold', 'Holders'))
  lines.push(`  ${m(holders.holdersCount.number, 'holders')}; top 10 hold ${m(holders.percentDistributed.topTen.percent, '%')}`)
  for (const h of holders.keyHolders.slice(0, 5)) {
    lines.push(`    ${h.address} ${h.percent} %${h.isContract === '1' ? ' (contract)' : ''}${h.isLocked === '1' ? ' (locked)' : ''}`)
  }
  lines.push('')
  lines.push(c('bold', 'Liquidity'))
  lines.push(`  LP supply ${v(lp.totalLpSupply)}, locked or burned ${m(lp.liquidityLockedDetails.totalLiquidityPercentageLocked.number, '%')}`)
  for (const u of lp.liquidityLockedDetails.upcomingUnlockDetails) lines.push(`    unlock ${u.percent} % at ${u.time} (${u.tag})`)
  return lines
}

/**
 * `tokenrisk scan <address> --chain <id> [--chains file.json] [--json]`: one report, printed as a
 * readable summary or, with `--json`, exactly the API's body. Returns the exit code.
 */
export async function scanCommand(argv: string[], io: Io = processIo): Promise<number> {
  const { config, values, positionals } = parseCommand(COMMANDS.scan, argv, io.env)
  const address = positionals[0]
  if (!address || positionals.length > 1) throw new InputError(`usage: ${SCAN_USAGE}`)
  const chainArg = values.chain
  if (chainArg === 'solana') return scanSolana(address, config, io, { json: !!values.json, color: useColor(io, values['no-color']) })
  if (typeof chainArg !== 'string' || chainArg === '') throw new InputError(`--chain is required: a decimal EVM chain id (1 for Ethereum, 56 for BNB Chain, 31337 for the local world) or solana; usage: ${SCAN_USAGE}`)
  if (!/^\d+$/.test(chainArg)) throw new InputError(`--chain ${chainArg} is not a chain id: give the chain's decimal id (1 for Ethereum, 56 for BNB Chain, 31337 for the local world) or solana`)
  const chainId = Number(chainArg)
  // The local chain, when a running world left it under the data dir (and no RPC URL replaces it).
  const local = chainId === DEVNET_CHAIN_ID && !io.env.RPC_URL_31337 ? localChainEntries(config.dataDir) : []
  // A bad chains file is told before the store is opened (or created); so is a chain this
  // command cannot read, with what to set.
  const registry = loadChainRegistry({ env: io.env, chainsFile: config.chainsFile, chains: { source: 'the local world', entries: local } })
  const entry = registry.get(chainId)
  if (!entry) {
    throw new InputError(`chain ${chainId} is not known to tokenrisk: add it to a chains file (CHAINS_FILE or --chains, docs/chains.md) with its name, wrappedNative and rpcUrls`)
  }
  if (entry.rpcUrls.length === 0) {
    const world = chainId === DEVNET_CHAIN_ID ? ` (the local world: start the service with npm start; no service runs on the data directory ${config.dataDir})` : ''
    throw new InputError(`chain ${chainId} (${entry.name}) has no JSON-RPC URL here: set RPC_URL_${chainId}=<url> (or give rpcUrls in a chains file)${world}`)
  }
  noteSecondStore(config, io)
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: (o: object, m?: string) => io.err(`${m ?? 'error'} ${JSON.stringify(o)}`) }
  // The same engine as the service's, without its cache: a scan always reads the chain.
  const { service } = createEvmEngine({
    config: { ...config, reportCacheTtlSeconds: 0 },
    env: io.env,
    cache: createMemoryCache(),
    store,
    logger: quiet,
    chains: { source: 'the local world', entries: local },
    // A one-off scan reads what its deadline allows; the service finishes holder indexes.
    holderIndexing: false,
  })
  try {
    const { report, stats, ms } = await service.reportWithFacts(chainId, address, {})
    if (values.json) {
      io.out(JSON.stringify(report, null, 2))
    } else {
      for (const line of formatSummary(report, { color: useColor(io, values['no-color']) })) io.out(line)
      io.out('')
      io.out(`(${ms} ms, ${stats.roundTrips} sequential round trips, ${stats.rpcCalls} RPC calls)`)
    }
    return 0
  } finally {
    await service.close()
    await store.close()
  }
}

/**
 * `tokenrisk scan <mint> --chain solana`: the Solana report from SOLANA_RPC_URL, or from the local
 * Solana world while the service runs on it (the endpoint it leaves in <data-dir>/devnet/solana.json).
 */
async function scanSolana(address: string, config: Config, io: Io, options: { json: boolean; color: boolean }): Promise<number> {
  const local = config.solanaRpcUrls.length === 0 ? localSolanaEndpoint(config.dataDir) : undefined
  const rpcUrls = config.solanaRpcUrls.length > 0 ? config.solanaRpcUrls : local ? [local.rpcUrl] : []
  if (rpcUrls.length === 0) throw new InputError('--chain solana needs a Solana JSON-RPC: set SOLANA_RPC_URL (or run the service on its local worlds)')
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: (o: object, m?: string) => io.err(`${m ?? 'error'} ${JSON.stringify(o)}`) }
  const service = createSolanaEngine({
    config: { ...config, reportCacheTtlSeconds: 0 },
    env: io.env,
    cache: createMemoryCache(),
    logger: quiet,
    rpcUrls,
    pricing: local?.pricing,
  }) as SolanaReportService<SolanaReport>
  try {
    const started = performance.now()
    const report = await service.report(address, {})
    if (options.json) {
      io.out(JSON.stringify(report, null, 2))
    } else {
      for (const line of formatSolanaSummary(report, { color: options.color })) io.out(line)
      io.out('')
      io.out(`(${Math.round(performance.now() - started)} ms)`)
    }
    return 0
  } finally {
    await service.close()
  }
}
