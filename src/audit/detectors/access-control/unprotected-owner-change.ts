import type { Analyses } from '../../analyses/analyses.ts'
import { isAuthorized } from '../../analyses/authorization.ts'
import { checkedVariables, fundsControlled, ownerVariables, roleVariable } from '../../analyses/owner-variables.ts'
import { contains, identifierName, isLiteral, isMsgValue, isZero, someNode, unwrap } from '../../analyses/syntax.ts'
import type { ContractIr, FunctionIr, SourceNode, StateVariableIr } from '../../ir/types.ts'
import { defineDetector } from '../define-detector.ts'
import { code, enumerate, functionLabel } from '../helpers.ts'
import { isMisspelledConstructor, namedConstructorsPossible } from './constructor-name.ts'

/** Names of initializers, which `unprotected-initializer` reports. */
const INITIALIZER_NAME = /^_*init(iali[sz]e)?([A-Z0-9_]\w*)?$/

/** A function named like a contract (`DynamicPyramid`): in 0.4 code, a constructor left behind when its contract was renamed. */
const CONTRACT_LIKE_NAME = /^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$/

/** How many functions a finding names. */
const MAX_NAMED = 3

export const unprotectedOwnerChange = defineDetector({
  id: 'unprotected-owner-change',
  title: 'Anyone can set the owner',
  category: 'access-control',
  severity: 'high',
  lowered:
    'High when the account controls funds (a function its checks admit sends ETH, moves tokens, self-destructs or delegatecalls, or the contract pays it); medium when it only passes other checks; low for an owner-named variable no check reads.',
  confidence: 'medium',
  explanation:
    "A public function writes the account that the contract's checks on the caller admit (or that it pays), and nothing restricts who calls it: no check on msg.sender, no signature, no one-time flag. Any caller makes themselves the owner and then runs what only the owner should. A role mapping those checks read counts too when any caller can grant an entry for an account they name (`isAdmin[who] = true`); a caller's own entry (open membership, their own approvals), a revocation and a paid listing do not. In Solidity before 0.5, a function named like a contract is often the constructor of a contract since renamed: it is an ordinary public function.",
  recommendation:
    'Restrict the function to the current owner (a modifier or a msg.sender check), or set the account once in a constructor (the `constructor` keyword); for a hand-over, let the new owner accept it.',
  detect({ analyses, entryPoints, report }) {
    for (const { fn, context } of entryPoints) {
      if (fn.mutability === 'view' || fn.mutability === 'pure' || INITIALIZER_NAME.test(fn.name)) continue
      if (fn.contract && isMisspelledConstructor(fn, fn.contract)) continue
      const owners = ownerVariables(analyses, context)
      const roles = checkedVariables(analyses, context)
      if (owners.size === 0 && roles.size === 0) continue
      const effects = analyses.effects.flatEffects(fn, context)
      if (!effects.some((e) => e.effect.kind === 'write' && (owners.has(e.effect.access.variable) || roles.has(e.effect.access.variable)))) continue
      if (isAuthorized(analyses, fn, context)) continue
      // A purchase or a bid (the caller pays for the place) is the contract's rule, not a missing check.
      if (analyses.dispatch.reachableFunctions(fn, context).some((f) => f.facts.guards.some((g) => mentionsMsgValue(g.condition)))) continue
      const reported = new Set<StateVariableIr>()
      for (const e of effects) {
        if (e.effect.kind !== 'write') continue
        const { statement, assignment } = e.effect.access
        if (!statement || assignment?.operator !== '=' || assignment.value === null) continue
        const value = assignment.value
        // A role granted: an entry of a mapping the checks on the caller read, for an account the
        // caller names (`isAdmin[who] = true`), set to anything but the default (a revocation).
        const role = !owners.has(e.effect.access.variable) && roles.has(e.effect.access.variable) && e.effect.access.variable.type.kind === 'mapping' && !isZero(value) && !isFalse(value) && keyedByParameter(analyses, assignment.target, e.owner)
        const owner = owners.get(e.effect.access.variable) ?? (role ? roleVariable(analyses, context, e.effect.access.variable) : undefined)
        if (!owner || reported.has(owner.variable)) continue
        const valueName = identifierName(value)
        if (!role && (isLiteral(value) || (valueName !== null && isConstantName(context, valueName)))) continue
        const holder = e.owner
        if (analyses.access.isSenderGated(statement, holder) || e.via.some((call) => analyses.access.isSenderGated(call.node, analyses.ir.info(call.node)?.function ?? holder))) continue
        // Set once: the function checks a variable it writes (`require(owner == address(0))`, `require(!initialized)`).
        if (checksWhatItWrites(analyses, fn, context)) continue
        reported.add(owner.variable)
        const funds = fundsControlled(analyses, owner, context)
        const stepUp = funds.entryPoints.length > 0 || funds.paid ? null : promotion(analyses, owner.checkedIn, owner.variable, context)
        const severity = funds.entryPoints.length > 0 || funds.paid || stepUp ? 'high' : owner.checkedIn.length > 0 ? 'medium' : 'low'
        const what = stepUp
          ? `, the account ${functionLabel(stepUp.fn)} admits and then makes \`${stepUp.variable.name}\`, which ${enumerate(stepUp.entryPoints.map((g) => functionLabel(g)), MAX_NAMED)} admit${stepUp.entryPoints.length === 1 ? 's' : ''} to move the contract's funds`
          : funds.entryPoints.length > 0
            ? `, the account ${enumerate(funds.entryPoints.map((g) => functionLabel(g)), MAX_NAMED)} admit${funds.entryPoints.length === 1 ? 's' : ''} to move the contract's funds`
            : funds.paid
              ? `, the account ${enumerate(owner.paidIn.map((g) => functionLabel(g)), MAX_NAMED)} pay${owner.paidIn.length === 1 ? 's' : ''}`
              : owner.checkedIn.length > 0
                ? `, the account the checks of ${enumerate(owner.checkedIn.map((g) => functionLabel(g)), MAX_NAMED)} admit`
                : ''
        const renamed = renamedConstructorNote(fn, context)
        const change = role ? `grant any account a place in \`${owner.variable.name}\`: ${code(holder.file, statement)}` : `set \`${owner.variable.name}\` to ${code(holder.file, value)}`
        report(holder === fn ? statement : fn.node, holder === fn ? holder.file : fn.file, `${functionLabel(fn)} lets any caller ${change}${what}.${renamed}`, {
          header: holder !== fn,
          foundIn: [{ fn, context }],
          severity,
          evidence: [{ node: statement, file: holder.file }, ...[...funds.entryPoints, ...owner.checkedIn, ...owner.paidIn].filter((g) => g.file.own).map((g) => ({ node: g.node, file: g.file }))],
        })
      }
    }
  },
})

/**
 * A second step: an entry point whose checks admit the account in `variable` (an `acceptOwnership()`)
 * and that writes another owner variable controlling funds.
 */
function promotion(analyses: Analyses, checkedIn: readonly FunctionIr[], variable: StateVariableIr, context: ContractIr): { fn: FunctionIr; variable: StateVariableIr; entryPoints: FunctionIr[] } | null {
  const owners = ownerVariables(analyses, context)
  for (const g of analyses.dispatch.entryPoints(context)) {
    if (!analyses.dispatch.reachableFunctions(g, context).some((f) => checkedIn.includes(f))) continue
    for (const e of analyses.effects.flatEffects(g, context)) {
      if (e.effect.kind !== 'write' || e.effect.access.variable === variable) continue
      const other = owners.get(e.effect.access.variable)
      if (!other) continue
      const funds = fundsControlled(analyses, other, context)
      if (funds.entryPoints.length > 0) return { fn: g, variable: other.variable, entryPoints: funds.entryPoints }
    }
  }
  return null
}

/** `false`. */
function isFalse(node: SourceNode): boolean {
  const n = unwrap(node)
  return n.type === 'BooleanLiteral' && !(n as { value: boolean }).value
}

/**
 * Whether a mapping entry written is keyed by a parameter of the function writing it
 * (`isAdmin[who]`, `roles[r][who]`) and not by the caller (`approved[msg.sender][who]` is the
 * caller's own setting).
 */
function keyedByParameter(analyses: Analyses, target: SourceNode, holder: FunctionIr): boolean {
  let n = unwrap(target)
  let byParameter = false
  while (n.type === 'IndexAccess' || n.type === 'MemberAccess') {
    if (n.type === 'IndexAccess' && n.index) {
      if (analyses.access.isSender(n.index, holder)) return false
      if (analyses.taint.dependsOnParameters(n.index, holder)) byParameter = true
    }
    n = unwrap(n.type === 'IndexAccess' ? n.base : n.expression)
  }
  return byParameter
}

/** Whether an identifier names a constant of the contract's hierarchy. */
function isConstantName(contract: ContractIr, name: string): boolean {
  return contract.linearization.some((c) => c.stateVariables.some((v) => v.name === name && (v.isConstant || v.isImmutable)))
}

function mentionsMsgValue(node: SourceNode): boolean {
  return someNode(node, isMsgValue)
}

/** Whether a revert guard of what `fn` runs reads a state variable that `fn` also writes: a one-time setting. */
function checksWhatItWrites(analyses: Analyses, fn: FunctionIr, context: ContractIr): boolean {
  const written = new Set<StateVariableIr>()
  for (const e of analyses.effects.flatEffects(fn, context)) if (e.effect.kind === 'write') written.add(e.effect.access.variable)
  return analyses.dispatch.reachableFunctions(fn, context).some((f) => f.facts.guards.some((g) => g.kind !== 'if-return' && f.facts.stateReads.some((r) => written.has(r.variable) && contains(g.condition, r.node))))
}

/** ` \`DynamicPyramid()\` is named like a contract: …` for a function that reads as a renamed contract's constructor. */
function renamedConstructorNote(fn: FunctionIr, context: ContractIr): string {
  if (!fn.contract || !namedConstructorsPossible(fn.contract) || !CONTRACT_LIKE_NAME.test(fn.name) || fn.name === context.name) return ''
  return ` \`${fn.name}()\` is named like a contract, not like \`${fn.contract.name}\`: it reads as the constructor of the contract before it was renamed, and is an ordinary public function.`
}
