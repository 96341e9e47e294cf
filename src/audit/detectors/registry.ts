import type { DetectorDefinition } from './define-detector.ts'
import { ecrecoverZero } from './cryptography/ecrecover-zero.ts'
import { encodePackedCollision } from './cryptography/encode-packed-collision.ts'
import { cacheArrayLength } from './optimization/cache-array-length.ts'
import { constableStates } from './optimization/constable-states.ts'
import { costlyLoop } from './optimization/costly-loop.ts'
import { externalFunction } from './optimization/external-function.ts'
import { immutableStates } from './optimization/immutable-states.ts'
import { storageReadInLoop } from './optimization/storage-read-in-loop.ts'
import { assembly } from './style/assembly.ts'
import { booleanEquality } from './style/boolean-equality.ts'
import { deadCode } from './style/dead-code.ts'
import { namingConvention } from './style/naming-convention.ts'
import { tooManyDigits } from './style/too-many-digits.ts'
import { unusedState } from './style/unused-state.ts'
import { pragmaFloating } from './compiler/pragma-floating.ts'
import { pragmaOutdated } from './compiler/pragma-outdated.ts'
import { deprecatedConstructs } from './deprecated/deprecated-constructs.ts'
import { callsLoop } from './denial-of-service/calls-loop.ts'
import { pushPaymentToLeader } from './denial-of-service/push-payment-to-leader.ts'
import { unboundedLoop } from './denial-of-service/unbounded-loop.ts'
import { eventsAccess } from './events/events-access.ts'
import { eventsMaths } from './events/events-maths.ts'
import { erc20ApproveRace } from './ordering/erc20-approve-race.ts'
import { transactionOrderDependence } from './ordering/transaction-order-dependence.ts'
import { frontRunningReward } from './ordering/front-running-reward.ts'
import { arrayLengthAssignment } from './state/array-length-assignment.ts'
import { constantFunctionState } from './state/constant-function-state.ts'
import { incorrectEquality } from './state/incorrect-equality.ts'
import { incorrectUnary } from './state/incorrect-unary.ts'
import { failingAssert } from './state/failing-assert.ts'
import { lockedEther } from './state/locked-ether.ts'
import { shadowingLocal } from './state/shadowing-local.ts'
import { shadowingState } from './state/shadowing-state.ts'
import { uninitializedLocal } from './state/uninitialized-local.ts'
import { uninitializedState } from './state/uninitialized-state.ts'
import { uninitializedStorage } from './state/uninitialized-storage.ts'
import { divideBeforeMultiply } from './arithmetic/divide-before-multiply.ts'
import { integerOverflow } from './arithmetic/integer-overflow.ts'
import { tautology } from './arithmetic/tautology.ts'
import { blockhashCurrent } from './randomness/blockhash-current.ts'
import { timestamp } from './randomness/timestamp.ts'
import { weakPrng } from './randomness/weak-prng.ts'
import { constructorName } from './access-control/constructor-name.ts'
import { delegatecallForwarding } from './access-control/delegatecall-forwarding.ts'
import { controlledDelegatecall } from './access-control/controlled-delegatecall.ts'
import { incorrectModifier } from './access-control/incorrect-modifier.ts'
import { missingZeroCheck } from './access-control/missing-zero-check.ts'
import { txOrigin } from './access-control/tx-origin.ts'
import { unprotectedOwnerChange } from './access-control/unprotected-owner-change.ts'
import { unprotectedEtherWithdrawal } from './access-control/unprotected-ether-withdrawal.ts'
import { unprotectedInitializer } from './access-control/unprotected-initializer.ts'
import { unprotectedSelfdestruct } from './access-control/unprotected-selfdestruct.ts'
import { unprotectedUpgrade } from './access-control/unprotected-upgrade.ts'
import { arbitrarySendErc20 } from './calls/arbitrary-send-erc20.ts'
import { arbitrarySendEth } from './calls/arbitrary-send-eth.ts'
import { delegatecallLoop } from './calls/delegatecall-loop.ts'
import { lowLevelCalls } from './calls/low-level-calls.ts'
import { msgValueLoop } from './calls/msg-value-loop.ts'
import { uncheckedLowLevel } from './calls/unchecked-lowlevel.ts'
import { uncheckedSend } from './calls/unchecked-send.ts'
import { uncheckedTransfer } from './calls/unchecked-transfer.ts'
import { unusedReturn } from './calls/unused-return.ts'
import { reentrancyBenign } from './reentrancy/reentrancy-benign.ts'
import { reentrancyCrossFunction } from './reentrancy/reentrancy-cross-function.ts'
import { reentrancyEth } from './reentrancy/reentrancy-eth.ts'
import { reentrancyEvents } from './reentrancy/reentrancy-events.ts'
import { reentrancyStipend } from './reentrancy/reentrancy-stipend.ts'
import { reentrancyNoEth } from './reentrancy/reentrancy-no-eth.ts'

/**
 * Every detector tokenrisk runs, in report order. Adding a detector means importing it here;
 * ids and titles are checked for uniqueness when this module loads.
 */
export const DETECTORS: readonly DetectorDefinition[] = checkUnique([
  // reentrancy
  reentrancyEth,
  reentrancyNoEth,
  reentrancyCrossFunction,
  reentrancyStipend,
  reentrancyBenign,
  reentrancyEvents,
  // calls
  uncheckedTransfer,
  arbitrarySendEth,
  arbitrarySendErc20,
  msgValueLoop,
  delegatecallLoop,
  uncheckedLowLevel,
  uncheckedSend,
  unusedReturn,
  lowLevelCalls,
  // access control
  unprotectedSelfdestruct,
  unprotectedEtherWithdrawal,
  controlledDelegatecall,
  delegatecallForwarding,
  unprotectedInitializer,
  unprotectedUpgrade,
  constructorName,
  unprotectedOwnerChange,
  txOrigin,
  missingZeroCheck,
  incorrectModifier,
  // cryptography
  encodePackedCollision,
  ecrecoverZero,
  // randomness and time
  weakPrng,
  blockhashCurrent,
  timestamp,
  // arithmetic
  integerOverflow,
  divideBeforeMultiply,
  tautology,
  // state
  uninitializedStorage,
  uninitializedState,
  shadowingState,
  arrayLengthAssignment,
  lockedEther,
  incorrectEquality,
  incorrectUnary,
  failingAssert,
  constantFunctionState,
  uninitializedLocal,
  shadowingLocal,
  // denial of service
  unboundedLoop,
  pushPaymentToLeader,
  callsLoop,
  // transaction ordering
  transactionOrderDependence,
  frontRunningReward,
  erc20ApproveRace,
  // events
  eventsAccess,
  eventsMaths,
  // deprecated constructs and compiler
  pragmaOutdated,
  deprecatedConstructs,
  pragmaFloating,
  // style
  assembly,
  deadCode,
  unusedState,
  booleanEquality,
  tooManyDigits,
  namingConvention,
  // optimization
  constableStates,
  immutableStates,
  externalFunction,
  cacheArrayLength,
  storageReadInLoop,
  costlyLoop,
])

function checkUnique(detectors: DetectorDefinition[]): readonly DetectorDefinition[] {
  const ids = new Set<string>()
  const titles = new Set<string>()
  for (const d of detectors) {
    if (ids.has(d.id)) throw new Error(`detector id ${d.id} is registered twice`)
    if (titles.has(d.title)) throw new Error(`detector title "${d.title}" is used twice`)
    ids.add(d.id)
    titles.add(d.title)
  }
  return Object.freeze(detectors)
}
