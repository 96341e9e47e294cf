import type { McpCaller } from './define-tool.ts'
import { AuthError, InputError } from '../errors.ts'

/**
 * The user whose project a call reads or records in: the one it names, else the caller's own.
 * A caller that is not an admin (an ordinary API key) may only name its own user, as the history
 * endpoint allows; one without a user (stdio without `--user`) must name one.
 */
export function projectUser(caller: McpCaller, named: string | undefined, access: 'read' | 'record'): string {
  const userId = named ?? caller.userId
  if (userId === undefined) throw new InputError("must have required property 'userId'")
  if (!caller.admin && userId !== caller.userId) {
    throw new AuthError(access === 'read' ? "this API key may only read its own user's projects" : "this API key may only record audits in its own user's projects")
  }
  return userId
}
