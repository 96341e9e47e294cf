import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { publicBaseUrl, type Config } from '../config/settings.ts'
import { ConfigError } from '../errors.ts'
import { EMBEDDED_DB_FILE } from '../store/database.ts'
import type { Io } from './io.ts'
import { projectRoot } from './project.ts'

/**
 * Where a command keeps its data, found rather than guessed: `DATA_DIR` (or `--data-dir`) when
 * given, relative to where the command runs; else `data/` in the tokenrisk project the command
 * belongs to, wherever it runs from — so that `tokenrisk audit` run in another folder records into
 * the store the service of that project serves, rather than creating a second one there.
 *
 * One service owns a data directory: `<dataDir>/tokenrisk.lock` holds its pid and URL while it
 * runs. A second `serve` (or `devnet`) on the same directory says so and stops before touching
 * anything; the other commands share the directory with it (the embedded store takes several
 * processes) and never write the local worlds' files.
 */
export const DATA_DIR_LOCK_FILE = 'tokenrisk.lock'

/** The folder name of the data directory inside the project. */
export const PROJECT_DATA_FOLDER = 'data'

/**
 * The data directory, absolute: `DATA_DIR` / `--data-dir` resolved against the working directory
 * when given (`explicit`), else the project's `data/` (the working directory's `data/` when
 * tokenrisk runs outside its project, which no install does).
 */
export function resolveDataDir(configured: string, explicit: boolean, cwd: string = process.cwd()): string {
  return (!explicit && projectDataDir()) || resolve(cwd, configured)
}

/** The project's own data directory (`<project>/data`), the default one. */
export function projectDataDir(): string | undefined {
  const root = projectRoot()
  return root ? join(root, PROJECT_DATA_FOLDER) : undefined
}

/** What the lock file of a data directory says of its owner. */
export interface DataDirOwner {
  pid: number
  /** The command that owns it (`serve`, `devnet`). */
  command: string
  /** Where it answers, once it listens (`''` while it starts). */
  url: string
  startedAt: string
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists, it is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The running owner of `dataDir`, when there is one (a lock left by a process that is gone is no owner). */
export function dataDirOwner(dataDir: string): DataDirOwner | undefined {
  const path = join(dataDir, DATA_DIR_LOCK_FILE)
  let owner: Partial<DataDirOwner>
  try {
    owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<DataDirOwner>
  } catch {
    return undefined
  }
  if (typeof owner.pid !== 'number' || owner.pid === process.pid || !isAlive(owner.pid)) return undefined
  return { pid: owner.pid, command: String(owner.command ?? 'serve'), url: String(owner.url ?? ''), startedAt: String(owner.startedAt ?? '') }
}

/** One line naming the owner of a data directory. */
export function describeOwner(owner: DataDirOwner, dataDir: string): string {
  return `tokenrisk ${owner.command} (pid ${owner.pid}${owner.url ? `, ${owner.url}` : ', starting'}) runs on the data directory ${dataDir}`
}

/** The lock this process holds on a data directory. */
export interface DataDirLock {
  /** Records where the owner answers, once it listens. */
  setUrl(url: string): void
  /** Removes the lock (only if it is still this process's). */
  release(): void
}

/**
 * Takes `dataDir` for `command` before anything is started or written there; throws a
 * `ConfigError` naming the running owner when another live process holds it (a lock left by a
 * process that is gone is taken over).
 *
 * @example
 * const lock = lockDataDir('/srv/tokenrisk/data', 'serve')
 * lock.setUrl('http://127.0.0.1:3000')
 */
export function lockDataDir(dataDir: string, command: string): DataDirLock {
  const path = join(dataDir, DATA_DIR_LOCK_FILE)
  const mine: DataDirOwner = { pid: process.pid, command, url: '', startedAt: new Date().toISOString() }
  const write = (flag: 'wx' | 'w') => writeFileSync(path, `${JSON.stringify(mine)}\n`, { flag })
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dataDir, { recursive: true })
      write('wx')
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
      const owner = dataDirOwner(dataDir)
      if (owner) {
        throw new ConfigError(
          `${describeOwner(owner, dataDir)}: use that one, stop it first, or start this one with its own DATA_DIR`,
        )
      }
      rmSync(path, { force: true }) // left by a process that is gone
    }
  }
  let held = true
  const stillMine = () => {
    try {
      return (JSON.parse(readFileSync(path, 'utf8')) as { pid?: number }).pid === process.pid
    } catch {
      return false
    }
  }
  return {
    setUrl(url) {
      if (!held || !stillMine()) return
      mine.url = url
      write('w')
    },
    release() {
      if (!held) return
      held = false
      if (stillMine()) rmSync(path, { force: true })
    },
  }
}

/**
 * Before a command opens the embedded store in `dataDir`: when there is none there yet and a
 * service runs on the project's data directory, says so — the command is about to create a
 * second store, and the service will not see what it records.
 */
export function noteSecondStore(config: Pick<Config, 'dataDir' | 'databaseUrl'>, io: Io, projectData: string | undefined = projectDataDir()): void {
  if (config.databaseUrl || !projectData || existsSync(join(config.dataDir, EMBEDDED_DB_FILE))) return
  if (resolve(projectData) === resolve(config.dataDir)) return
  const owner = dataDirOwner(projectData)
  if (!owner) return
  io.err(
    `note: no store in ${config.dataDir} yet, so this creates one; ${describeOwner(owner, projectData)}: set DATA_DIR=${projectData} (or leave DATA_DIR unset) to use its store`,
  )
}

/**
 * The base of links a command prints: `PUBLIC_BASE_URL` when set, else where the service that
 * owns the data directory answers, else the one `HOST` and `PORT` give.
 */
export function linkBase(config: Pick<Config, 'dataDir' | 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl
  return dataDirOwner(config.dataDir)?.url || publicBaseUrl(config)
}
