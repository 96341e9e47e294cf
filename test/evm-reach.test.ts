// The owner's reach: addresses packed in storage read at every byte offset and kept only when
// plausible; against the local world, the zoo tokens of each mechanism and their twins.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress, type Address, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryCache } from '../src/cache/cache.ts'
import { loadChainRegistry } from '../src/config/chains.ts'
import type { TokenReport } from '../src/contract/token-report.ts'
import type { EvmFacts } from '../src/engines/evm/facts.ts'
import { createEvmReportService } from '../src/engines/evm/service.ts'
import { isPlausible, slotAddressCandidates, slotLabel, type SlotAccount } from '../src/engines/evm/collect/slot-accounts.ts'
import { createDatabase, type Store } from '../src/store/database.ts'
import { startWorld, type World } from '@tokenrisk/devworld/world'
import { localChains } from '@tokenrisk/devworld/local-chain'
import { PROJECT_ROOT } from './helpers/paths.ts'

const ADMIN = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const word = (v: bigint): Hex => `0x${v.toString(16).padStart(64, '0')}`

describe('addresses packed in storage', () => {
  it('finds an address one byte up behind a bool and behind a uint8, and alone in its slot', () => {
    const slots = {
      '0x5': word((BigInt(ADMIN) << 8n) | 1n), // bool true, then the address
      '0x6': word((BigInt(ADMIN) << 8n) | 18n), // uint8 18, then the address
      '0x7': word(BigInt('0x90f79bf6eb2c4f870365e785982e1f101e93b906')),
    }
    const found = slotAddressCandidates({ slots })
    expect(found).toContainEqual({ slot: 5, offset: 1, address: getAddress(ADMIN) })
    expect(found.find((f) => f.slot === 7 && f.offset === 0)?.address).toBe(getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906'))
    // The low 20 bytes of the packed slot are no address of anyone, yet a candidate until checked.
    const low = found.find((f) => f.slot === 5 && f.offset === 0)
    expect(low?.address).not.toBe(getAddress(ADMIN))
    expect(slotLabel({ slot: 5, offset: 1, address: getAddress(ADMIN) })).toBe('storage slot 5, byte 1')
  })

  it('skips numbers and short strings', () => {
    const text = Buffer.from('Clean Token', 'utf8').toString('hex').padEnd(62, '0') + (11 * 2).toString(16).padStart(2, '0')
    const slots = { '0x0': word(10n ** 24n), '0x3': `0x${text}` as Hex, '0x4': word(0n) }
    expect(slotAddressCandidates({ slots })).toEqual([])
  })

  it('keeps a candidate only when it is an account: code, a balance, a nonce, or named in the logs', () => {
    const base: SlotAccount = { slot: 5, offset: 0, address: getAddress(ADMIN), codeSize: 0n, tokenBalance: 0n, nativeBalance: 0n, nonce: 0n }
    expect(isPlausible(base)).toBe(false)
    expect(isPlausible({ ...base, nonce: 1n })).toBe(true)
    expect(isPlausible({ ...base, nativeBalance: 1n })).toBe(true)
    expect(isPlausible({ ...base, tokenBalance: 1n })).toBe(true)
    expect(isPlausible({ ...base, codeSize: 100n })).toBe(true)
    expect(isPlausible(base, new Set([ADMIN]))).toBe(true)
    // A nonce that could not be read is not evidence of absence when nothing else was read either.
    expect(isPlausible({ ...base, codeSize: undefined, tokenBalance: undefined, nativeBalance: undefined, nonce: undefined })).toBe(true)
  })
})

// Shared with the other world tests, so that the saved world is reused between runs.
const DATA_DIR = join(PROJECT_ROOT, 'data', 'test-devnet')
const silent = { info: () => {}, warn: () => {}, error: () => {} }
const KEYS = ['packed-admins', 'packed-records', 'clean']

let world: World
let store: Store
let storeDir: string
const reports = new Map<string, { report: TokenReport; facts: EvmFacts }>()

beforeAll(async () => {
  world = await startWorld({ dataDir: DATA_DIR })
  storeDir = mkdtempSync(join(tmpdir(), 'tokenrisk-evm-reach-'))
  store = await createDatabase({ dataDir: storeDir })
  const service = createEvmReportService({ registry: loadChainRegistry({ chains: localChains(world.manifest) }), cache: createMemoryCache(), store, logger: silent })
  for (const key of KEYS) {
    const t = world.manifest.tokens.find((x) => x.key === key)!
    reports.set(key, await service.reportWithFacts(31337, t.address as Address, {}))
  }
}, 300_000)

afterAll(async () => {
  await store?.close()
  if (storeDir) rmSync(storeDir, { recursive: true, force: true })
  await world?.stop()
})

const get = (key: string) => reports.get(key)!

describe('the zoo of the owner\'s reach', () => {
  it('packed-admins: both admins, behind a bool and behind a uint8, are tried and found minting', () => {
    const { report } = get('packed-admins')
    const hidden = report.codeChecks.ownershipChecks.hiddenOwner
    expect(hidden.status).toBe('1')
    expect(hidden.comment).toContain(`${getAddress(world.manifest.accounts!.hiddenAdmin)} (storage slot 7, byte 1)`)
    expect(hidden.comment).toContain(`${getAddress(world.manifest.accounts!.lpProvider)} (storage slot 9, byte 1)`)
  })

  it('packed-records: the packed accounts are tried and hold nothing; no phantom account is named', () => {
    const { report, facts } = get('packed-records')
    const hidden = report.codeChecks.ownershipChecks.hiddenOwner
    expect(hidden.status).toBe('0')
    expect(hidden.comment).toContain(`${getAddress(world.manifest.accounts!.feeWallet)} (storage slot 7, byte 1)`)
    expect(hidden.comment).toContain(`${getAddress(world.manifest.accounts!.lpProvider)} (storage slot 9, byte 1)`)
    // The owner packed beside the decimals (slot 5, byte 1) is read as itself: no other account from slot 5.
    expect(facts.powers.candidates.filter((c) => /storage slot 5\b/.test(c.source))).toEqual([])
    const clean = get('clean')
    expect(clean.facts.powers.candidates.filter((c) => c.source.startsWith('storage'))).toEqual([])
  })
})
