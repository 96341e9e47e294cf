import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * A test server's request handler whose failures end its own answer: a client that hangs up while
 * its body is read (a report stopped at its deadline) or a node that goes away mid-request would
 * otherwise leave an unhandled rejection, which fails the whole test run.
 */
export function guarded(handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (res.destroyed) return
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
  }
}
