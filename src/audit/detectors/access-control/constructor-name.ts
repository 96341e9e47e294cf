import { fundsControlled, ownerVariables } from '../../analyses/owner-variables.ts'
import { functionLabel } from '../helpers.ts'
import type { ContractIr, FunctionIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'

/** Solidity 0.4.22 introduced the `constructor` keyword; 0.5.0 removed name-based constructors. */
const NAMED_CONSTRUCTORS_UNTIL = 5_000

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]
}

/** Whether `fn` of `contract` is a public function named almost like its contract, in code where constructors are named (see `constructorName`). */
export function isMisspelledConstructor(fn: FunctionIr, contract: ContractIr): boolean {
  if (contract.kind === 'interface' || contract.kind === 'library') return false
  if (!namedConstructorsPossible(contract)) return false
  if (fn.kind !== 'function' || fn.body === null || fn.facts.stateWrites.length === 0 || fn.name === contract.name) return false
  const a = fn.name.toLowerCase()
  const b = contract.name.toLowerCase()
  // `function constructor()`: the keyword written as a function's name, an ordinary public function before 0.5.
  return a === b || (b.length >= 6 && editDistance(a, b) <= 1) || fn.name === 'constructor'
}

/** Whether a contract's code may compile with a compiler that takes a function named like the contract as its constructor (before 0.5.0). */
export function namedConstructorsPossible(contract: ContractIr): boolean {
  const compiler = contract.file.versions
  return compiler === null || compiler.min < NAMED_CONSTRUCTORS_UNTIL
}

export const constructorName = defineDetector({
  id: 'constructor-name',
  title: 'Misspelled constructor',
  category: 'access-control',
  severity: 'high',
  lowered: 'High when the function sets an account that controls funds (a function the account is admitted to sends ETH, moves tokens or self-destructs, or the contract pays it); medium otherwise.',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.4.22 a constructor is the function named exactly like the contract. A function whose name is almost the contract name (or differs only in case), or one declared `function constructor()`, is an ordinary public function, so anyone can call it later and run the setup again (typically taking ownership).',
  recommendation: 'Use the `constructor` keyword (Solidity 0.4.22 and later) and upgrade the compiler.',
  detect({ analyses, contracts, report }) {
    for (const contract of contracts) {
      for (const fn of contract.functions) {
        if (!isMisspelledConstructor(fn, contract)) continue
        const owners = ownerVariables(analyses, contract)
        const taken = fn.facts.stateWrites.map((w) => owners.get(w.variable)).find((o) => o !== undefined && (o.paidIn.length > 0 || fundsControlled(analyses, o, contract).entryPoints.length > 0))
        const funds = taken ? fundsControlled(analyses, taken, contract).entryPoints : []
        const stake = taken ? ` It sets \`${taken.variable.name}\`, the account ${funds.length > 0 ? `${funds.slice(0, 3).map((g) => functionLabel(g)).join(', ')} admit${funds.length === 1 ? 's' : ''} to move the contract's funds` : 'the contract pays'}.` : ''
        report(fn.node, contract.file, `\`${fn.name}()\` looks like the constructor of \`${contract.name}\` but is an ordinary public function anyone can call.${stake}`, {
          header: true,
          severity: taken ? 'high' : 'medium',
          evidence: taken ? [...funds, ...taken.paidIn].filter((g) => g.file.own).map((g) => ({ node: g.node, file: g.file })) : [],
        })
      }
    }
  },
})
