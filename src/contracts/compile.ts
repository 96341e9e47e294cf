import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Root of the repository (two levels above this file). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** Our Solidity sources: the probe and the local world's token zoo. */
export const CONTRACTS_DIR = join(PROJECT_ROOT, 'contracts')
/** Generated compiler output, one JSON file per contract. Never hand-edited, never committed. */
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'artifacts')

const OPTIMIZER_RUNS = 200
const EVM_VERSION = 'cancun'
const STAMP_FILE = '.build-stamp'

export interface Artifact {
  contractName: string
  sourceName: string
  abi: readonly unknown[]
  /** Creation bytecode, 0x-prefixed. */
  bytecode: `0x${string}`
  /** Runtime bytecode, 0x-prefixed. */
  deployedBytecode: `0x${string}`
}

const require = createRequire(import.meta.url)

function listSources(dir: string): string[] {
  if (!existsSync(dir)) return []
  const out: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) out.push(...listSources(path))
    else if (entry.endsWith('.sol')) out.push(path)
  }
  return out.sort()
}

function sourceKey(path: string): string {
  return relative(PROJECT_ROOT, path).split(sep).join('/')
}

/** Resolves an import the way solc asks for it: project-relative or from node_modules. */
function readImport(path: string): { contents: string } | { error: string } {
  const local = join(PROJECT_ROOT, path)
  if (existsSync(local)) return { contents: readFileSync(local, 'utf8') }
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') }
  } catch {
    return { error: `import not found: ${path}` }
  }
}

/** The compiler's version from its package: loading the compiler itself takes about a second. */
function solcVersion(): string {
  return (require('solc/package.json') as { version: string }).version
}

function stampOf(sources: string[]): string {
  const hash = createHash('sha256')
  hash.update(`${solcVersion()}|${OPTIMIZER_RUNS}|${EVM_VERSION}\n`)
  for (const path of sources) hash.update(`${sourceKey(path)}\n`).update(readFileSync(path))
  return hash.digest('hex')
}

/** Whether the artifacts on disk were built from the current sources. */
export function artifactsAreFresh(): boolean {
  const stamp = join(ARTIFACTS_DIR, STAMP_FILE)
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === stampOf(listSources(CONTRACTS_DIR))
}

export interface CompileResult {
  compiled: boolean
  contracts: number
  ms: number
}

/**
 * Compiles every `.sol` file under `contracts/` with solc-js into `artifacts/<Name>.json`,
 * unless the artifacts already match the sources.
 *
 * @example
 * await compileContracts() // { compiled: true, contracts: 42, ms: 9000 }
 */
export function compileContracts(options: { force?: boolean } = {}): CompileResult {
  const started = Date.now()
  const sources = listSources(CONTRACTS_DIR)
  const stamp = stampOf(sources)
  const stampPath = join(ARTIFACTS_DIR, STAMP_FILE)
  if (!options.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) {
    return { compiled: false, contracts: 0, ms: Date.now() - started }
  }
  const solc = require('solc') as { compile(input: string, callbacks: object): string }
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(sources.map((p) => [sourceKey(p), { content: readFileSync(p, 'utf8') }])),
    settings: {
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      evmVersion: EVM_VERSION,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  }
  const tmp = `${ARTIFACTS_DIR}.tmp-${process.pid}`
  mkdirSync(tmp, { recursive: true })
  let count = 0
  const seen = new Map<string, string>()
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    if (!sourceName.startsWith('contracts/')) continue
    for (const [contractName, c] of Object.entries(contracts)) {
      const previous = seen.get(contractName)
      if (previous) throw new Error(`contract name ${contractName} is defined twice (${previous}, ${sourceName})`)
      seen.set(contractName, sourceName)
      const artifact: Artifact = {
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      }
      writeFileSync(join(tmp, `${contractName}.json`), JSON.stringify(artifact))
      count++
    }
  }
  writeFileSync(join(tmp, STAMP_FILE), stamp)
  // Swap the whole directory so that a reader never sees half of a build.
  const old = `${ARTIFACTS_DIR}.old-${process.pid}`
  if (existsSync(ARTIFACTS_DIR)) renameSync(ARTIFACTS_DIR, old)
  renameSync(tmp, ARTIFACTS_DIR)
  if (existsSync(old)) rmSync(old, { recursive: true, force: true })
  return { compiled: true, contracts: count, ms: Date.now() - started }
}

const cache = new Map<string, Artifact>()

/**
 * Reads one compiled contract, compiling first when the artifacts are missing or stale.
 *
 * @example
 * const probe = loadArtifact('TokenProbe')
 */
export function loadArtifact(contractName: string): Artifact {
  const hit = cache.get(contractName)
  if (hit) return hit
  const path = join(ARTIFACTS_DIR, `${contractName}.json`)
  if (!existsSync(path) || !artifactsAreFresh()) compileContracts()
  if (!existsSync(path)) throw new Error(`no compiled contract named ${contractName} under contracts/`)
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as Artifact
  cache.set(contractName, artifact)
  return artifact
}
