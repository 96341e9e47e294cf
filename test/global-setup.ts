import { compileContracts } from '../src/contracts/compile.ts'

/** Compiles our Solidity once, before any test worker needs an artifact. */
export default function setup(): void {
  compileContracts()
}
