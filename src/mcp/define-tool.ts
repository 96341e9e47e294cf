import type { Static, TObject } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { ValueErrorType } from '@sinclair/typebox/errors'
import type { ReportFormat } from '../contract/report-formats.ts'
import { InputError } from '../errors.ts'

/** Who calls the tools: the API key's user over HTTP, the local operator over stdio. */
export interface McpCaller {
  /** The user whose projects the audit tools read and record by default; none over stdio without `--user`. */
  userId?: string
  /** Reads and records every user's projects (an admin key; the local operator over stdio). */
  admin: boolean
  /** Shape of EVM reports when a call names none: the API key's own format, else the instance's `DEFAULT_FORMAT`. */
  format?: ReportFormat
}

/**
 * Runs `work` under the transport's deadline: it gets a signal that aborts at the deadline or
 * when `cancelled` fires (the client cancelled the call or went away), and the time (epoch ms) by
 * which it must be over. Rejects with a `DeadlineError` at the deadline.
 */
export type RunBounded = <T>(work: (signal: AbortSignal, deadlineAt: number) => Promise<T>, cancelled: AbortSignal) => Promise<T>

/** What a tool's `run` is given beside its arguments. */
export interface ToolContext {
  caller: McpCaller
  /** Runs work under the call's deadline (`RunBounded`, bound to this call's cancellation). */
  bounded<T>(work: (signal: AbortSignal, deadlineAt: number) => Promise<T>): Promise<T>
  /** Where the running service answers (`https://tokenrisk.example`), for links to its pages; absent when unknown. */
  linkBase?: string
}

/** A tool's answer: the verdict a person reads first, and the structured result. */
export interface ToolAnswer {
  verdict: string
  structured: Record<string, unknown>
}

/** One MCP tool: its name, what an agent reads about it, its input schema and its work. */
export interface McpTool<Input extends TObject = TObject> {
  name: string
  title: string
  /** What the tool does and when to call it, for the agent that chooses it. */
  description: string
  input: Input
  /** Hints for the agent's host: the tool changes nothing (else it may record), it reaches chains beyond this service. */
  hints: { readOnly: boolean; openWorld: boolean }
  /** The message for an argument of the wrong type or form, by argument (else the schema's own words). */
  invalid?: Partial<Record<keyof Static<Input> & string, string>>
  run(args: Static<Input>, context: ToolContext): Promise<ToolAnswer>
}

/**
 * Declares a tool. Its arguments are checked against `input` before `run` sees them; a missing
 * one answers `must have required property '<name>'`, a malformed one `invalid[name]`, as the
 * HTTP API words them.
 *
 * @example
 * export const ping = defineTool({ name: 'ping', title: 'Ping', description: '…', input: Type.Object({}), hints: { readOnly: true, openWorld: false }, run: async () => ({ verdict: 'pong', structured: {} }) })
 */
export function defineTool<Input extends TObject>(tool: McpTool<Input>): McpTool<Input> {
  return tool
}

const checkers = new WeakMap<TObject, TypeCheck<TObject>>()

/** The arguments of a call as the tool's input schema types them; an `InputError` when they do not fit it. */
export function checkArguments<Input extends TObject>(tool: McpTool<Input>, args: unknown): Static<Input> {
  let checker = checkers.get(tool.input)
  if (!checker) checkers.set(tool.input, (checker = TypeCompiler.Compile(tool.input)))
  const value = args ?? {}
  if (checker.Check(value)) return value as Static<Input>
  const first = checker.Errors(value).First()
  if (!first) throw new InputError('invalid arguments')
  const path = first.path.split('/').filter(Boolean)
  if (first.type === ValueErrorType.ObjectRequiredProperty) throw new InputError(`must have required property '${path.at(-1) ?? ''}'`)
  const property = path[0] ?? ''
  const invalid = tool.invalid as Record<string, string | undefined> | undefined
  throw new InputError(invalid?.[property] ?? `${first.path.slice(1) || 'arguments'}: ${first.message}`)
}
