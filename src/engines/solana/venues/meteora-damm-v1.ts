import type { AmmDefinition } from '../decode/pools.ts'
import { decodeTokenAccountBase, decodeTokenProgramAccount } from '../decode/token.ts'
import { tokenProgramName } from '../programs.ts'
import { DAMM_V1_POOL as L, METEORA_VAULT_VAULT as V } from './program-layouts.ts'
import { expectLayout, fieldReader, mintSearches } from './venue.ts'
import { stableSpotPrice } from './stable-curve.ts'

/** `curveType` of a constant-product pool, and of a stable one (priced on its invariant). */
const CONSTANT_PRODUCT = 0
const STABLE = 1
/** `depegType` of a stable pool whose token B is not a staked token repegged by its virtual price. */
const DEPEG_NONE = 0

/**
 * Meteora DAMM v1 (the dynamic AMM program): a `Pool` as the program's IDL lays it out, whose
 * reserves sit in Meteora vaults shared with other pools: the pool holds LP tokens of each vault
 * (`aVaultLp`, `bVaultLp`), and its reserve is the vault's `totalAmount` times its share of the
 * vault's LP supply (two round trips: the vaults and the pool's vault LP, then the vault LP mints
 * and token accounts).
 * Constant-product pools are priced on their reserves; stable pools on the stable invariant of
 * their reserves scaled by the pool's token multipliers, with its amplification (stable-curve.ts).
 * A stable pool repegging a staked token by its virtual price is left unpriced.
 */
export const METEORA_DAMM_V1: AmmDefinition = {
  id: 'meteora-damm-v1',
  name: 'Meteora DAMM v1',
  programId: L.program,
  searches: (mint) => mintSearches(L, ['tokenAMint', 'tokenBMint'], mint, false),
  decode(data) {
    const what = 'Meteora DAMM v1 pool'
    expectLayout(L, data, what)
    const f = fieldReader(L, data, what)
    const curve = f.tag('curveType')
    return {
      mintA: f.address('tokenAMint'),
      mintB: f.address('tokenBMint'),
      // The pool's vault LP accounts until the reserves are read: the token accounts are the vaults'.
      vaultA: f.address('aVault'),
      vaultB: f.address('bVault'),
      sharesA: f.address('aVaultLp'),
      sharesB: f.address('bVaultLp'),
      feesOwedA: 0n,
      feesOwedB: 0n,
      lpMint: f.address('lpMint'),
      lpIssued: null,
      sqrtPriceX64: null,
      ...(curve === CONSTANT_PRODUCT ? {} : { priceOnReserves: curve === STABLE ? stablePrice(f) : () => undefined }),
      swapEnabled: f.bool('enabled'),
    }
  },
  async readReserves(pool, load) {
    if (!pool.sharesA || !pool.sharesB) return null
    const [vaultA, vaultB, sharesA, sharesB] = await load([pool.vaultA, pool.vaultB, pool.sharesA, pool.sharesB])
    if (!vaultA || !vaultB || !sharesA || !sharesB || vaultA.owner !== V.program || vaultB.owner !== V.program) return null
    const vault = (data: Uint8Array, mint: string) => {
      expectLayout(V, data, 'Meteora vault', true)
      const f = fieldReader(V, data, 'Meteora vault')
      return f.address('tokenMint') === mint ? { total: f.u64('totalAmount'), tokenVault: f.address('tokenVault'), lpMint: f.address('lpMint') } : null
    }
    const [a, b] = [vault(vaultA.data, pool.mintA), vault(vaultB.data, pool.mintB)]
    if (!a || !b) return null
    const [shareA, shareB] = [decodeTokenAccountBase(sharesA.data), decodeTokenAccountBase(sharesB.data)]
    if (shareA.mint !== a.lpMint || shareB.mint !== b.lpMint) return null
    // The vaults' LP mints and token accounts, in one read.
    const [lpA, lpB, tokensA, tokensB] = await load([a.lpMint, b.lpMint, a.tokenVault, b.tokenVault])
    if (!tokensA || !tokensB) return null
    const supply = (m: typeof lpA) => {
      const program = m ? tokenProgramName(m.owner) : undefined
      const decoded = m && program ? decodeTokenProgramAccount(m.data, program) : undefined
      return decoded?.kind === 'mint' ? decoded.mint.supply : undefined
    }
    const [supplyA, supplyB] = [supply(lpA), supply(lpB)]
    if (!supplyA || !supplyB) return null
    const frozen = (account: { data: Uint8Array }) => decodeTokenAccountBase(account.data).state === 'frozen'
    return { a: (a.total * shareA.amount) / supplyA, b: (b.total * shareB.amount) / supplyB, tokenAccountA: a.tokenVault, tokenAccountB: b.tokenVault, frozenA: frozen(tokensA), frozenB: frozen(tokensB) }
  },
}

/** The price of a stable pool on its reserves: B per A in base units; undefined for a repegged pool. */
function stablePrice(f: ReturnType<typeof fieldReader>): (a: bigint, b: bigint) => number | undefined {
  if (f.tag('curveType.stable.depeg.depegType') !== DEPEG_NONE) return () => undefined
  const amp = f.u64('curveType.stable.amp')
  const [multA, multB] = [f.u64('curveType.stable.tokenMultiplier.tokenAMultiplier'), f.u64('curveType.stable.tokenMultiplier.tokenBMultiplier')]
  if (multA === 0n || multB === 0n) return () => undefined
  return (a, b) => {
    const scaled = stableSpotPrice(amp, a * multA, b * multB)
    return scaled === undefined ? undefined : (scaled * Number(multA)) / Number(multB)
  }
}
