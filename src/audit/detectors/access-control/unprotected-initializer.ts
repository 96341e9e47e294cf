import { fundsControlled, ownerVariables } from '../../analyses/owner-variables.ts'
import { contains, walkNodes } from '../../analyses/syntax.ts'
import type * as AST from '../../parse/ast.ts'
import type { StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { functionLabel } from '../helpers.ts'

/** `initialize`, `init`, `initializeV2`, `initialise`, … */
const INITIALIZER_NAME = /^_*init(iali[sz]e)?([A-Z0-9_]\w*)?$/
/** Modifiers that make a function callable once (OpenZeppelin Initializable and look-alikes). */
const ONCE_MODIFIER_NAME = /initiali[sz]|reinitiali[sz]/i

export const unprotectedInitializer = defineDetector({
  id: 'unprotected-initializer',
  title: 'Unprotected initializer',
  category: 'access-control',
  severity: 'high',
  lowered: 'High when it writes an account that controls funds (a function the account is admitted to sends ETH, moves tokens, self-destructs or delegatecalls, or the contract pays it; the finding names it); medium otherwise.',
  confidence: 'medium',
  explanation:
    'An initializer sets up ownership and parameters of a proxy-based contract. If it can be called by anyone and more than once, an attacker can (re)initialize the contract and make themselves its owner.',
  recommendation: "Use OpenZeppelin Initializable's `initializer` modifier (and `_disableInitializers()` in the implementation's constructor), or check and set an initialized flag.",
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (!INITIALIZER_NAME.test(fn.name)) continue
      if (analyses.access.isProtected(fn, context)) continue
      if (fn.modifierCalls.some((m) => ONCE_MODIFIER_NAME.test(m.name))) continue
      const effects = analyses.effects.flatEffects(fn, context)
      const written = new Set<StateVariableIr>()
      for (const e of effects) if (e.effect.kind === 'write') written.add(e.effect.access.variable)
      if (written.size === 0) continue
      // A flag checked and then set (`require(!initialized); initialized = true;`) makes it one-shot.
      const checksOwnFlag = [fn, ...fn.modifierCalls.map((m) => analyses.dispatch.modifierIn(m, fn, context)).filter((m) => m !== null)].some((f) =>
        f.facts.guards.some((g) => f.facts.stateReads.some((r) => written.has(r.variable) && contains(g.condition, r.node))) ||
        // `if (admin == address(0)) admin = a; else revert();`: the writes happen only on the branch reading the flag unset.
        ((f.facts.nodes.get('IfStatement') ?? []) as AST.IfStatement[]).some(
          (branch) => branch.falseBody !== null && branch.falseBody !== undefined && stops(branch.falseBody) && f.facts.stateReads.some((r) => written.has(r.variable) && contains(branch.condition, r.node)),
        ),
      )
      if (checksOwnFlag) continue
      const owners = ownerVariables(analyses, context)
      const taken = [...written].map((v) => owners.get(v)).find((o) => o !== undefined && (o.paidIn.length > 0 || fundsControlled(analyses, o, context).entryPoints.length > 0))
      const funds = taken ? fundsControlled(analyses, taken, context).entryPoints : []
      const stake = taken ? ` Any caller makes themselves \`${taken.variable.name}\`, the account ${funds.length > 0 ? `${funds.slice(0, 3).map((g) => functionLabel(g)).join(', ')} admit${funds.length === 1 ? 's' : ''} to move the contract's funds` : 'the contract pays'}.` : ''
      report(fn.node, fn.file, `${functionLabel(fn)} can be called by anyone, any number of times, and writes ${[...written].map((v) => `\`${v.name}\``).join(', ')}.${stake}`, {
        header: true,
        foundIn: [{ fn, context }],
        severity: taken ? 'high' : 'medium',
        evidence: taken ? [...funds, ...taken.paidIn].filter((g) => g.file.own).map((g) => ({ node: g.node, file: g.file })) : [],
      })
    }
  },
})

/** Whether a branch reverts: a `revert(…)`, `throw` or failing `require(false)` as its statement or first statement. */
function stops(branch: AST.BaseASTNode): boolean {
  let found = false
  walkNodes(branch, (n) => {
    if (found) return false
    if (n.type === 'ThrowStatement' || n.type === 'RevertStatement') found = true
    if (n.type === 'FunctionCall' && n.expression.type === 'Identifier' && n.expression.name === 'revert') found = true
  })
  return found
}
