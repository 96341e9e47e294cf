// Entry of a source-audit worker thread (see source-audits.ts): analyses the folder the serving
// thread wrote the sources into, as `tokenrisk audit` analyses a folder, and posts the analysis
// back. One audit per thread: the thread is ended when the audit is done, or at its deadline,
// whatever the analyzer is doing then (the serving thread removes the folder either way).
import { parentPort, workerData } from 'node:worker_threads'
import { analyzeProject } from '../audit/analyze.ts'
import { serializeError } from './report-workers.ts'
import { AUDIT_FAILED, type SourceAuditReply, type SourceAuditWorkerData } from './source-audits.ts'

const port = parentPort
if (!port) throw new Error('audit-worker.ts runs as a worker thread')
const { folder } = workerData as SourceAuditWorkerData

let reply: SourceAuditReply
try {
  reply = { ok: true, analysis: await analyzeProject(folder) }
} catch (error) {
  reply = { ok: false, error: serializeError(error, AUDIT_FAILED) }
}
// The temporary folder is ours, not the caller's: paths are the caller's own, relative ones.
port.postMessage(JSON.parse(JSON.stringify(reply).replaceAll(`${folder}/`, '').replaceAll(folder, 'the sources given')) as SourceAuditReply)
