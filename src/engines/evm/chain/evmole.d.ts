// evmole ships its types, but its package.json "exports" hides them from NodeNext resolution:
// re-export them under the package name.
declare module 'evmole' {
  export * from 'evmole/dist/evmole.js'
}
