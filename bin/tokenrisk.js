#!/usr/bin/env node
// The tokenrisk command: runs the command's bundle in dist/bundle/ (npm install builds it, and
// npm run build after a change to the sources; scripts/build.mjs says how). Its source maps lie
// beside it: `node --enable-source-maps bin/tokenrisk.js …` shows stacks in the TypeScript sources.
const entry = new URL('../dist/bundle/main.js', import.meta.url)
let main
try {
  ;({ main } = await import(entry.href))
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(entry.pathname)) throw error
  process.stderr.write('tokenrisk is not built: run npm run build (npm install does it)\n')
  process.exit(1)
}
process.exitCode = await main(process.argv.slice(2))
