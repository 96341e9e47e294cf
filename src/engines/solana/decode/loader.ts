import { ByteReader, MalformedAccountError } from './reader.ts'
import { BPF_LOADER_1, BPF_LOADER_2, BPF_LOADER_UPGRADEABLE, LOADER_V4, NATIVE_LOADER } from '../programs.ts'

/** `UpgradeableLoaderState` tags (bincode, u32). */
const UPGRADEABLE_PROGRAM = 2
const UPGRADEABLE_PROGRAM_DATA = 3
/** Loader v4 status values; `Finalized` programs can no longer change. */
const LOADER_V4_FINALIZED = 2n

/**
 * What the program account says about upgrades, before the program-data account is read:
 * `programData` is set when the upgradeable loader keeps the code (and its authority) elsewhere.
 */
export type ProgramAccountInfo =
  | { kind: 'immutable'; loader: string }
  | { kind: 'upgradeable-loader'; programData: string }
  | { kind: 'loader-v4'; authority: string | null; finalized: boolean }
  | { kind: 'not-a-program'; owner: string }

export function decodeProgramAccount(owner: string, executable: boolean, data: Uint8Array): ProgramAccountInfo {
  if (owner === BPF_LOADER_2 || owner === BPF_LOADER_1 || owner === NATIVE_LOADER) {
    return executable ? { kind: 'immutable', loader: owner } : { kind: 'not-a-program', owner }
  }
  if (owner === BPF_LOADER_UPGRADEABLE) {
    const r = new ByteReader(data, 0, 'upgradeable program')
    const tag = r.u32('state')
    if (tag !== UPGRADEABLE_PROGRAM) return { kind: 'not-a-program', owner }
    return { kind: 'upgradeable-loader', programData: r.address('program data address') }
  }
  if (owner === LOADER_V4) {
    const r = new ByteReader(data, 0, 'loader-v4 program')
    r.u64('slot')
    const authority = r.address('authority')
    const status = r.u64('status')
    const finalized = status === LOADER_V4_FINALIZED
    return { kind: 'loader-v4', authority: finalized ? null : authority, finalized }
  }
  return { kind: 'not-a-program', owner }
}

/** The upgrade authority kept in an upgradeable program's program-data account (null: frozen). */
export function decodeProgramDataAuthority(data: Uint8Array): string | null {
  const r = new ByteReader(data, 0, 'program data')
  const tag = r.u32('state')
  if (tag !== UPGRADEABLE_PROGRAM_DATA) throw new MalformedAccountError(`program data: state tag is ${tag}, not ProgramData (${UPGRADEABLE_PROGRAM_DATA})`)
  r.u64('slot')
  return r.borshOption(() => r.address('upgrade authority'), 'upgrade authority')
}
