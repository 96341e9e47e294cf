import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
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
}

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
  return { name: `${base}.${hash}.${extension}`, type, body }
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
