#!/usr/bin/env node
// `npm run build` (also run by `npm install`, `npm start` and the tests): compiles the TypeScript
// of tokenrisk (src/ → dist/) and of the local worlds (packages/devworld/src/ → its dist/), and
// copies the JSON files the code reads beside it (shipped chains, the probe's artifact). Then it
// bundles the tokenrisk command (dist/bundle/, what bin/tokenrisk.js runs) with esbuild: one
// module graph of a few files loads several times faster than the thousands of files of the
// compiled sources and their libraries; and the token pages' browser script and style sheet
// (dist/web/assets/). Plain JavaScript, so that it runs before anything is
// built, with the TypeScript compiler and esbuild only (both dependencies).
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

/** The two builds: the product (and its command's bundle), and the local worlds when their package is in the tree. */
export const BUILDS = [
  { name: 'tokenrisk', root: PROJECT_ROOT, bundle: true, webClient: true },
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
const isAsset = (name) => name.endsWith('.json') && name !== 'tsconfig.json'
const isStyle = (name) => name.endsWith('.css')

/** What a build reads: its sources, assets and style sheets, its build configuration (this script among it), and the compiler's version. */
function inputsOf(build) {
  const src = join(build.root, 'src')
  const configs = [fileURLToPath(import.meta.url), join(build.root, 'tsconfig.build.json'), join(PROJECT_ROOT, 'tsconfig.json'), join(build.root, 'package.json')]
  return { sources: listFiles(src, isSource), assets: listFiles(src, isAsset), styles: listFiles(src, isStyle), configs }
}

function stampOf(build, inputs, compilerVersion) {
  const hash = createHash('sha256').update(`typescript ${compilerVersion}\n`)
  if (build.bundle) hash.update(`esbuild ${packageVersion('esbuild')}\n`)
  for (const path of [...inputs.configs, ...inputs.sources, ...inputs.assets, ...inputs.styles]) {
    const s = statSync(path)
    hash.update(`${relative(build.root, path)} ${s.size} ${s.mtimeMs}\n`)
  }
  return hash.digest('hex')
}

function packageVersion(name) {
  const require = createRequire(join(PROJECT_ROOT, 'package.json'))
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version
}

const compilerVersion = () => packageVersion('typescript')

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
  if (build.bundle) await bundle(build, outDir)
  if (build.webClient) await bundleWebClient(build, outDir)
  writeFileSync(join(outDir, STAMP_FILE), stampOf(build, inputs, ts.version))
  return config.fileNames.length
}

/** Where the command's bundle goes, under dist/. Every file of it lies there, none deeper. */
export const BUNDLE_DIR = 'bundle'
/**
 * The bundle's entries: the command, and the worker threads it starts: report workers
 * (report-workers.ts) and source-audit workers (source-audits.ts).
 */
const BUNDLE_ENTRIES = { main: 'src/cli/main.ts', 'report-worker': 'src/cli/report-worker.ts', 'audit-worker': 'src/cli/audit-worker.ts' }
/**
 * The libraries bundled with the command: plain ES modules made of many files (viem and what it
 * is built on, kysely, typebox, the Solana client, the MCP SDK and its zod), whose loading is most
 * of a start; and the JSON Schema validator the MCP SDK loads (ajv and its parts, CommonJS), which
 * was a fifth of `tokenrisk mcp`'s start (fastify keeps its own copy from node_modules). The others
 * stay imports of node_modules: native addons (better-sqlite3), packages that read files or start
 * threads from their own directory (evmole's WebAssembly, pino's transports, the Swagger UI,
 * bullmq's Lua scripts), and the other CommonJS ones, which load fast enough as they are.
 */
const BUNDLED_PACKAGES = /^(viem|ox|abitype|kysely|@sinclair\/typebox|@shazow\/whatsabi|@noble\/[^/]+|@scure\/[^/]+|@solana\/[^/]+|@modelcontextprotocol\/sdk|zod|zod-to-json-schema|ajv|ajv-formats|fast-uri|json-schema-traverse|fast-deep-equal)(\/|$)/
/**
 * Sources the bundle imports from dist/ rather than holding a copy of: the error classes, which
 * the local worlds' package (packages/devworld) imports from dist/ too, so that an error it throws
 * is an instance of the classes the command checks.
 */
const SHARED_SOURCES = ['src/errors.ts']
/**
 * Sources whose `import.meta.url` means the bundle: report-workers.ts and source-audits.ts start
 * the worker entries beside them (dist/bundle/report-worker.js, audit-worker.js). In every other
 * source `import.meta.url` finds files beside the module (the shipped chains, the probe's
 * artifact, package.json): it is rewritten to the module's compiled twin in dist/, where the build
 * copies those files.
 */
const OWN_URL_SOURCES = ['src/cli/report-workers.ts', 'src/cli/source-audits.ts']

/** Bundles the command into dist/bundle/ (ES modules, split where commands load lazily). */
async function bundle(build, outDir) {
  const { build: esbuild } = await import(pathToFileURL(createRequire(join(build.root, 'package.json')).resolve('esbuild')).href)
  const src = join(build.root, 'src')
  const bundleDir = join(outDir, BUNDLE_DIR)
  const shared = new Set(SHARED_SOURCES.map((p) => join(build.root, p)))
  const ownUrl = new Set(OWN_URL_SOURCES.map((p) => join(build.root, p)))
  // The URL of a source's compiled twin, from any file of the bundle (all lie in dist/bundle/).
  const twin = (path) => `../${relative(src, path).replace(/\.ts$/, '.js').split('\\').join('/')}`
  const plugin = {
    name: 'tokenrisk-bundle',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }))
      b.onResolve({ filter: /^\./ }, (args) => {
        const path = join(args.resolveDir, args.path)
        return shared.has(path) ? { path: twin(path), external: true } : undefined
      })
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(src) || ownUrl.has(args.path)) return undefined
        const text = readFileSync(args.path, 'utf8')
        if (!text.includes('import.meta.url')) return undefined
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(twin(args.path))}, import.meta.url).href`), loader: 'ts' }
      })
    },
  }
  const result = await esbuild({
    absWorkingDir: build.root,
    entryPoints: BUNDLE_ENTRIES,
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Class and function names stay what the sources say (error names, stack traces).
    keepNames: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [plugin],
  })
  for (const file of Object.keys(result.metafile.outputs)) {
    if (dirname(join(build.root, file)) !== bundleDir) throw new Error(`the bundle wrote ${file} outside ${bundleDir}: its rewritten URLs assume one directory`)
  }
}

/** The token pages' browser code (src/web/client/, excluded from the transpiled build) and where its bundle goes under dist/. */
const WEB_CLIENT_ENTRY = 'src/web/client/main.ts'
export const WEB_ASSETS_DIR = join('web', 'assets')
/** Browsers the token pages support: those of the last few years (no transpiling of what they all run). */
const WEB_CLIENT_TARGET = ['es2020', 'chrome100', 'firefox100', 'safari15']

/**
 * Bundles the token pages' client into dist/web/assets/: one script (page.js) and its style sheet
 * (page.css, imported by the entry), minified, nothing fetched at run time. The server
 * (src/web/assets.ts) serves them from there under names carrying their hash.
 */
async function bundleWebClient(build, outDir) {
  const { build: esbuild } = await import(pathToFileURL(createRequire(join(build.root, 'package.json')).resolve('esbuild')).href)
  const assetsDir = join(outDir, WEB_ASSETS_DIR)
  rmSync(assetsDir, { recursive: true, force: true })
  await esbuild({
    absWorkingDir: build.root,
    entryPoints: { page: WEB_CLIENT_ENTRY },
    outdir: assetsDir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: WEB_CLIENT_TARGET,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
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
