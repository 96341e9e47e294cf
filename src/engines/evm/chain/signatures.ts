import { toFunctionSelector } from 'viem/utils'
import type { Hex } from 'viem'

/**
 * Selectors the engine knows by name. A name is only a hint used in evidence ("mint(address,uint256)");
 * whether a function does what its name says is always decided by simulation.
 */

/** Functions every ERC-20 or ownable contract has and that no owner power hides behind. */
const STANDARD = [
  'transfer(address,uint256)',
  'transferFrom(address,address,uint256)',
  'approve(address,uint256)',
  'increaseAllowance(address,uint256)',
  'decreaseAllowance(address,uint256)',
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  'transferOwnership(address)',
  'renounceOwnership()',
  'acceptOwnership()',
  'upgradeTo(address)',
  'upgradeToAndCall(address,bytes)',
  'multicall(bytes[])',
  'burn(uint256)',
  'deposit()',
  'withdraw(uint256)',
]

/** Common names of owner functions, for evidence. */
const KNOWN = [
  'mint(address,uint256)',
  'mint(uint256)',
  'mintTo(address,uint256)',
  'burnFrom(address,uint256)',
  'burn(address,uint256)',
  'adminTransfer(address,address,uint256)',
  'forceTransfer(address,address,uint256)',
  'setBalance(address,uint256)',
  'pause()',
  'unpause()',
  'setPaused(bool)',
  'enableTrading()',
  'setTradingEnabled(bool)',
  'setTrading(bool)',
  'openTrading()',
  'setTaxes(uint256,uint256,uint256)',
  'setFees(uint256,uint256)',
  'setFee(uint256)',
  'setBuyFee(uint256)',
  'setSellFee(uint256)',
  'setTaxFeePercent(uint256)',
  'updateFees(uint256,uint256,uint256)',
  'setAccountTax(address,uint256)',
  'setBlacklisted(address,bool)',
  'blacklist(address)',
  'blacklistAddress(address,bool)',
  'addToBlacklist(address)',
  'setBots(address[],bool)',
  'excludeFromFee(address)',
  'includeInFee(address)',
  'excludeFromFees(address,bool)',
  'setMaxTxAmount(uint256)',
  'setMaxWalletSize(uint256)',
  'setCooldownEnabled(bool)',
  'destroy()',
  'kill()',
  'initialize(string,string,uint256,address)',
  'initialize(string,string,uint8,uint256,address)',
]

const STANDARD_SELECTORS = new Set<Hex>(STANDARD.map((s) => toFunctionSelector(s)))
const NAMES = new Map<Hex, string>([...STANDARD, ...KNOWN].map((s) => [toFunctionSelector(s), s]))

/** Whether the selector is a standard ERC-20 / ownership function (never a candidate owner power). */
export function isStandardSelector(selector: Hex): boolean {
  return STANDARD_SELECTORS.has(selector.toLowerCase() as Hex)
}

/** The known signature of a selector, or "". */
export function signatureOf(selector: Hex): string {
  return NAMES.get(selector.toLowerCase() as Hex) ?? ''
}
