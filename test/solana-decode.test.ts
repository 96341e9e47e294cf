import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Address } from '@solana/kit'
import { buildSolanaWorld, type SolanaWorld } from '@tokenrisk/devworld/solana/world'
import { decodeTokenProgramAccount } from '../src/engines/solana/decode/token.ts'
import { decodeMetaplexMetadata, findMetaplexMetadataAddress } from '../src/engines/solana/decode/metaplex.ts'
import { POOL_VENUES } from '../src/engines/solana/venues/registry.ts'
import { decodePumpCurve, PUMP_CURVE_NAME, PUMP_PROGRAM } from '../src/engines/solana/venues/pump-curve.ts'
import { decodeProgramAccount, decodeProgramDataAuthority } from '../src/engines/solana/decode/loader.ts'
import { MalformedAccountError } from '../src/engines/solana/decode/reader.ts'
import { tokenProgramName } from '../src/engines/solana/programs.ts'
import { stableInvariant, stableSpotPrice } from '../src/engines/solana/venues/stable-curve.ts'
import { METEORA_DAMM_V1 } from '../src/engines/solana/venues/meteora-damm-v1.ts'
import { DAMM_V1_POOL } from '../src/engines/solana/venues/program-layouts.ts'

/**
 * The decoders read accounts the real programs wrote (LiteSVM) and reject every truncation or
 * corruption of them with MalformedAccountError, never another exception.
 */

let world: SolanaWorld
beforeAll(async () => {
  world = await buildSolanaWorld()
})
afterAll(() => undefined)

const raw = (address: string) => {
  const account = world.ledger.svm.getAccount(address as Address)
  if (!account.exists) throw new Error(`no account ${address}`)
  return { owner: account.programAddress as string, data: new Uint8Array(account.data), executable: account.executable }
}
const mint = (key: string) => world.manifest.mints.find((m) => m.key === key)!

/** Decodes `data` cut at every length and with every single byte flipped to 0xff. */
function hammer(data: Uint8Array, decode: (d: Uint8Array) => unknown): number {
  let rejected = 0
  const attempt = (d: Uint8Array) => {
    try {
      decode(d)
    } catch (error) {
      if (!(error instanceof MalformedAccountError)) throw error
      rejected++
    }
  }
  for (let n = 0; n < data.length; n++) attempt(data.subarray(0, n))
  for (let i = 0; i < data.length; i++) {
    const copy = new Uint8Array(data)
    copy[i] = 0xff
    attempt(copy)
  }
  return rejected
}

describe('token program accounts written by SPL Token and Token-2022', () => {
  it('decode every demo mint with the authorities and extensions the world set', () => {
    for (const m of world.manifest.mints) {
      const { owner, data } = raw(m.address)
      const decoded = decodeTokenProgramAccount(data, tokenProgramName(owner)!)
      expect(decoded.kind, m.key).toBe('mint')
      if (decoded.kind !== 'mint') continue
      expect(decoded.mint.supply.toString(), m.key).toBe(m.supply)
      expect(decoded.mint.decimals, m.key).toBe(m.decimals)
      expect(decoded.mint.mintAuthority ?? '', m.key).toBe(m.mintAuthority)
      expect(decoded.mint.freezeAuthority ?? '', m.key).toBe(m.freezeAuthority)
    }
  })

  it('read the Token-2022 extension values', () => {
    const fee = decodeTokenProgramAccount(raw(mint('t22-transfer-fee').address).data, 'token-2022')
    if (fee.kind !== 'mint') throw new Error('not a mint')
    expect(fee.mint.extensions.transferFeeConfig?.older.basisPoints).toBe(250)
    expect(fee.mint.extensions.transferFeeConfig?.newer.basisPoints).toBe(1000)
    expect(fee.mint.extensions.transferFeeConfig?.newer.epoch).toBe(BigInt(world.manifest.epoch) + 2n)
    expect(fee.mint.extensions.transferFeeConfig?.configAuthority).toBe(mint('t22-transfer-fee').creator)
    const paused = decodeTokenProgramAccount(raw(mint('t22-paused').address).data, 'token-2022')
    if (paused.kind !== 'mint') throw new Error('not a mint')
    expect(paused.mint.extensions.pausable).toEqual({ authority: mint('t22-paused').creator, paused: true })
    const meta = decodeTokenProgramAccount(raw(mint('t22-clean').address).data, 'token-2022')
    if (meta.kind !== 'mint') throw new Error('not a mint')
    expect(meta.mint.extensions.tokenMetadata).toMatchObject({ name: 'Clean Extensions', symbol: 'T22', updateAuthority: null, mint: mint('t22-clean').address })
    const scaled = decodeTokenProgramAccount(raw(mint('t22-scaled-ui').address).data, 'token-2022')
    if (scaled.kind !== 'mint') throw new Error('not a mint')
    expect(scaled.mint.extensions.scaledUiAmount?.multiplier).toBe(1.5)
  })

  it('tell token accounts (with and without extensions) from mints', () => {
    for (const key of ['clean-spl', 't22-non-transferable']) {
      const holder = mint(key).holders.top[0]
      const { owner, data } = raw(holder.tokenAccount)
      const decoded = decodeTokenProgramAccount(data, tokenProgramName(owner)!)
      expect(decoded.kind).toBe('token-account')
      if (decoded.kind === 'token-account') {
        expect(decoded.account.mint).toBe(mint(key).address)
        expect(decoded.account.owner).toBe(holder.owner)
        expect(decoded.account.amount.toString()).toBe(holder.balance)
      }
    }
  })

  it('reject every truncation and corruption with MalformedAccountError only', () => {
    for (const key of ['clean-spl', 't22-transfer-fee', 't22-clean', 't22-hook-upgradeable']) {
      const { owner, data } = raw(mint(key).address)
      const rejected = hammer(data, (d) => decodeTokenProgramAccount(d, tokenProgramName(owner)!))
      expect(rejected, key).toBeGreaterThan(data.length / 2)
    }
  })

  it('reject a non-zero padding and an unknown account type in Token-2022 mints', () => {
    const data = new Uint8Array(raw(mint('t22-clean').address).data)
    const padded = new Uint8Array(data)
    padded[100] = 1
    expect(() => decodeTokenProgramAccount(padded, 'token-2022')).toThrow(/padding/)
    const typed = new Uint8Array(data)
    typed[165] = 9
    expect(() => decodeTokenProgramAccount(typed, 'token-2022')).toThrow(/account type byte is 9/)
    expect(() => decodeTokenProgramAccount(data, 'spl-token')).toThrow(MalformedAccountError)
  })
})

describe('Metaplex metadata, loader and pool layouts', () => {
  it('decode Metaplex metadata and reject corruptions', async () => {
    const m = mint('mutable-metadata-spl')
    const { data } = raw(await findMetaplexMetadataAddress(m.address as Address))
    expect(decodeMetaplexMetadata(data)).toMatchObject({ mint: m.address, name: 'Mutable Name', symbol: 'MUT', isMutable: true, updateAuthority: m.creator, tokenStandard: 'Fungible' })
    hammer(data, decodeMetaplexMetadata)
    const wrongKey = new Uint8Array(data)
    wrongKey[0] = 6
    expect(() => decodeMetaplexMetadata(wrongKey)).toThrow(/not MetadataV1/)
  })

  it('read upgrade authorities the upgradeable loader wrote', () => {
    const upgradeable = raw((decodeTokenProgramAccount(raw(mint('t22-hook-upgradeable').address).data, 'token-2022') as { mint: { extensions: { transferHook?: { programId: string | null } } } }).mint.extensions.transferHook!.programId!)
    const info = decodeProgramAccount(upgradeable.owner, upgradeable.executable, upgradeable.data)
    expect(info.kind).toBe('upgradeable-loader')
    if (info.kind !== 'upgradeable-loader') return
    expect(decodeProgramDataAuthority(raw(info.programData).data)).not.toBeNull()
    const immutable = raw((decodeTokenProgramAccount(raw(mint('t22-hook-immutable').address).data, 'token-2022') as { mint: { extensions: { transferHook?: { programId: string | null } } } }).mint.extensions.transferHook!.programId!)
    const info2 = decodeProgramAccount(immutable.owner, immutable.executable, immutable.data)
    if (info2.kind !== 'upgradeable-loader') throw new Error('expected an upgradeable-loader program')
    expect(decodeProgramDataAuthority(raw(info2.programData).data)).toBeNull()
    expect(() => decodeProgramDataAuthority(upgradeable.data)).toThrow(/not ProgramData/)
  })

  it('decode the pools of every venue and reject wrong sizes and discriminators', () => {
    const pools = world.manifest.mints.flatMap((m) => m.pools)
    expect(new Set(pools.map((p) => p.dex))).toEqual(new Set([...POOL_VENUES.map((a) => a.name), PUMP_CURVE_NAME]))
    for (const pool of pools) {
      const { owner, data } = raw(pool.address)
      if (pool.dex === PUMP_CURVE_NAME) {
        expect(owner).toBe(PUMP_PROGRAM)
        expect(decodePumpCurve(data).complete).toBe(false)
        expect(() => decodePumpCurve(data.subarray(0, 40))).toThrow(MalformedAccountError)
        continue
      }
      const amm = POOL_VENUES.find((v) => v.programId === owner)!
      // A pool whose state is split over two accounts (a DBC curve and its config) is read with both.
      const decode = (d: Uint8Array) => (amm.related ? amm.related.decode(d, raw(amm.related.address(data)).data) : amm.decode(d))
      const decoded = decode(data)
      expect([decoded.mintA, decoded.mintB]).toEqual(pool.pair)
      expect(decoded.lpMint ?? '').toBe(pool.lpMint)
      expect(() => decode(data.subarray(0, amm.id === 'pumpswap' ? 100 : data.length - 1))).toThrow(MalformedAccountError)
      if (amm.id !== 'raydium-amm-v4') {
        const wrong = new Uint8Array(data)
        wrong[0] ^= 1
        expect(() => decode(wrong)).toThrow(/discriminator/)
      }
    }
  })
})

describe('the stable curve of Meteora DAMM v1 pools', () => {
  const E = 10n ** 15n
  it('price at par when balanced, toward the reserves ratio as the amplification falls', () => {
    expect(stableSpotPrice(100n, 5n * E, 5n * E)).toBeCloseTo(1, 9)
    const flat = stableSpotPrice(100n, 10n * E, 6n * E)!
    const curved = stableSpotPrice(1n, 10n * E, 6n * E)!
    expect(flat).toBeGreaterThan(0.95)
    expect(flat).toBeLessThan(1)
    expect(curved).toBeLessThan(flat)
    expect(curved).toBeGreaterThan(0.6)
  })

  it('give the price a small swap pays on the invariant', () => {
    for (const [amp, x, y] of [[100n, 10n * E, 6n * E], [10n, 3n * E, 9n * E], [2_000n, 7n * E, 1n * E]] as const) {
      const price = stableSpotPrice(amp, x, y)!
      const dx = x / 1_000_000n
      // Moving along the price keeps the invariant: what was paid out is priced right.
      const d = stableInvariant(amp, x, y)!
      const after = stableInvariant(amp, x + dx, y - BigInt(Math.round(Number(dx) * price)))!
      expect(Number(after - d) / Number(d)).toBeCloseTo(0, 10)
      const wrong = stableInvariant(amp, x + dx, y - BigInt(Math.round(Number(dx) * price * 1.01)))!
      expect(Number(wrong - d) / Number(d)).toBeLessThan(-1e-10)
    }
    expect(stableSpotPrice(100n, 0n, E)).toBeUndefined()
  })

  it('price the world\'s stable pool on its reserves, and leave a repegged one unpriced', () => {
    const pool = world.manifest.mints.find((m) => m.key === 'meteora-damm-v1-stable')!.pools[0]
    const { data } = raw(pool.address)
    expect(METEORA_DAMM_V1.decode(data).priceOnReserves!(10n * E, 10n * E)).toBeGreaterThan(0)
    const repegged = new Uint8Array(data)
    repegged[DAMM_V1_POOL.fields['curveType.stable.depeg.depegType'].offset] = 1
    expect(METEORA_DAMM_V1.decode(repegged).priceOnReserves!(10n * E, 10n * E)).toBeUndefined()
    const constantProduct = world.manifest.mints.find((m) => m.key === 'meteora-damm-v1')!.pools[0]
    expect(METEORA_DAMM_V1.decode(raw(constantProduct.address).data).priceOnReserves).toBeUndefined()
  })
})
