/**
 * A response's body as text, read no further than `maxBytes`: a peer answering a huge body is
 * refused as soon as the limit is passed (or at once, when its Content-Length says so), not after
 * the whole body is in memory. `tooLarge` makes the error thrown, given the declared size if any.
 *
 * @example
 * const text = await readCapped(response, 64 * 1024 * 1024, () => new UpstreamError('the node answered too much'))
 */
export async function readCapped(response: Response, maxBytes: number, tooLarge: (declared?: number) => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge(declared)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, total).toString('utf8')
}
