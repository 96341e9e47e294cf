import { contractInfo } from 'evmole'
import { getAddress, keccak256 } from 'viem/utils'
import type { Address, Hex } from 'viem'

/**
 * What the bytecode of a contract says, read with evmole (selectors, argument types, state
 * mutability, control-flow graph) — never with a home-made disassembler. Results are cached by
 * code hash: clones and popular implementations share one analysis.
 */
export interface CodeFunction {
  /** 0x-prefixed 4-byte selector. */
  selector: Hex
  /** Argument types in canonical form, e.g. "address,uint256" ("" when none or unknown). */
  arguments: string
  stateMutability: 'pure' | 'view' | 'payable' | 'nonpayable' | ''
}

export interface CodeAnalysis {
  size: number
  codeHash: Hex
  functions: CodeFunction[]
  selectors: Set<Hex>
  /** Opcodes that sit in reachable basic blocks (never in data or the metadata trailer). */
  reachable: { selfDestruct: boolean; delegateCall: boolean; call: boolean; callCode: boolean; staticCall: boolean; create: boolean }
  /**
   * 32-byte constants the reachable code pushes (PUSH32), in code order, at most
   * `MAX_CODE_CONSTANTS`: role identifiers of access control are among them.
   */
  constants32: Hex[]
  /**
   * Addresses the reachable code pushes (PUSH20, and PUSH32 words holding an address: immutables
   * written at construction), at most `MAX_CODE_CONSTANTS`: accounts written into the code (a fee
   * wallet, an immutable minter), which a call may credit or which may call.
   */
  addresses: Address[]
  /** EIP-1167 minimal proxy: the implementation baked into the code. */
  eip1167Target?: Address
  /** EIP-7702 delegation designator (an account delegating to code). */
  delegationTarget?: Address
}

/** 32-byte constants kept per analysis. */
export const MAX_CODE_CONSTANTS = 32

/** Analyses kept in memory (by code hash). */
export const CODE_ANALYSIS_CACHE_SIZE = 2_000

const cache = new Map<Hex, CodeAnalysis>()

const EIP1167 = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i
const EIP7702 = /^0xef0100([0-9a-f]{40})$/i

/**
 * Analyses runtime bytecode.
 *
 * @example
 * const a = analyzeCode(code)
 * a.selectors.has('0x40c10f19') // mint(address,uint256) present
 * a.reachable.selfDestruct      // SELFDESTRUCT reachable
 */
export function analyzeCode(code: Hex): CodeAnalysis {
  const codeHash = keccak256(code)
  const hit = cache.get(codeHash)
  if (hit) return hit
  const analysis = analyzeUncached(code, codeHash)
  cache.set(codeHash, analysis)
  if (cache.size > CODE_ANALYSIS_CACHE_SIZE) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
  return analysis
}

function analyzeUncached(code: Hex, codeHash: Hex): CodeAnalysis {
  const size = (code.length - 2) / 2
  const base: CodeAnalysis = {
    size,
    codeHash,
    functions: [],
    selectors: new Set(),
    reachable: { selfDestruct: false, delegateCall: false, call: false, callCode: false, staticCall: false, create: false },
    constants32: [],
    addresses: [],
  }
  if (size === 0) return base
  const clone = EIP1167.exec(code)
  if (clone) base.eip1167Target = getAddress(`0x${clone[1]}`)
  const delegation = EIP7702.exec(code)
  if (delegation) {
    base.delegationTarget = getAddress(`0x${delegation[1]}`)
    return base
  }
  const info = contractInfo(code, {
    selectors: true,
    arguments: true,
    stateMutability: true,
    disassemble: true,
    controlFlowGraph: true,
  })
  for (const f of info.functions ?? []) {
    const selector = `0x${f.selector.toLowerCase()}` as Hex
    const mutability = f.stateMutability
    base.functions.push({
      selector,
      arguments: f.arguments ?? '',
      stateMutability: mutability === 'pure' || mutability === 'view' || mutability === 'payable' || mutability === 'nonpayable' ? mutability : '',
    })
    base.selectors.add(selector)
  }
  // Reachability: an opcode counts only inside a basic block of the control-flow graph.
  // evmole hands blocks out as objects or as Maps depending on its build: read both.
  const field = (b: unknown, k: 'start' | 'end'): number => Number(b instanceof Map ? b.get(k) : (b as Record<string, unknown>)[k])
  const blocks = (info.controlFlowGraph?.blocks ?? [])
    .map((b) => [field(b, 'start'), field(b, 'end')] as const)
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end))
    .sort((a, b) => a[0] - b[0])
  const inBlock = (offset: number): boolean => {
    let lo = 0
    let hi = blocks.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const [start, end] = blocks[mid]
      if (offset < start) hi = mid - 1
      else if (offset > end) lo = mid + 1
      else return true
    }
    return false
  }
  const constants = new Set<Hex>()
  const addresses = new Set<string>()
  for (const [offset, text] of info.disassembled ?? []) {
    const op = text.split(' ', 1)[0]
    if (op === 'PUSH32' && inBlock(offset)) {
      const operand = text.slice(7).trim().toLowerCase().replace(/^0x/, '').padStart(64, '0')
      if (!/^[0-9a-f]{64}$/.test(operand)) continue
      // An account written into the code at construction (an immutable): a word holding an address.
      if (operand.startsWith('0'.repeat(24)) && isAddressOperand(operand.slice(24))) {
        if (addresses.size < MAX_CODE_CONSTANTS) addresses.add(getAddress(`0x${operand.slice(24)}`))
      } else if (constants.size < MAX_CODE_CONSTANTS) constants.add(`0x${operand}` as Hex)
      continue
    }
    if (op === 'PUSH20' && addresses.size < MAX_CODE_CONSTANTS && inBlock(offset)) {
      const operand = text.slice(7).trim().toLowerCase().replace(/^0x/, '').padStart(40, '0')
      if (isAddressOperand(operand)) addresses.add(getAddress(`0x${operand}`))
      continue
    }
    if (op !== 'SELFDESTRUCT' && op !== 'DELEGATECALL' && op !== 'CALL' && op !== 'CALLCODE' && op !== 'STATICCALL' && op !== 'CREATE' && op !== 'CREATE2') continue
    if (!inBlock(offset)) continue
    if (op === 'SELFDESTRUCT') base.reachable.selfDestruct = true
    else if (op === 'DELEGATECALL') base.reachable.delegateCall = true
    else if (op === 'CALL') base.reachable.call = true
    else if (op === 'CALLCODE') base.reachable.callCode = true
    else if (op === 'STATICCALL') base.reachable.staticCall = true
    else base.reachable.create = true
  }
  base.constants32 = [...constants]
  base.addresses = [...addresses] as Address[]
  return base
}

/** Whether 40 hex digits are an address, not a mask or a small number pushed wide: at least 15 of its 20 bytes set, not all ones. */
function isAddressOperand(hex: string): boolean {
  return /^[0-9a-f]{40}$/.test(hex) && hex.match(/../g)!.filter((b) => b !== '00').length >= 15 && !/^f+$/.test(hex)
}
