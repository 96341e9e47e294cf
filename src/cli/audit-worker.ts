// Entry of a source-audit worker thread (see source-audits.ts): analyses the sources it is given,
// in memory (their imports resolved among them alone, nothing read from the disk), and posts the
// analysis back. One audit per thread: the thread is ended when the audit is done, or at its
// deadline, whatever the analyzer is doing then.
import { parentPort, workerData } from 'node:worker_threads'
import { analyzeSources } from '../audit/analyze.ts'
import { serializeError } from './report-workers.ts'
import { AUDIT_FAILED, type SourceAuditReply, type SourceAuditWorkerData } from './source-audits.ts'

const port = parentPort
if (!port) throw new Error('audit-worker.ts runs as a worker thread')
const { files } = workerData as SourceAuditWorkerData

let reply: SourceAuditReply
try {
  reply = { ok: true, analysis: await analyzeSources(files) }
} catch (error) {
  reply = { ok: false, error: serializeError(error, AUDIT_FAILED) }
}
port.postMessage(reply)
