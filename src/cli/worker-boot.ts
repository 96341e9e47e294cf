import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** tsx's ESM registration API, for workers that run the TypeScript sources (a development install). */
function tsxEsmApi(): string {
  const tsx = dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  return pathToFileURL(join(tsx, 'dist', 'esm', 'api', 'index.mjs')).href
}

/**
 * The code a worker thread evaluates to load its entry `name` lying beside `moduleUrl` (the
 * `import.meta.url` of the module that starts it). A worker runs what its starter runs: the
 * compiled entry beside a compiled starter (the bundle), or, beside a TypeScript starter (tests
 * and benches run the sources), the TypeScript entry through tsx, which the thread registers first.
 *
 * @example
 * const worker = new Worker(workerBoot(import.meta.url, 'report-worker'), { eval: true })
 */
export function workerBoot(moduleUrl: string, name: string): string {
  const compiled = moduleUrl.endsWith('.js')
  const entry = new URL(compiled ? `./${name}.js` : `./${name}.ts`, moduleUrl)
  return compiled
    ? `import(${JSON.stringify(entry.href)})`
    : `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}) })`
}
