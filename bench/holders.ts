// `npm run bench:holders`: the holder index at real-chain scale on a local chain of its own. The
// bench deploys SprayToken (bench/contracts, not part of the zoo), has it emit 1,000,000 Transfer
// events (20,000 holders, as many events a transaction as 30 M gas allow, blocks of 30 M gas), then asks
// for a report: the report reads what it may and leaves the index to the background indexer,
// which is timed until it reaches the head. The node is taken to answer one block of logs per
// request (about ten thousand logs, as providers' result limits allow). Printed: logs/s, time to
// a complete index, peak memory, and the report's holders once it is complete.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, type Abi, type Address, type Hex } from 'viem'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { PROJECT_ROOT } from '../scripts/build-contracts.ts'
import { startAnvil } from '@tokenrisk/devworld/anvil'
import { createInProcessHolderIndexer, type WaveEvent } from '../src/engines/evm/holder-indexer.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createDatabase } from '../src/store/database.ts'
import { createHolderRepository } from '../src/store/repositories/holders.ts'

/** Transfer events the bench token emits. */
const TRANSFERS = 1_000_000
/** Distinct holders (SprayToken.HOLDERS). */
const HOLDERS = 20_000
/** Mint events per transaction (within a 30 M gas block); churn fills each transaction's gas. */
const MINTS_PER_TX = 1_000
const BLOCK_GAS = 30_000_000
const TX_GAS = 29_500_000
/** Blocks of logs the node answers per eth_getLogs (its result limit, about 10 000 logs). */
const NODE_LOG_RANGE = 1
const REPORT_DEADLINE_MS = 15_000
const TARGETS = { logsPerSecond: 20_000, completeSeconds: 120, peakRssMb: 600 }

interface Receipt {
  status: Hex
  contractAddress: Address | null
  gasUsed: Hex
  logs: unknown[]
}

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1))

function compileSpray(): { abi: Abi; bytecode: Hex } {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
  const source = readFileSync(join(PROJECT_ROOT, 'bench', 'contracts', 'SprayToken.sol'), 'utf8')
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'SprayToken.sol': { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { SprayToken: ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as { errors?: { severity: string; formattedMessage: string }[]; contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const c = output.contracts['SprayToken.sol'].SprayToken
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
}

/** Deploys the token on `rpcUrl` and has it emit its history (run in a child process, so that the indexing process starts clean). */
async function buildHistory(rpcUrl: string): Promise<{ token: Address; head: string; seconds: number }> {
  let id = 1
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }) })
    const body = (await res.json()) as { result?: T; error?: { message: string } }
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result as T
  }
  const [from] = await rpc<Address[]>('eth_accounts')
  // Hundreds of full blocks of gas: more ether than a dev account holds.
  await rpc('anvil_setBalance', [from, `0x${(10n ** 30n).toString(16)}`])
  const send = async (data: Hex, to?: Address) => {
    const hash = await rpc<Hex>('eth_sendTransaction', [{ from, to, data, gas: `0x${TX_GAS.toString(16)}` }])
    let receipt: Receipt | null = null
    while (!receipt) {
      receipt = await rpc<Receipt | null>('eth_getTransactionReceipt', [hash])
      if (!receipt) await new Promise((r) => setTimeout(r, 5))
    }
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed (gas used ${BigInt(receipt.gasUsed)})`)
    return receipt
  }

  // The token and its history.
  const built = performance.now()
  const spray = compileSpray()
  const token = (await send(spray.bytecode)).contractAddress as Address
  let emitted = 0
  for (let start = 0; start < HOLDERS; start += MINTS_PER_TX) {
    emitted += (await send(encodeFunctionData({ abi: spray.abi, functionName: 'mint', args: [BigInt(start), BigInt(MINTS_PER_TX), 10n ** 18n] }), token)).logs.length
  }
  // As many events a transaction as its gas allows.
  const probe = encodeFunctionData({ abi: spray.abi, functionName: 'churn', args: [0n, 1_000n] })
  const perEvent = Number(BigInt(await rpc<Hex>('eth_estimateGas', [{ from, to: token, data: probe }]))) / 1_000
  const perTx = Math.floor((TX_GAS * 0.9) / perEvent)
  for (let window = 0; emitted < TRANSFERS; window++) {
    const count = Math.min(perTx, TRANSFERS - emitted)
    emitted += (await send(encodeFunctionData({ abi: spray.abi, functionName: 'churn', args: [BigInt((window * 256) % HOLDERS), BigInt(count)] }), token)).logs.length
  }
  return { token, head: String(BigInt(await rpc<Hex>('eth_blockNumber'))), seconds: (performance.now() - built) / 1000 }

}

if (process.argv[2] === '--build') {
  process.stdout.write(JSON.stringify(await buildHistory(process.argv[3])))
  process.exit(0)
}

const anvil = await startAnvil({ args: ['--gas-limit', String(BLOCK_GAS)] })
const dataDir = mkdtempSync(join(tmpdir(), 'tokenrisk-bench-holders-'))
try {
  const history = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--build', anvil.rpcUrl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  if (history.status !== 0) throw new Error('building the token history failed')
  const { token, head, seconds: buildSeconds } = JSON.parse(history.stdout) as { token: Address; head: string; seconds: number }

  // The service on this chain, its holder index in an embedded store, indexed in the background.
  const registry = loadChainRegistry({ env: { RPC_URL_31337: anvil.rpcUrl } })
  registry.get(31337)!.maxLogRange = NODE_LOG_RANGE
  const store = await createDatabase({ dataDir })
  const holderStore = createHolderRepository(store)
  const waves: (WaveEvent & { at: number })[] = []
  const indexer = createInProcessHolderIndexer({ registry, store: holderStore, logger: silent, onWave: (w) => waves.push({ ...w, at: performance.now() }) })
  const service = createEvmReportService({ registry, cache: createMemoryCache(), store, holderIndexer: indexer, logger: silent, options: { deadlineMs: REPORT_DEADLINE_MS, cacheTtlMs: 0 } })

  const rssBefore = process.memoryUsage().rss
  let peakRss = rssBefore
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
  const started = performance.now()
  const first = await service.reportWithFacts(31337, token, {})
  const firstMs = performance.now() - started
  const afterFirst = await holderStore.state(31337, token)
  await indexer.idle()
  const completeMs = performance.now() - started
  clearInterval(sampler)
  const done = await service.reportWithFacts(31337, token, {})
  const backgroundLogs = waves.filter((w) => w.token.toLowerCase() === token.toLowerCase()).reduce((sum, w) => sum + w.logs, 0)
  const backgroundMs = waves.length > 0 ? waves[waves.length - 1].at - started - firstMs : 0
  const logsPerSecond = TRANSFERS / (completeMs / 1000)
  const served = done.report.marketChecks.holdersChecks
  await service.close()
  await store.close()

  // Figures depend on what else the machine runs: its load is printed beside them.
  const load = loadavg().map((l) => l.toFixed(1)).join(' ')
  const lines = [
    `holder index of a token with ${fmt(TRANSFERS)} Transfer events (${fmt(HOLDERS)} holders, ${head} blocks; built in ${buildSeconds.toFixed(1)} s), node answering ${NODE_LOG_RANGE} block of logs per eth_getLogs`,
    `first report                     ${fmt(firstMs)} ms: holdersCount "${first.report.marketChecks.holdersChecks.holdersCount.number}" — ${first.facts.holders.note}`,
    `  indexed by the report           up to block ${afterFirst?.lastBlock ?? 'none'}`,
    `background indexing              ${fmt(waves.length)} waves, ${fmt(backgroundLogs)} logs of the token in ${fmt(backgroundMs / 1000)} s`,
    `time to a complete index         ${fmt(completeMs / 1000)} s from the first request (${fmt(logsPerSecond)} logs/s overall)`,
    `peak memory (RSS) while indexing ${fmt(peakRss / 1024 / 1024)} MB (${fmt(rssBefore / 1024 / 1024)} MB before the first report)`,
    `report once complete             holdersCount "${served.holdersCount.number}" (expected ${HOLDERS}); top holder ${served.keyHolders[0]?.address ?? '—'} ${served.keyHolders[0]?.percent ?? ''} %`,
    '',
    `targets: ≥ ${fmt(TARGETS.logsPerSecond)} logs/s ${logsPerSecond >= TARGETS.logsPerSecond ? 'MET' : 'MISSED'}; ` +
      `complete within ${TARGETS.completeSeconds} s ${completeMs / 1000 <= TARGETS.completeSeconds ? 'MET' : 'MISSED'}; ` +
      `peak RSS < ${TARGETS.peakRssMb} MB ${peakRss / 1024 / 1024 < TARGETS.peakRssMb ? 'MET' : 'MISSED'}; ` +
      `first report honest ("" with a reason) ${first.report.marketChecks.holdersChecks.holdersCount.number === '' ? 'MET' : 'MISSED'}; ` +
      `holders served once complete ${served.holdersCount.number === String(HOLDERS) ? 'MET' : 'MISSED'}`,
  ]
  lines.push(`machine: ${cpus().length} cores, load average ${load} (1, 5, 15 min) at the end of the run`)
  console.log(lines.join('\n'))
} finally {
  await anvil.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
