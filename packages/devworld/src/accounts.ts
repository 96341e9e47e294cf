import { getAddress, keccak256, stringToBytes } from 'viem/utils'
import type { Address } from 'viem'
import { DevnetError } from './rpc.ts'

/** The dead address LP and tokens are sent to when burned. */
export const DEAD_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD'

/** Dev accounts anvil creates (from its default mnemonic); the world gives each a role. */
export const WORLD_DEV_ACCOUNTS = 20
/** Addresses that only ever receive tokens (no key, no transactions). */
export const WORLD_RECEIVERS = 24

/** Who is who in the local world. */
export interface WorldAccounts {
  /** Deploys the DEX and every token, seeds the pools, owns what is owned. */
  deployer: Address
  /** The hidden-owner token's second admin, who keeps minting after ownership is renounced. */
  hiddenAdmin: Address
  /** Receives the tax tokens' fees. */
  feeWallet: Address
  /** Adds liquidity next to the deployer in a few pools. */
  lpProvider: Address
  /** Ordinary addresses that buy, sell and transfer. */
  traders: Address[]
  /** Ordinary addresses that only receive transfers. */
  receivers: Address[]
}

/**
 * Gives roles to anvil's dev accounts (in `eth_accounts` order) and derives the receivers.
 *
 * @example
 * const accounts = worldAccounts(await rpc.request('eth_accounts'))
 */
export function worldAccounts(devAccounts: readonly string[]): WorldAccounts {
  if (devAccounts.length < WORLD_DEV_ACCOUNTS) {
    throw new DevnetError(`anvil offers ${devAccounts.length} dev accounts, the world needs ${WORLD_DEV_ACCOUNTS}`)
  }
  const dev = devAccounts.map((a) => getAddress(a))
  const receivers: Address[] = []
  for (let i = 0; i < WORLD_RECEIVERS; i++) {
    receivers.push(getAddress(`0x${keccak256(stringToBytes(`tokenrisk devnet receiver ${i}`)).slice(-40)}`))
  }
  return {
    deployer: dev[0],
    hiddenAdmin: dev[1],
    feeWallet: dev[2],
    lpProvider: dev[3],
    traders: dev.slice(4, WORLD_DEV_ACCOUNTS),
    receivers,
  }
}
