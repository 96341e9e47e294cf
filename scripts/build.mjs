#!/usr/bin/env node
// `npm run build` (also run by `npm install`, `npm start` and the tests): compiles the TypeScript
// of tokenrisk (src/ → dist/) and of the local worlds (packages/devworld/src/ → its dist/), and
// copies the JSON files the code reads beside it (shipped chains, the probe's artifact). Plain
// JavaScript, so that it runs before anything is built, with the TypeScript compiler only.
//
// A build is skipped while its stamp — the paths, sizes and modification times of its inputs —
// is unchanged; `--force` builds anyway. `--check` builds nothing and exits 1 when a build is
// stale. Types are not checked here (`npm run typecheck` does): the build only transpiles.
// `--contracts` (npm install) also compiles the Solidity when the development tools are there
// (npm run build:contracts); a production install has no compiler and needs none.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url))
const STAMP_FILE = '.build-stamp'

/** The two builds: the product, and the local worlds when their package is in the tree. */
export const BUILDS = [
  { name: 'tokenrisk', root: PROJECT_ROOT },
  { name: '@tokenrisk/devworld', root: join(PROJECT_ROOT, 'packages', 'devworld') },
].filter((b) => existsSync(join(b.root, 'tsconfig.build.json')))

function listFiles(dir, accept) {
  if (!existsSync(dir)) return []
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listFiles(path, accept))
    else if (accept(entry.name)) out.push(path)
  }
  return out.sort()
}

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')
const isAsset = (name) => name.endsWith('.json')

/** What a build reads: its sources and assets, its build configuration, and the compiler's version. */
function inputsOf(build) {
  const src = join(build.root, 'src')
  const configs = [join(build.root, 'tsconfig.build.json'), join(PROJECT_ROOT, 'tsconfig.json'), join(build.root, 'package.json')]
  return { sources: listFiles(src, isSource), assets: listFiles(src, isAsset), configs }
}

function stampOf(build, inputs, compilerVersion) {
  const hash = createHash('sha256').update(`typescript ${compilerVersion}\n`)
  for (const path of [...inputs.configs, ...inputs.sources, ...inputs.assets]) {
    const s = statSync(path)
    hash.update(`${relative(build.root, path)} ${s.size} ${s.mtimeMs}\n`)
  }
  return hash.digest('hex')
}

function compilerVersion() {
  const require = createRequire(join(PROJECT_ROOT, 'package.json'))
  return JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version
}

/** The builds whose output is missing or older than their inputs. */
export function staleBuilds() {
  const version = compilerVersion()
  return BUILDS.filter((build) => {
    const stamp = join(build.root, 'dist', STAMP_FILE)
    return !existsSync(stamp) || readFileSync(stamp, 'utf8') !== stampOf(build, inputsOf(build), version)
  })
}

async function compile(ts, build) {
  const configPath = join(build.root, 'tsconfig.build.json')
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } })
  const outDir = config.options.outDir
  rmSync(outDir, { recursive: true, force: true })
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
  const result = program.emit()
  const problems = [...config.errors, ...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...result.diagnostics]
  if (problems.length > 0 || result.emitSkipped) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => build.root, getNewLine: () => '\n' }
    throw new Error(`${build.name} did not build:\n${ts.formatDiagnostics(problems, host)}`)
  }
  const src = join(build.root, 'src')
  const inputs = inputsOf(build)
  for (const asset of inputs.assets) {
    const target = join(outDir, relative(src, asset))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(asset, target)
  }
  writeFileSync(join(outDir, STAMP_FILE), stampOf(build, inputs, ts.version))
  return config.fileNames.length
}

/**
 * Builds what is stale (everything with `force`) and says so on `log`; returns the names built.
 *
 * @param {{ force?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<string[]>}
 * @example
 * await buildAll() // ['tokenrisk'] after src/ changed
 */
export async function buildAll({ force = false, log = () => {} } = {}) {
  const todo = force ? BUILDS : staleBuilds()
  if (todo.length === 0) return []
  const require = createRequire(join(PROJECT_ROOT, 'package.json'))
  const ts = require('typescript')
  for (const build of todo) {
    const started = Date.now()
    const files = await compile(ts, build)
    log(`built ${build.name}: ${files} files in ${Date.now() - started} ms`)
  }
  return todo.map((b) => b.name)
}

/** Whether a package resolves from the repository (a development install has them all). */
function installed(name) {
  try {
    createRequire(join(PROJECT_ROOT, 'package.json')).resolve(`${name}/package.json`)
    return true
  } catch {
    return false
  }
}

/** Compiles the Solidity with the development tools (tsx, solc); skipped without them. */
function buildContracts(log) {
  if (!installed('tsx') || !installed('solc')) {
    log('contracts: no Solidity compiler in this install (a development tool); the probe runs from its committed artifact')
    return
  }
  const run = spawnSync(process.execPath, ['--conditions=tokenrisk-source', '--import', 'tsx', join(PROJECT_ROOT, 'scripts', 'build-contracts.ts')], { stdio: 'inherit' })
  if (run.status !== 0) throw new Error('the contracts did not compile')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const log = (line) => console.log(line)
  try {
    if (args.includes('--check')) {
      const stale = staleBuilds().map((b) => b.name)
      if (stale.length > 0) console.error(`stale: ${stale.join(', ')} (run npm run build)`)
      process.exitCode = stale.length > 0 ? 1 : 0
    } else {
      const built = await buildAll({ force: args.includes('--force'), log })
      if (built.length === 0) log('the build is up to date')
      if (args.includes('--contracts')) buildContracts(log)
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
