import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, sep } from 'node:path'
import { PACKAGE_ROOT } from './paths.ts'

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

export interface CompileResult {
  compiled: boolean
  contracts: number
  ms: number
}

/** The compiler settings every build uses: part of each build's stamp. */
export const COMPILER_SETTINGS = { optimizer: { enabled: true, runs: OPTIMIZER_RUNS }, evmVersion: EVM_VERSION } as const
/** EVM versions a world can be built for: Cancun (the default), or an older chain's (anvil `--hardfork`). */
export type WorldEvmVersion = 'cancun' | 'shanghai' | 'london'

/** The Solidity of one project: `<root>/contracts/**.sol`, compiled into `<root>/artifacts/`. */
export interface SolidityProject {
  root: string
  /** Our Solidity sources. */
  contractsDir: string
  /** Generated compiler output, one JSON file per contract. Never hand-edited, never committed. */
  artifactsDir: string
  /** Whether the artifacts on disk were built from the current sources. */
  artifactsAreFresh(): boolean
  /** Compiles every source into the artifacts, unless they already match the sources. */
  compileContracts(options?: { force?: boolean }): CompileResult
  /** Reads one compiled contract, compiling first when the artifacts are missing or stale. */
  loadArtifact(contractName: string): Artifact
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

/** The compiler's version from its package: loading the compiler itself takes about a second. */
export function solcVersion(): string {
  return (require('solc/package.json') as { version: string }).version
}

/**
 * A fingerprint of Solidity `sources` (paths relative to `root`) and the compiler that builds
 * them: equal fingerprints, equal bytecode.
 */
export function sourcesStamp(root: string, sources: readonly string[], evmVersion: string = EVM_VERSION): string {
  const hash = createHash('sha256')
  hash.update(`${solcVersion()}|${OPTIMIZER_RUNS}|${evmVersion}\n`)
  for (const path of sources) hash.update(`${sourceKey(root, path)}\n`).update(readFileSync(path))
  return hash.digest('hex')
}

function sourceKey(root: string, path: string): string {
  return relative(root, path).split(sep).join('/')
}

/**
 * The Solidity project under `root`, compiled with solc-js. `sourceName` of every artifact is
 * its path relative to `root` (`contracts/zoo/ZooTax.sol`).
 *
 * @example
 * const project = solidityProject('/repo')
 * project.compileContracts() // { compiled: true, contracts: 42, ms: 9000 }
 * project.loadArtifact('TokenProbe').deployedBytecode
 */
export function solidityProject(root: string, evmVersion: WorldEvmVersion = EVM_VERSION): SolidityProject {
  const contractsDir = join(root, 'contracts')
  // Builds for an older EVM live beside the default one.
  const artifactsDir = join(root, evmVersion === EVM_VERSION ? 'artifacts' : `artifacts-${evmVersion}`)

  /** Resolves an import the way solc asks for it: project-relative or from node_modules. */
  function readImport(path: string): { contents: string } | { error: string } {
    const local = join(root, path)
    if (existsSync(local)) return { contents: readFileSync(local, 'utf8') }
    try {
      return { contents: readFileSync(require.resolve(path, { paths: [root] }), 'utf8') }
    } catch {
      return { error: `import not found: ${path}` }
    }
  }

  function artifactsAreFresh(): boolean {
    const stamp = join(artifactsDir, STAMP_FILE)
    return existsSync(stamp) && readFileSync(stamp, 'utf8') === sourcesStamp(root, listSources(contractsDir), evmVersion)
  }

  function compileContracts(options: { force?: boolean } = {}): CompileResult {
    const started = Date.now()
    const sources = listSources(contractsDir)
    const stamp = sourcesStamp(root, sources, evmVersion)
    const stampPath = join(artifactsDir, STAMP_FILE)
    if (!options.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) {
      return { compiled: false, contracts: 0, ms: Date.now() - started }
    }
    const solc = require('solc') as { compile(input: string, callbacks: object): string }
    const input = {
      language: 'Solidity',
      sources: Object.fromEntries(sources.map((p) => [sourceKey(root, p), { content: readFileSync(p, 'utf8') }])),
      settings: {
        ...COMPILER_SETTINGS,
        evmVersion,
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
    const tmp = `${artifactsDir}.tmp-${process.pid}`
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
    const old = `${artifactsDir}.old-${process.pid}`
    if (existsSync(artifactsDir)) renameSync(artifactsDir, old)
    renameSync(tmp, artifactsDir)
    if (existsSync(old)) rmSync(old, { recursive: true, force: true })
    return { compiled: true, contracts: count, ms: Date.now() - started }
  }

  const cache = new Map<string, Artifact>()

  function loadArtifact(contractName: string): Artifact {
    const hit = cache.get(contractName)
    if (hit) return hit
    const path = join(artifactsDir, `${contractName}.json`)
    if (!existsSync(path) || !artifactsAreFresh()) compileContracts()
    if (!existsSync(path)) throw new Error(`no compiled contract named ${contractName} under ${contractsDir}`)
    const artifact = JSON.parse(readFileSync(path, 'utf8')) as Artifact
    cache.set(contractName, artifact)
    return artifact
  }

  return { root, contractsDir, artifactsDir, artifactsAreFresh, compileContracts, loadArtifact }
}

/** The local world's own contracts: `packages/devworld/contracts/` (zoo and world). */
export const WORLD_CONTRACTS = solidityProject(PACKAGE_ROOT)
/** Where the world's compiled contracts live. */
export const ARTIFACTS_DIR = WORLD_CONTRACTS.artifactsDir

/** The world's contracts for the EVM the world is built on (`useWorldEvm`); Cancun by default. */
let worldContracts: SolidityProject = WORLD_CONTRACTS
const worldBuilds = new Map<WorldEvmVersion, SolidityProject>([[EVM_VERSION, WORLD_CONTRACTS]])

/**
 * Builds the world's contracts for `evmVersion` from now on (a world on an older hardfork: no
 * PUSH0 before Shanghai). One process builds one kind of world at a time.
 */
export function useWorldEvm(evmVersion: WorldEvmVersion): void {
  let project = worldBuilds.get(evmVersion)
  if (!project) worldBuilds.set(evmVersion, (project = solidityProject(PACKAGE_ROOT, evmVersion)))
  worldContracts = project
}

/** The EVM the world's contracts are now built for. */
export const worldEvmVersion = (): WorldEvmVersion => [...worldBuilds].find(([, project]) => project === worldContracts)?.[0] ?? EVM_VERSION
/** The artifacts directory of the world's contracts as now built. */
export const worldArtifactsDir = (): string => worldContracts.artifactsDir
/** Compiles the world's contracts when they changed. */
export const compileContracts = (options?: { force?: boolean }): CompileResult => worldContracts.compileContracts(options)
/** One of the world's compiled contracts. */
export const loadArtifact = (contractName: string): Artifact => worldContracts.loadArtifact(contractName)
