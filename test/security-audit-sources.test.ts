// Security: an audit reads the sources it is given and nothing else. Sources given as text
// (the MCP tool `audit_solidity`) are resolved among themselves, in memory; `tokenrisk audit` of
// a folder stays in that folder (and the include paths its operator names). Each attack —
// an absolute import, `..` chains, a remapping or a symbolic link leading out, node_modules above
// the project, a device, a FIFO — is tried, and the tests check what the loader asked the file
// system (every call of `node:fs` recorded), not only that the answer looks fine, and that the
// answer is the same whether the outside file exists or not.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest'
import { analyzeProject, analyzeSources } from '../src/audit/analyze.ts'
import { diskProjectFiles } from '../src/audit/load/disk-files.ts'
import { loadProject } from '../src/audit/load/load-project.ts'
import { createSourceAuditService, MAX_SOURCE_AUDIT_BYTES, MAX_SOURCE_AUDIT_FILES } from '../src/cli/source-audits.ts'
import type { SourceAuditService } from '../src/contract/services.ts'
import { buildTestApp, type TestApp } from './helpers/app.ts'
import { embeddedStore, type TestStore } from './helpers/services.ts'

/** The `node:fs` calls that take a path: every one the loader could read, list or stat through. */
const FS_CALLS = ['statSync', 'lstatSync', 'readFileSync', 'readdirSync', 'readlinkSync', 'realpathSync', 'existsSync', 'openSync', 'accessSync', 'opendirSync'] as const

/** Records every path given to `node:fs` while `work` runs (the calls still happen). */
async function recordingFs<T>(work: () => Promise<T>): Promise<{ value: T; paths: string[] }> {
  const spies: MockInstance[] = FS_CALLS.map((name) => vi.spyOn(fs, name as never))
  try {
    const value = await work()
    const paths = spies.flatMap((spy) => spy.mock.calls.map((args) => String(args[0])))
    return { value, paths }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

/** A contract that, were it read, would be analysed and found (anyone can destroy it). */
const SECRET_SOLIDITY = 'pragma solidity 0.8.20;\ncontract Secret { function f() external { selfdestruct(payable(msg.sender)); } }\n'
const SECRET_KEY = 'trk_live_0123456789abcdef0123456789abcdef'

let base: string
let outside: string
let demoKeyFile: string

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tokenrisk-jail-')))
  outside = path.join(base, 'outside')
  demoKeyFile = path.join(base, 'data', 'devnet', 'demo-api-key')
})
afterAll(() => fs.rmSync(base, { recursive: true, force: true }))

/** Puts the files outside the project in place (or takes them away). */
function outsideFiles(present: boolean) {
  fs.rmSync(outside, { recursive: true, force: true })
  fs.rmSync(path.dirname(path.dirname(demoKeyFile)), { recursive: true, force: true })
  fs.rmSync(path.join(base, 'node_modules'), { recursive: true, force: true })
  if (!present) return
  fs.mkdirSync(outside, { recursive: true })
  fs.writeFileSync(path.join(outside, 'Secret.sol'), SECRET_SOLIDITY)
  fs.writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n')
  fs.mkdirSync(path.dirname(demoKeyFile), { recursive: true })
  fs.writeFileSync(demoKeyFile, `${SECRET_KEY}\n`)
  fs.mkdirSync(path.join(base, 'node_modules', 'evil'), { recursive: true })
  fs.writeFileSync(path.join(base, 'node_modules', 'evil', 'Evil.sol'), SECRET_SOLIDITY)
}

/** The imports an attacker writes to read what is not theirs. */
const hostileImports = () => [
  '/etc/passwd',
  '/etc/hostname',
  '/dev/zero',
  '/proc/self/environ',
  demoKeyFile,
  path.join(outside, 'Secret.sol'),
  '../outside/Secret.sol',
  '../../outside/Secret.sol',
  '../../../../../../../../../etc/passwd',
  `../../../../../../../..${demoKeyFile}`,
  './../../outside/passwd',
  'evil/Evil.sol',
]

/** A project's own file importing every hostile path, and a legitimate import of its neighbour. */
const vaultSource = () =>
  `// SPDX-License-Identifier: MIT\npragma solidity 0.8.20;\n${hostileImports()
    .map((p) => `import "${p}";`)
    .join('\n')}\nimport "./Ok.sol";\ncontract Vault is Ok {}\n`
const OK_SOURCE = 'pragma solidity 0.8.20;\ncontract Ok { function g() external { selfdestruct(payable(msg.sender)); } }\n'

describe('sources given as text are resolved among themselves, in memory', () => {
  const sources = () => [
    { path: 'src/Vault.sol', content: vaultSource() },
    { path: 'src/Ok.sol', content: OK_SOURCE },
  ]

  it('finds no file outside them, asks the disk nothing, and answers the same whether the outside files exist', async () => {
    outsideFiles(true)
    const withFiles = await recordingFs(() => analyzeSources(sources()))
    outsideFiles(false)
    const without = await recordingFs(() => analyzeSources(sources()))

    // Nothing was asked of the disk at all: not the outside files, not even the sources' own paths.
    expect(withFiles.paths).toEqual([])
    expect(without.paths).toEqual([])
    expect(JSON.stringify(withFiles.value)).toBe(JSON.stringify(without.value))
    const result = withFiles.value
    // Every hostile import is "not found", in the words of the import as written; nothing of the files' contents shows.
    expect(result.errors.map((e) => e.message)).toEqual(hostileImports().map((p, i) => `line ${i + 3}: import "${p}" not found`))
    expect(result.files.map((f) => f.path)).toEqual(['src/Ok.sol', 'src/Vault.sol'])
    expect(result.skipped).toEqual([])
    const text = JSON.stringify(result)
    expect(text).not.toContain('root:x')
    expect(text).not.toContain(SECRET_KEY)
    expect(result.vulnerabilities.map((v) => v.file)).not.toContain(expect.stringContaining('Secret'))
  })
})

describe('tokenrisk audit of a folder stays in that folder', () => {
  let project: string

  beforeAll(() => {
    project = path.join(base, 'project')
    fs.mkdirSync(path.join(project, 'src'), { recursive: true })
    fs.mkdirSync(path.join(project, 'lib'), { recursive: true })
    fs.writeFileSync(path.join(project, 'src', 'Vault.sol'), vaultSource().replace('contract Vault is Ok {}', 'import "up/Secret.sol";\nimport "abs/passwd";\nimport "./linked.sol";\nimport "./out/Secret.sol";\nimport "./pipe.sol";\nimport "./null.sol";\nimport "./Alias.sol";\nimport "mod/Secret.sol";\ncontract Vault is Ok {}'))
    fs.writeFileSync(path.join(project, 'src', 'Ok.sol'), OK_SOURCE)
    // Remappings leading out: to a folder above, to an absolute one, to lib/ which is a link out.
    fs.writeFileSync(path.join(project, 'remappings.txt'), 'up/=../outside/\nabs/=/etc/\nmod/=lib/mod/\n')
    fs.symlinkSync(outside, path.join(project, 'lib', 'mod'))
    // Symbolic links out (a file, a folder, a device), a link inside (followed), a FIFO (never opened: reading it would hang).
    fs.symlinkSync(path.join(outside, 'Secret.sol'), path.join(project, 'src', 'linked.sol'))
    fs.symlinkSync('../../outside', path.join(project, 'src', 'out'))
    fs.symlinkSync('/dev/zero', path.join(project, 'src', 'null.sol'))
    fs.symlinkSync('Ok.sol', path.join(project, 'src', 'Alias.sol'))
    execFileSync('mkfifo', [path.join(project, 'src', 'pipe.sol')])
  })

  const inProject = (p: string) => p === project || p.startsWith(`${project}/`)

  it('opens, stats and lists nothing outside it, and answers the same whether the outside files exist', async () => {
    outsideFiles(true)
    const withFiles = await recordingFs(() => analyzeProject(project))
    outsideFiles(false)
    const without = await recordingFs(() => analyzeProject(project))

    expect(withFiles.paths.length).toBeGreaterThan(0)
    expect(withFiles.paths.filter((p) => !inProject(p))).toEqual([])
    expect(without.paths.filter((p) => !inProject(p))).toEqual([])
    expect(JSON.stringify(withFiles.value)).toBe(JSON.stringify(without.value))

    const result = withFiles.value
    const notFound = result.errors.map((e) => e.message.replace(/^line \d+: /, ''))
    expect(notFound).toEqual([
      ...hostileImports(),
      'up/Secret.sol',
      'abs/passwd',
      './linked.sol',
      './out/Secret.sol',
      './pipe.sol',
      './null.sol',
      'mod/Secret.sol',
    ].map((p) => `import "${p}" not found`))
    // The link inside the project is followed (one file, read once); the FIFO and the links out are not own files either.
    expect(result.files.map((f) => f.path)).toEqual(['src/Ok.sol', 'src/Vault.sol'])
    expect(JSON.stringify(result)).not.toContain('root:x')
  })

  it('reads a dependency outside only from an include path its operator names, and nothing else outside', async () => {
    outsideFiles(true)
    const { value, paths } = await recordingFs(() => loadProject(project, { includePaths: [path.join(base, 'node_modules')] }))
    const include = path.join(base, 'node_modules')
    expect(paths.filter((p) => !inProject(p) && !(p === include || p.startsWith(`${include}/`)))).toEqual([])
    expect(value.files.map((f) => f.path)).toContain('../node_modules/evil/Evil.sol')
    expect(value.errors.map((e) => e.message)).not.toContain(expect.stringContaining('evil/Evil.sol'))
  })

  it('the file layer itself refuses what lies outside without asking the disk', () => {
    const asked: string[] = []
    const recorder = {
      lstatSync: ((p: fs.PathLike) => (asked.push(String(p)), fs.lstatSync(p))) as typeof fs.lstatSync,
      readlinkSync: ((p: fs.PathLike) => (asked.push(String(p)), fs.readlinkSync(p, 'utf8'))) as typeof fs.readlinkSync,
      readFileSync: ((p: fs.PathOrFileDescriptor) => (asked.push(String(p)), fs.readFileSync(p, 'utf8'))) as typeof fs.readFileSync,
      readdirSync: ((p: fs.PathLike) => (asked.push(String(p)), fs.readdirSync(p))) as typeof fs.readdirSync,
    }
    outsideFiles(true)
    const files = diskProjectFiles([project], recorder)
    for (const p of ['/etc/passwd', path.join(outside, 'Secret.sol'), path.join(project, '..', 'outside', 'Secret.sol'), '/dev/zero']) expect(files.kind(p), p).toBeUndefined()
    expect(asked).toEqual([])
    for (const link of ['linked.sol', 'out/Secret.sol', 'null.sol', 'pipe.sol']) expect(files.kind(path.join(project, 'src', link)), link).toBeUndefined()
    expect(files.kind(path.join(project, 'src', 'Alias.sol'))).toBe('file')
    expect(asked.filter((p) => !inProject(p))).toEqual([])
  })
})

describe('audit_solidity over /mcp: the hole an API key had, closed', () => {
  let t: TestStore
  let api: TestApp
  let audits: SourceAuditService
  let key: string
  const DEADLINE_MS = 30_000

  beforeAll(async () => {
    t = await embeddedStore()
    api = await buildTestApp(t.store, { options: { requestTimeoutMs: DEADLINE_MS } })
    audits = createSourceAuditService({ audits: api.audits })
    await api.app.close()
    api = await buildTestApp(t.store, {
      audits: api.audits,
      sourceAudits: { service: audits, bounds: { maxFiles: MAX_SOURCE_AUDIT_FILES, maxBytes: MAX_SOURCE_AUDIT_BYTES, deadlineMs: DEADLINE_MS } },
      options: { requestTimeoutMs: DEADLINE_MS },
    })
    key = (await api.keys.create({ userId: 'attacker' })).key
  }, 60_000)
  afterEach(() => outsideFiles(false))
  afterAll(async () => {
    await api?.app.close()
    await audits?.close()
    await t?.cleanup()
  })

  const callTool = async (args: Record<string, unknown>) => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'x-api-key': key, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit_solidity', arguments: args } },
    })
    expect(res.statusCode).toBe(200)
    return res.json().result as { isError?: boolean; content: { text: string }[]; structuredContent: { problems: { message: string }[]; skipped: unknown[]; audit: { projectReportLink?: string } } }
  }

  it('answers an import of /etc/passwd, of the demo key file or of a file beside the service "not found", the same whether it exists, and records none of it', async () => {
    const files = [{ path: 'src/Vault.sol', content: vaultSource() }, { path: 'src/Ok.sol', content: OK_SOURCE }]
    outsideFiles(true)
    const present = await callTool({ files, projectId: 'probe' })
    outsideFiles(false)
    const absent = await callTool({ files })
    expect(present.isError).toBeFalsy()
    expect(present.structuredContent.problems).toEqual(absent.structuredContent.problems)
    expect(present.structuredContent.problems.map((p) => p.message)).toEqual(hostileImports().map((p, i) => `line ${i + 3}: import "${p}" not found`))
    expect(present.structuredContent.skipped).toEqual([])
    const answer = JSON.stringify(present)
    expect(answer).not.toContain('root:x')
    expect(answer).not.toContain(SECRET_KEY)
    expect(answer).not.toMatch(/syntax error/)
    // The project's history and report page hold the project's own files only.
    const link = present.structuredContent.audit.projectReportLink!
    const page = await api.app.inject({ url: new URL(link).pathname })
    expect(page.statusCode).toBe(200)
    expect(page.body).not.toContain('passwd')
    expect(page.body).not.toContain('demo-api-key')
    const history = await api.app.inject({ url: '/api/v1/projects/audit/history?projectId=probe&userId=attacker', headers: { 'x-api-key': key } })
    expect(history.body).not.toContain('passwd')
  }, 60_000)
})
