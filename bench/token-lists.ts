/**
 * Cost of the bundled token lists: time to read and index each one on its first lookup, the heap
 * it keeps, and the time of a lookup once indexed. Run: npm run bench:token-lists
 */
import { BUNDLED_TOKEN_LISTS, loadBundledList } from '../src/metadata/bundled-lists.ts'

const LOOKUPS = 100_000
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc (npm run bench:token-lists does)')
const heapMb = () => {
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

for (const list of BUNDLED_TOKEN_LISTS) {
  const before = heapMb()
  const started = performance.now()
  const loaded = await loadBundledList(list)
  const loadMs = performance.now() - started
  const kept = heapMb() - before
  const keys = [...loaded.index.keys()]
  const lookupStarted = performance.now()
  for (let i = 0; i < LOOKUPS; i++) loaded.index.get(keys[i % keys.length])
  const lookupUs = ((performance.now() - lookupStarted) * 1000) / LOOKUPS
  console.log(`${list.name}: ${loaded.index.size} tokens, first lookup loads it in ${loadMs.toFixed(0)} ms, keeps ${kept.toFixed(1)} MB of heap, then ${lookupUs.toFixed(2)} µs a lookup`)
  // Keep the index alive until measured.
  if (loaded.index.size === 0) throw new Error(`${list.name} is empty`)
}
