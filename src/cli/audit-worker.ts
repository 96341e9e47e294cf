// Entry of a source-audit worker thread (see source-audits.ts): writes the sources it is given
// into a temporary folder, analyses them as `tokenrisk audit` analyses a folder, and posts the
// analysis back. One audit per thread: the thread is ended when the audit is done, or at its
// deadline, whatever the analyzer is doing then.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { analyzeProject } from '../audit/analyze.ts'
import { serializeError } from './report-workers.ts'
import { AUDIT_FAILED, type SourceAuditReply, type SourceAuditWorkerData } from './source-audits.ts'

const port = parentPort
if (!port) throw new Error('audit-worker.ts runs as a worker thread')
const { files } = workerData as SourceAuditWorkerData

const folder = await mkdtemp(join(tmpdir(), 'tokenrisk-source-audit-'))
let reply: SourceAuditReply
try {
  for (const file of files) {
    const path = join(folder, file.path)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, file.content)
  }
  reply = { ok: true, analysis: await analyzeProject(folder) }
} catch (error) {
  reply = { ok: false, error: serializeError(error, AUDIT_FAILED) }
} finally {
  await rm(folder, { recursive: true, force: true })
}
// The temporary folder is ours, not the caller's: paths are the caller's own, relative ones.
port.postMessage(JSON.parse(JSON.stringify(reply).replaceAll(`${folder}/`, '').replaceAll(folder, 'the sources given')) as SourceAuditReply)
