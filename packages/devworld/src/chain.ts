import { decodeFunctionResult, encodeDeployData, encodeFunctionData, getAddress } from 'viem/utils'
import type { Abi, Address, Hex } from 'viem'
import { DevnetError, RpcRequestError, type DevnetRpc } from './rpc.ts'

/** Gas limit of a deployment, and of any other world transaction. */
export const WORLD_DEPLOY_GAS = 15_000_000n
export const WORLD_TX_GAS = 8_000_000n
/**
 * Block gas limit while the world is built (many transactions go into one block), and the
 * ordinary limit the chain has once it is ready.
 */
export const BUILD_BLOCK_GAS_LIMIT = 20_000_000_000n
export const READY_BLOCK_GAS_LIMIT = 30_000_000n

export interface Deployable {
  abi: Abi | readonly unknown[]
  bytecode: Hex
}

interface QueuedTx {
  label: string
  request: { from: Address; to?: Address; data: Hex; value: Hex; gas: Hex }
}

interface SentTx extends QueuedTx {
  hash: Hex
}

interface Receipt {
  status: Hex
  blockNumber: Hex
  contractAddress: Address | null
  transactionHash: Hex
}

export interface Deployment {
  address: Address
  hash: Hex
  blockNumber: number
}

/**
 * Sends the world's transactions to anvil with automine off: `send` only queues a transaction
 * here; `mine` hands everything queued to anvil in one JSON-RPC batch (with explicit nonces),
 * mines it into one block and fails with the revert reason of the first transaction that failed.
 * Within a block, transactions of one sender run in the order they were queued, but those of
 * different senders in any order: a block must not hold two transactions of different senders
 * where one needs the other to succeed. Reads see mined state only. Deployments are mined at
 * once, since their address is needed.
 */
export interface WorldChain {
  rpc: DevnetRpc
  /** Turns automine off and raises the block gas limit for building. */
  begin(): Promise<void>
  /** Restores the ordinary block gas limit and automine, mining one last block at `timestamp`. */
  end(timestamp: number): Promise<void>
  deploy(from: Address, contract: Deployable, args: readonly unknown[], label: string): Promise<Deployment>
  /** Deploys raw creation code (no ABI), e.g. an EIP-1167 clone. */
  deployCode(from: Address, initCode: Hex, label: string): Promise<Deployment>
  send(
    from: Address,
    to: Address,
    abi: Abi | readonly unknown[],
    functionName: string,
    args: readonly unknown[],
    options?: { value?: bigint; label?: string },
  ): Promise<void>
  read<T>(to: Address, abi: Abi | readonly unknown[], functionName: string, args?: readonly unknown[]): Promise<T>
  /** Mines the queued transactions into one block (at `timestamp` when given) and checks them. */
  mine(timestamp?: number): Promise<void>
  /** Transactions sent so far. */
  txCount(): number
}

const toHex = (value: bigint): Hex => `0x${value.toString(16)}`

export function createWorldChain(rpc: DevnetRpc): WorldChain {
  let queue: QueuedTx[] = []
  let count = 0
  const nonces = new Map<Address, bigint>()

  function enqueue(request: QueuedTx['request'], label: string): void {
    queue.push({ label, request })
    count++
  }

  /** Hands the queue to anvil, each sender's transactions with consecutive nonces. */
  async function submit(): Promise<SentTx[]> {
    const batch = queue
    queue = []
    const unknown = [...new Set(batch.map((tx) => tx.request.from))].filter((from) => !nonces.has(from))
    const counts = await rpc.batch<Hex>(unknown.map((from) => ({ method: 'eth_getTransactionCount', params: [from, 'pending'] })))
    unknown.forEach((from, i) => nonces.set(from, BigInt(counts[i])))
    const requests = batch.map((tx) => {
      const nonce = nonces.get(tx.request.from) ?? 0n
      nonces.set(tx.request.from, nonce + 1n)
      return { ...tx.request, nonce: toHex(nonce) }
    })
    let hashes: Hex[]
    try {
      hashes = await rpc.batch<Hex>(requests.map((request) => ({ method: 'eth_sendTransaction', params: [request] })))
    } catch (cause) {
      throw new DevnetError('anvil refused a world transaction', { cause, details: cause instanceof Error ? cause.message : undefined })
    }
    return batch.map((tx, i) => ({ ...tx, hash: hashes[i] }))
  }

  async function revertReason(tx: SentTx, blockNumber: Hex): Promise<string> {
    const parent = toHex(BigInt(blockNumber) - 1n)
    try {
      await rpc.request('eth_call', [tx.request, parent])
      return 'reverted (replayed on the parent block without error: it depended on an earlier transaction of its block)'
    } catch (error) {
      return error instanceof RpcRequestError ? error.message : String(error)
    }
  }

  async function mine(timestamp?: number): Promise<void> {
    const sent = await submit()
    if (timestamp !== undefined) await rpc.request('evm_setNextBlockTimestamp', [timestamp])
    await rpc.request('evm_mine', [])
    if (sent.length === 0) return
    const receipts = await rpc.batch<Receipt | null>(sent.map((tx) => ({ method: 'eth_getTransactionReceipt', params: [tx.hash] })))
    for (let i = 0; i < sent.length; i++) {
      const receipt = receipts[i]
      const tx = sent[i]
      if (!receipt) throw new DevnetError(`world transaction "${tx.label}" was not mined`, { details: tx.hash })
      if (receipt.status !== '0x1') {
        const reason = await revertReason(tx, receipt.blockNumber)
        throw new DevnetError(`world transaction "${tx.label}" failed: ${reason}`, { details: tx.hash })
      }
    }
  }

  async function deployCode(from: Address, initCode: Hex, label: string): Promise<Deployment> {
    if (queue.length > 0) await mine()
    enqueue({ from, data: initCode, value: '0x0', gas: toHex(WORLD_DEPLOY_GAS) }, label)
    const [{ hash }] = await submit()
    await mine()
    const receipt = await rpc.request<Receipt>('eth_getTransactionReceipt', [hash])
    if (!receipt.contractAddress) throw new DevnetError(`deployment "${label}" created no contract`)
    return { address: getAddress(receipt.contractAddress), hash, blockNumber: Number(BigInt(receipt.blockNumber)) }
  }

  return {
    rpc,
    async begin() {
      await rpc.request('evm_setAutomine', [false])
      await rpc.request('evm_setBlockGasLimit', [toHex(BUILD_BLOCK_GAS_LIMIT)])
    },
    async end(timestamp) {
      await mine()
      await rpc.request('evm_setBlockGasLimit', [toHex(READY_BLOCK_GAS_LIMIT)])
      await mine(timestamp)
      await rpc.request('evm_setAutomine', [true])
    },
    deployCode,
    async deploy(from, contract, args, label) {
      const data = encodeDeployData({ abi: contract.abi as Abi, bytecode: contract.bytecode, args: args as unknown[] })
      return deployCode(from, data, label)
    },
    async send(from, to, abi, functionName, args, options = {}) {
      const data = encodeFunctionData({ abi: abi as Abi, functionName, args: args as unknown[] })
      enqueue({ from, to, data, value: toHex(options.value ?? 0n), gas: toHex(WORLD_TX_GAS) }, options.label ?? functionName)
    },
    async read<T>(to: Address, abi: Abi | readonly unknown[], functionName: string, args: readonly unknown[] = []) {
      const data = encodeFunctionData({ abi: abi as Abi, functionName, args: args as unknown[] })
      const result = await rpc.request<Hex>('eth_call', [{ to, data }, 'latest'])
      return decodeFunctionResult({ abi: abi as Abi, functionName, data: result }) as T
    },
    mine,
    txCount: () => count,
  }
}
