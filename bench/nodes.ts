// `npm run bench:nodes`: the zoo reported through node kinds. Every zoo token is reported cold
// through the unrestricted local node (the baseline, measured in the same run), then through a
// JSON-RPC proxy emulating each kind of node people use (test/helpers/node-kinds.ts: no
// debug/ots, log caps by range and by result count, batch caps, 429s past a rate, pruned state, no
// state overrides, no eth_simulateV1). Per kind: answers by HTTP status, report fields identical /
// "" / different from the baseline (comments and fields that depend on the missing capability
// listed apart), flips to safe (a "1" that became "0", a honeypot pool that became sellable, a
// risk label that became better — target 0), the slowest answer, and the requests and request
// bytes per cold report by method (what a provider's bill counts).
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { riskRating } from '../src/contract/common.ts'
import type { RiskLabel } from '../src/contract/common.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import { BaseError } from '../src/errors.ts'
import { formatCapabilityTable } from '../src/engines/evm/chain/capabilities.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { TEST_DEVNET_DIR } from '../test/helpers/paths.ts'
import { startWorld } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { NODE_KINDS, startNodeKindProxy, type MethodCount, type NodeKind } from '../test/helpers/node-kinds.ts'

const DEADLINE_MS = 12_000
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
/** Fields whose text explains a value (they change with how it was measured, never a verdict). */
const EXPLANATION = /(comment|Reason|description|note)$/i

type Flat = Map<string, string>

/** The report as path → string value, array indexes as `[]` (stable across runs of one world). */
function flatten(report: TokenReport): Flat {
  const out: Flat = new Map()
  const walk = (v: unknown, path: string) => {
    if (v === null || v === undefined) return
    if (typeof v !== 'object') return void out.set(path, String(v))
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`))
    for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k)
  }
  walk(report, '')
  return out
}

const generic = (path: string) => path.replace(/\[\d+\]/g, '[]')

/** A value turned safer than the baseline measured: a risk that vanished, a label that improved. */
function flipsToSafe(base: Flat, got: Flat): string[] {
  const out: string[] = []
  for (const [path, b] of base) {
    const g = got.get(path)
    if (g === undefined || g === b) continue
    if (/\.status$/.test(path) && b === '1' && g === '0') out.push(`${path} 1 → 0`)
    if (/isPairHoneypot$/.test(path) && b === '1' && g === '0') out.push(`${path} 1 → 0`)
    if (/\.risk$/.test(path) && b !== '' && g !== '') {
      const rb = riskRating(b as RiskLabel)
      const rg = riskRating(g as RiskLabel)
      if (rb !== undefined && rg !== undefined && rg > rb) out.push(`${path} ${b} → ${g}`)
    }
  }
  return out
}

interface KindResult {
  kind: string
  statuses: Record<string, number>
  identical: number
  blank: number
  different: number
  differentFields: Map<string, number>
  blankFields: Map<string, number>
  explanationsChanged: number
  flips: string[]
  slowestMs: number
  slowestToken: string
  /** Answers other than 200: token and why. */
  failures: string[]
  reports: number
  methods: Record<string, MethodCount>
  rateLimited: number
  capabilities: string[]
}

async function main() {
  const world = await startWorld({ dataDir: TEST_DEVNET_DIR, log: (l) => process.stderr.write(`${l}\n`) })
  const only = process.env.TOKENS?.split(',')
  const tokens = world.manifest.tokens.filter((t) => !only || only.includes(t.key))
  // Kind names hold commas: KINDS lists them separated by "|".
  const kindsOnly = process.env.KINDS?.split('|')
  const kinds = NODE_KINDS.filter((k) => !kindsOnly || kindsOnly.includes(k.name))
  try {
    const run = async (url: string) => {
      const registry = loadChainRegistry({ chains: localChains({ ...world.manifest, rpcUrl: url }) })
      // A fresh holder store and no cache: every report is cold.
      const service = createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: DEADLINE_MS, cacheTtlMs: 0 } })
      const capabilities = formatCapabilityTable(await service.capabilities(31337))
      const answers = new Map<string, { status: number; report?: TokenReport; ms: number; error?: string }>()
      for (const t of tokens) {
        const started = performance.now()
        try {
          const { report } = await service.reportWithFacts(31337, t.address, {})
          answers.set(t.key, { status: 200, report, ms: performance.now() - started })
        } catch (error) {
          const status = error instanceof BaseError ? error.statusCode : 500
          answers.set(t.key, { status, ms: performance.now() - started, error: (error as Error).message })
        }
      }
      await service.close()
      return { answers, capabilities }
    }

    const baseline = await run(world.rpcUrl)
    const baseMs = [...baseline.answers.values()].map((a) => a.ms)
    console.log(`\nbench:nodes — ${tokens.length} zoo tokens, cold reports (deadline ${DEADLINE_MS} ms)`)
    console.log(`baseline (unrestricted local node): ${[...baseline.answers.values()].filter((a) => a.status === 200).length}/${tokens.length} answered 200, median ${median(baseMs).toFixed(0)} ms, slowest ${Math.max(...baseMs).toFixed(0)} ms`)

    const results: KindResult[] = []
    for (const kind of kinds) results.push(await measureKind(kind, world.rpcUrl, run, baseline.answers))
    for (const r of results) print(r)
    const flips = results.reduce((a, r) => a + r.flips.length, 0)
    console.log(`\nflips to safe over all kinds: ${flips} (target 0)`)
    process.exitCode = flips === 0 ? 0 : 1
  } finally {
    await world.stop()
  }
}

async function measureKind(
  kind: NodeKind,
  upstream: string,
  run: (url: string) => Promise<{ answers: Map<string, { status: number; report?: TokenReport; ms: number; error?: string }>; capabilities: string[] }>,
  base: Map<string, { status: number; report?: TokenReport; ms: number }>,
): Promise<KindResult> {
  const proxy = await startNodeKindProxy(upstream, kind)
  try {
    const { answers, capabilities } = await run(proxy.url)
    const result: KindResult = {
      kind: kind.name,
      statuses: {},
      identical: 0,
      blank: 0,
      different: 0,
      differentFields: new Map(),
      blankFields: new Map(),
      explanationsChanged: 0,
      flips: [],
      slowestMs: 0,
      slowestToken: '',
      failures: [],
      reports: answers.size,
      methods: proxy.counts(),
      rateLimited: proxy.rateLimited,
      capabilities,
    }
    for (const [key, a] of answers) {
      result.statuses[a.status] = (result.statuses[a.status] ?? 0) + 1
      if (a.status !== 200) result.failures.push(`${key}: ${a.status} ${a.error ?? ''}`.trim())
      if (a.ms > result.slowestMs) {
        result.slowestMs = a.ms
        result.slowestToken = key
      }
      const b = base.get(key)?.report
      if (!a.report || !b) continue
      const fb = flatten(b)
      const fg = flatten(a.report)
      result.flips.push(...flipsToSafe(fb, fg).map((f) => `${key}: ${f}`))
      for (const [path, v] of fb) {
        const g = fg.get(path) ?? ''
        if (g === v) result.identical++
        else if (EXPLANATION.test(path)) result.explanationsChanged++
        else if (g === '') {
          result.blank++
          result.blankFields.set(generic(path), (result.blankFields.get(generic(path)) ?? 0) + 1)
        } else {
          result.different++
          result.differentFields.set(generic(path), (result.differentFields.get(generic(path)) ?? 0) + 1)
        }
      }
    }
    return result
  } finally {
    await proxy.close()
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]
}

const top = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ×${v}`)

function print(r: KindResult) {
  const kind = NODE_KINDS.find((k) => k.name === r.kind)!
  console.log(`\n== ${r.kind}: ${kind.description}`)
  for (const line of r.capabilities) console.log(`   ${line}`)
  console.log(`   answers by status: ${Object.entries(r.statuses).map(([s, n]) => `${s} ×${n}`).join(', ')}`)
  for (const f of r.failures) console.log(`     not 200: ${f}`)
  console.log(`   fields vs unrestricted: identical ${r.identical}, "" ${r.blank}, different ${r.different} (explanations changed: ${r.explanationsChanged})`)
  if (r.blankFields.size > 0) console.log(`   "" fields: ${top(r.blankFields, 12).join('; ')}`)
  if (r.differentFields.size > 0) console.log(`   different fields: ${top(r.differentFields, 12).join('; ')}`)
  console.log(`   flips to safe: ${r.flips.length} (target 0)${r.flips.length > 0 ? `: ${r.flips.slice(0, 8).join('; ')}` : ''}`)
  console.log(`   slowest answer: ${r.slowestMs.toFixed(0)} ms (${r.slowestToken}); HTTP 429 answered by the proxy: ${r.rateLimited}`)
  const methods = Object.entries(r.methods).sort((a, b) => b[1].calls - a[1].calls)
  const calls = methods.reduce((a, [, m]) => a + m.calls, 0)
  const bytes = methods.reduce((a, [, m]) => a + m.bytes, 0)
  console.log(`   per cold report: ${(calls / r.reports).toFixed(1)} requests, ${(bytes / r.reports / 1024).toFixed(1)} KiB sent; by method:`)
  for (const [method, m] of methods) console.log(`     ${method.padEnd(26)} ${(m.calls / r.reports).toFixed(1).padStart(7)} calls ${(m.bytes / r.reports / 1024).toFixed(1).padStart(8)} KiB`)
}

await main()
