/**
 * C3 linearisation as Solidity defines it: for `contract C is A, B` the order is C, then B, then
 * A (the right-most base is the "most derived"). Returns the list most-derived first. When the
 * hierarchy has no consistent linearisation (the compiler would reject it) a depth-first order
 * is returned so that analysis can go on.
 */
export function linearize<T>(start: T, directBases: (node: T) => readonly T[]): T[] {
  const memo = new Map<T, T[]>()
  const inProgress = new Set<T>()

  const visit = (node: T): T[] => {
    const known = memo.get(node)
    if (known) return known
    if (inProgress.has(node)) return [node]
    inProgress.add(node)
    const bases = [...directBases(node)].reverse()
    const sequences = [...bases.map((b) => [...visit(b)]), [...bases]]
    const result: T[] = [node]
    for (;;) {
      const nonEmpty = sequences.filter((s) => s.length > 0)
      if (nonEmpty.length === 0) break
      let candidate: T | undefined
      for (const sequence of nonEmpty) {
        const head = sequence[0]
        if (!nonEmpty.some((other) => other.indexOf(head) > 0)) {
          candidate = head
          break
        }
      }
      if (candidate === undefined) {
        // Inconsistent hierarchy: finish depth-first.
        for (const sequence of nonEmpty) for (const item of sequence) if (!result.includes(item)) result.push(item)
        break
      }
      if (!result.includes(candidate)) result.push(candidate)
      for (const sequence of nonEmpty) if (sequence[0] === candidate) sequence.shift()
    }
    inProgress.delete(node)
    memo.set(node, result)
    return result
  }

  return visit(start)
}
