// LP locker adapters, proven against lockers that answer the read interfaces of UNCX V2 and
// PinkLock02: active locks count as locked liquidity and show as upcoming unlocks; withdrawn or
// released locks, and the released part of a lock, do not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, maxUint256, parseAbi, parseEther, type Abi, type Address, type PublicClient } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import { loadArtifact } from './helpers/contracts.ts'
import { TEST_DEVNET_DIR } from './helpers/paths.ts'
import { WORLD_TX_GAS } from '@tokenrisk/devworld/chain'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { createMemoryHolderStore } from '../src/store/holder-index.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { createDeployer, receiptOf, type Deployer } from './fixtures/evm/deploy.ts'
import { localChains } from '@tokenrisk/devworld/local-chain'

const DATA_DIR = TEST_DEVNET_DIR
const DAY = 86_400
const silent = { info: () => {}, warn: () => {}, error: () => {} }
const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)'])
const erc20 = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)'])

let world: World
let deployer: Deployer
let pub: PublicClient
let tmp: string
let token: Address
let pair: Address
let uncx: Address
let pink: Address
let now: number
/** LP units locked by each lock, in the order they were made. */
let unit: bigint
let lpSupply: bigint

async function send(to: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
  const wallet = createWalletClient({ chain: foundry, transport: http(world.rpcUrl), account: deployer.account })
  const hash = await wallet.writeContract({ address: to, abi, functionName, args: args as unknown[], gas: WORLD_TX_GAS })
  const receipt = await receiptOf(pub, hash)
  if (receipt.status !== 'success') throw new Error(`${functionName} reverted`)
}

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  const m = world.manifest
  pub = createPublicClient({ chain: foundry, transport: http(world.rpcUrl) }) as PublicClient
  deployer = await createDeployer(world.rpcUrl)
  token = await deployer.deploy('LockerTestToken', [parseEther('1000000')])
  await deployer.addLiquidityEth(token, m.contracts.v2Router, parseEther('500000'), parseEther('20'))
  pair = await pub.readContract({ address: m.contracts.v2Factory, abi: factoryAbi, functionName: 'getPair', args: [token, m.contracts.weth] })
  uncx = await deployer.deploy('UncxStyleLocker')
  pink = await deployer.deploy('PinkStyleLocker')
  lpSupply = await pub.readContract({ address: pair, abi: erc20, functionName: 'totalSupply' })
  unit = lpSupply / 20n
  now = Number((await pub.getBlock()).timestamp)
  for (const locker of [uncx, pink]) await send(pair, erc20, 'approve', [locker, maxUint256])
  const uncxAbi = loadArtifact('UncxStyleLocker').abi as Abi
  const pinkAbi = loadArtifact('PinkStyleLocker').abi as Abi
  // UNCX style: one active lock (1 unit, 30 days), one already withdrawn.
  await send(uncx, uncxAbi, 'lockLPToken', [pair, unit, BigInt(now + 30 * DAY)])
  await send(uncx, uncxAbi, 'lockLPToken', [pair, unit, BigInt(now - 1)])
  await send(uncx, uncxAbi, 'withdraw', [pair, 1n])
  // PinkLock style: a plain lock (2 units, 90 days), a vesting lock (3 units, first release in
  // 10 days), and a plain lock already released.
  await send(pink, pinkAbi, 'lock', [pair, 2n * unit, BigInt(now + 90 * DAY), 'team liquidity'])
  await send(pink, pinkAbi, 'vestingLock', [pair, 3n * unit, BigInt(now + 10 * DAY), 2000n, BigInt(30 * DAY), 2000n, 'vesting'])
  await send(pink, pinkAbi, 'lock', [pair, unit, BigInt(now - 1), 'released'])
  await send(pink, pinkAbi, 'unlock', [2n])
  tmp = mkdtempSync(join(tmpdir(), 'tokenrisk-lockers-'))
}, 240_000)

afterAll(async () => {
  await world?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

function serviceWith(lockers: unknown[]) {
  const file = join(tmp, `chains-${lockers.length}.json`)
  writeFileSync(file, JSON.stringify([{ chainId: 31337, lockers }]))
  const registry = loadChainRegistry({ chains: localChains(world.manifest), chainsFile: file })
  return createEvmReportService({ registry, cache: createMemoryCache(), holderStore: createMemoryHolderStore(), logger: silent, options: { deadlineMs: 20_000 } })
}

const percentOf = (amount: bigint) => (Number(amount) / Number(lpSupply)) * 100
const whole = (amount: bigint) => Number(amount) / 1e18

describe('LP locker adapters', () => {
  it('reads UNCX-style and PinkLock-style locks: active ones are locked liquidity and upcoming unlocks', async () => {
    const report = await serviceWith([
      { name: 'UNCX-style', type: 'uncx-v2', address: uncx },
      { name: 'PinkLock-style', type: 'pinklock-v2', address: pink },
    ]).report(31337, token, {})
    const details = report.marketChecks.liquidityChecks.liquidityLockedDetails
    // 1 (UNCX) + 2 + 3 (PinkLock) units are locked; the withdrawn and released locks are not.
    expect(Number(details.totalLiquidityPercentageLocked.number)).toBeCloseTo(percentOf(6n * unit), 2)
    const unlocks = details.upcomingUnlockDetails.map((u) => ({ time: u.time, tag: u.tag, balance: Number(u.balance) }))
    expect(unlocks).toHaveLength(3)
    expect(unlocks).toEqual(
      expect.arrayContaining([
        { time: new Date((now + 30 * DAY) * 1000).toISOString(), tag: expect.stringMatching(/UNCX-style/), balance: expect.closeTo(whole(unit), 6) },
        { time: new Date((now + 90 * DAY) * 1000).toISOString(), tag: expect.stringMatching(/PinkLock-style/), balance: expect.closeTo(whole(2n * unit), 6) },
        // A vesting lock counts until its first release.
        { time: new Date((now + 10 * DAY) * 1000).toISOString(), tag: expect.stringMatching(/PinkLock-style/), balance: expect.closeTo(whole(3n * unit), 6) },
      ]),
    )
    // Both lockers hold LP tokens and are marked as locked holders.
    const lpHolders = report.marketChecks.liquidityChecks.keyLpHolders
    for (const locker of [uncx, pink]) {
      const holder = lpHolders.find((h) => h.address.toLowerCase() === locker.toLowerCase())
      expect(holder?.isLocked, `LP holder ${locker}`).toBe('1')
    }
  })

  it('counts nothing as locked when the chain lists no locker, and reads the same contracts differently typed as nothing', async () => {
    const none = await serviceWith([]).report(31337, token, {})
    expect(none.marketChecks.liquidityChecks.liquidityLockedDetails.upcomingUnlockDetails).toEqual([])
    expect(Number(none.marketChecks.liquidityChecks.liquidityLockedDetails.totalLiquidityPercentageLocked.number)).toBe(0)
    // A PinkLock-style locker declared as UNCX (and the reverse) answers no lock the adapter can read.
    const swapped = await serviceWith([
      { name: 'wrong-a', type: 'uncx-v2', address: pink },
      { name: 'wrong-b', type: 'pinklock-v2', address: uncx },
    ]).report(31337, token, {})
    expect(swapped.marketChecks.liquidityChecks.liquidityLockedDetails.upcomingUnlockDetails).toEqual([])
  })

  it('rejects an unknown locker type in the chains file, naming the field', () => {
    const file = join(tmp, 'bad-locker.json')
    writeFileSync(file, JSON.stringify([{ chainId: 31337, lockers: [{ name: 'x', type: 'pinklock-v9', address: pink }] }]))
    expect(() => loadChainRegistry({ chains: localChains(world.manifest), chainsFile: file })).toThrow(/\[0\]\.lockers\[0\]\.type: must be one of "tokenrisk-locker", "uncx-v2", "pinklock-v2"/)
  })
})
