import { readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { publicBaseUrl } from '../config/settings.ts'
import { DETECTORS } from '../audit/detectors/registry.ts'
import { countAtOrAbove, toSarif } from '../audit/report/sarif.ts'
import { InputError } from '../errors.ts'
import { AUDIT_LIMITS, type Severity } from '../contract/audit-history.ts'
import {
  createInProcessAuditQueue,
  createRedisAuditQueue,
  DEFAULT_AUDIT_TIMEOUT_MS,
  startRedisAuditWorker,
  type AuditJob,
  type AuditQueue,
} from '../queue/audit-queue.ts'
import { createAuditJobRunner } from '../queue/run-audit.ts'
import { createDatabase } from '../store/database.ts'
import { createAuditRepository } from '../store/repositories/audits.ts'
import { createHolderRepository } from '../store/repositories/holders.ts'
import { loadChainRegistry } from '../config/chains.ts'
import { startHolderIndexWorker } from '../engines/evm/holder-indexer.ts'
import { localChainEntries } from './local-worlds.ts'
import { optional, parseCommand, required } from './args.ts'
import { linkBase, noteSecondStore } from './data-dir.ts'
import { COMMANDS } from './commands.ts'
import type { Io } from './io.ts'

const SEVERITY_ORDER: Severity[] = ['high', 'medium', 'low', 'informational', 'optimization']
/** What `tokenrisk audit` prints. */
const OUTPUT_FORMATS = ['text', 'json', 'sarif'] as const
/** Severities `--fail-on` takes. */
const GATE_SEVERITIES: readonly Severity[] = ['high', 'medium', 'low']
/** The exit code of an audit that `--fail-on` fails (0 ok, 1 failed, 2 bad input: main.ts). */
export const AUDIT_GATE_EXIT_CODE = 3

/**
 * `tokenrisk audit`: analyses a Solidity project (or imports Slither's output) and records the
 * audit, as a job of the configured queue: in this process by default; on Redis (BullMQ) when
 * REDIS_URL is set, where a `tokenrisk worker` runs it while this command waits for the result.
 * `--local` runs the job in this process whatever the configuration.
 */
export async function auditCommand(argv: string[], io: Io): Promise<number> {
  const { config, values, positionals } = parseCommand(COMMANDS.audit, argv, io.env)
  const slitherFile = optional(values, 'import-slither')
  const path = slitherFile ? optional(values, 'root') : positionals[0]
  if (!slitherFile && !path) throw new InputError(`usage:\n  ${COMMANDS.audit.usage.join('\n  ')}`)
  const job: AuditJob = {
    projectId: required(values, 'project'),
    userId: required(values, 'user'),
    projectName: optional(values, 'name'),
    path,
    slitherFile,
    remappings: Array.isArray(values.remap) ? values.remap : undefined,
    includePaths: Array.isArray(values['include-path']) ? values['include-path'].map((folder) => resolve(folder)) : undefined,
  }
  const format = optional(values, 'format') ?? (values.json ? 'json' : 'text')
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) throw new InputError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}`)
  if (values.json && format !== 'json') throw new InputError('--json is --format json: give one of them')
  const failOnRaw = optional(values, 'fail-on')
  if (failOnRaw !== undefined && !(GATE_SEVERITIES as readonly string[]).includes(failOnRaw)) throw new InputError(`--fail-on must be one of ${GATE_SEVERITIES.join(', ')}`)
  const failOn = failOnRaw as Severity | undefined
  const timeoutRaw = optional(values, 'timeout-ms')
  const timeoutMs = timeoutRaw === undefined ? DEFAULT_AUDIT_TIMEOUT_MS : Number(timeoutRaw)
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new InputError('--timeout-ms must be a positive integer')

  noteSecondStore(config, io)
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  let queue: AuditQueue | undefined
  try {
    const audits = createAuditRepository(store, { reportLink: (id) => `${linkBase(config)}/reports/${id}` })
    const run = createAuditJobRunner({ audits })
    queue = config.redisUrl && !values.local ? createRedisAuditQueue(config.redisUrl) : createInProcessAuditQueue(run)
    const result = await queue.submit(job, { timeoutMs })
    if (format === 'json') {
      io.out(JSON.stringify(result.audit, null, 2))
    } else if (format === 'sarif') {
      const root = path ? resolve(path) : undefined
      const log = toSarif({
        vulnerabilities: result.audit.vulnerabilities,
        detectors: DETECTORS,
        version: productVersion(),
        rootUri: root && (await isDirectory(root)) ? `${pathToFileURL(root).href}/` : undefined,
        skipped: result.skipped,
        unlisted: result.unlisted,
        problems: result.problems,
      })
      io.out(JSON.stringify(log, null, 2))
    } else {
      const { audit } = result
      const counts = SEVERITY_ORDER.map((s) => `${s} ${audit.vulnerabilityCount[s]}`).join(', ')
      io.out(`audit of ${job.projectId} recorded: security score ${audit.securityScore}; ${audit.totalLines} lines; ${counts}`)
      for (const v of [...audit.vulnerabilities].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity))) {
        io.out(`  [${v.severity}/${v.confidence}] ${v.name}${v.detector ? ` (${v.detector})` : ''} — ${v.file}:${v.lineNumbers[0]}-${v.lineNumbers[1]}`)
      }
      const unlisted = result.unlisted ?? []
      const notListed = unlisted.reduce((sum, u) => sum + u.count, 0)
      if (notListed > 0) {
        io.out(`  … and ${notListed} more findings counted above but not listed (past the audit's size bound of ${AUDIT_LIMITS.vulnerabilities} findings and ${AUDIT_LIMITS.auditBytes} bytes):`)
        for (const u of unlisted) io.out(`    ${u.count} × [${u.severity ?? '?'}] ${u.detector ?? u.name} — ${u.file}${u.lines ? `:${u.lines[0]}-${u.lines[1]}` : ''}`)
      }
      const skipped = result.skipped ?? []
      if (skipped.length > 0) io.out(`not analysed (${skipped.length} file${skipped.length === 1 ? '' : 's'}; the score covers the other files only): ${skipped.map((s) => s.file).join(', ')}`)
      io.out(`report: ${audit.projectReportLink}`)
    }
    for (const p of result.problems) io.err(`warning: ${p.file}: ${p.message}`)
    if (failOn) {
      const failing = countAtOrAbove(result.audit, failOn)
      if (failing > 0) {
        io.err(`--fail-on ${failOn}: ${failing} finding${failing === 1 ? '' : 's'} of severity ${failOn} or higher`)
        return AUDIT_GATE_EXIT_CODE
      }
    }
    return 0
  } finally {
    await queue?.close()
    await store.close()
  }
}

/** `tokenrisk worker`: runs queued audits from Redis until SIGTERM/SIGINT. */
export async function workerCommand(argv: string[], io: Io): Promise<number> {
  const { config, values } = parseCommand(COMMANDS.worker, argv, io.env)
  if (!config.redisUrl) throw new InputError('tokenrisk worker needs REDIS_URL: without Redis, audits run in the process that submits them')
  const concurrency = Number(optional(values, 'concurrency') ?? 1)
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InputError('--concurrency must be a positive integer')
  const store = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const audits = createAuditRepository(store, { reportLink: (id) => `${publicBaseUrl(config)}/reports/${id}` })
  const worker = startRedisAuditWorker(config.redisUrl, createAuditJobRunner({ audits }), {
    concurrency,
    onEvent: (event, detail) => io.err(JSON.stringify({ event, ...detail })),
  })
  // Holder indexes reports left unfinished, from the same Redis.
  const registry = loadChainRegistry({ env: io.env, chainsFile: config.chainsFile, chains: { source: 'the local world', entries: localChainEntries(config.dataDir) } })
  const holders = await startHolderIndexWorker(config.redisUrl, {
    registry,
    store: createHolderRepository(store),
    logger: {
      info: (obj, msg) => io.err(JSON.stringify({ event: msg, ...obj })),
      warn: (obj, msg) => io.err(JSON.stringify({ event: msg, ...obj })),
      error: (obj, msg) => io.err(JSON.stringify({ event: msg, ...obj })),
    },
  })
  io.err(`tokenrisk worker: running queued audits (concurrency ${concurrency}) and holder indexing`)
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve())
    process.once('SIGINT', () => resolve())
  })
  await holders.close()
  await worker.close()
  await store.close()
  return 0
}

let version: string | undefined
/** tokenrisk's version, from its package.json (read once). */
function productVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
  return version
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory()
  } catch {
    return false
  }
}
