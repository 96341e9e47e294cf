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

export const constructorName = defineDetector({
  id: 'constructor-name',
  title: 'Misspelled constructor',
  category: 'access-control',
  severity: 'high',
  confidence: 'medium',
  explanation:
    'Before Solidity 0.4.22 a constructor is the function named exactly like the contract. A function whose name is almost the contract name is an ordinary public function, so anyone can call it later and run the setup again (typically taking ownership).',
  recommendation: 'Use the `constructor` keyword (Solidity 0.4.22 and later) and upgrade the compiler.',
  detect({ contracts, report }) {
    for (const contract of contracts) {
      if (contract.kind === 'interface' || contract.kind === 'library') continue
      const compiler = contract.file.versions
      if (compiler !== null && compiler.min >= NAMED_CONSTRUCTORS_UNTIL) continue
      for (const fn of contract.functions) {
        if (fn.kind !== 'function' || fn.body === null || fn.facts.stateWrites.length === 0) continue
        const a = fn.name.toLowerCase()
        const b = contract.name.toLowerCase()
        if (fn.name === contract.name) continue
        const close = a === b || (b.length >= 6 && editDistance(a, b) <= 1)
        if (!close) continue
        report(fn.node, contract.file, `\`${fn.name}()\` looks like the constructor of \`${contract.name}\` but is an ordinary public function anyone can call.`, { header: true })
      }
    }
  },
})
