// `npm run build:contracts`: compiles contracts/ into artifacts/ (skipped when up to date).
import { compileContracts } from './compile.ts'

const force = process.argv.includes('--force')
const result = compileContracts({ force })
console.log(result.compiled ? `compiled ${result.contracts} contracts in ${result.ms} ms` : 'contracts are up to date')
