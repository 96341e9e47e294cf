import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { ConfigError } from '../errors.ts'

/**
 * The token pages' script and style sheet, as `npm run build` bundles them from src/web/client/
 * into dist/web/assets/. The same path leads there from this source (src/web/) and from its
 * compiled twin (dist/web/), so tests running the sources serve the built bundle too.
 */
const ASSETS_DIR = new URL('../../dist/web/assets/', import.meta.url)
/** Characters of the content hash in an asset's served name. */
const HASH_CHARS = 12

export interface WebAsset {
  /** The served name, carrying the content's hash: `page.1a2b3c4d5e6f.js`. */
  name: string
  type: string
  body: Buffer
  /** The body compressed, by encoding, made on its first request and kept. */
  compressed: Map<Encoding, Buffer>
}

/** The encodings assets are sent in, best first. */
const ENCODINGS = ['br', 'gzip'] as const
type Encoding = (typeof ENCODINGS)[number]

export interface WebAssets {
  script: WebAsset
  style: WebAsset
}

function load(file: string, type: string): WebAsset {
  const url = new URL(file, ASSETS_DIR)
  if (!existsSync(url)) throw new ConfigError(`the token pages are not built (${fileURLToPath(url)} is missing): run npm run build`)
  const body = readFileSync(url)
  const hash = createHash('sha256').update(body).digest('hex').slice(0, HASH_CHARS)
  const [base, extension] = file.split('.')
  return { name: `${base}.${hash}.${extension}`, type, body, compressed: new Map() }
}

/** Whether an `Accept-Encoding` header takes `encoding` (named with a weight above 0). */
function accepts(header: string, encoding: Encoding): boolean {
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    return name.trim() === encoding && (q === undefined || Number(q) > 0)
  })
}

/**
 * What to send of `asset` to a client that accepts `acceptEncoding`: its body compressed once
 * with the best encoding the client takes (then kept: assets never change while the service
 * runs), else as it is.
 */
export function assetBody(asset: WebAsset, acceptEncoding: string | undefined): { body: Buffer; encoding?: Encoding } {
  const encoding = acceptEncoding ? ENCODINGS.find((e) => accepts(acceptEncoding, e)) : undefined
  if (!encoding) return { body: asset.body }
  let body = asset.compressed.get(encoding)
  if (!body) {
    body = encoding === 'br' ? brotliCompressSync(asset.body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }) : gzipSync(asset.body, { level: constants.Z_BEST_COMPRESSION })
    asset.compressed.set(encoding, body)
  }
  return { body, encoding }
}

/**
 * Reads the built assets once, when the app is built.
 *
 * @example
 * const assets = loadWebAssets()
 * assets.script.name // 'page.1a2b3c4d5e6f.js'
 */
export function loadWebAssets(): WebAssets {
  return {
    script: load('page.js', 'text/javascript; charset=utf-8'),
    style: load('page.css', 'text/css; charset=utf-8'),
  }
}
