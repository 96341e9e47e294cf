import type { ApiError, ChainEntry } from './api.ts'

/**
 * What a person is told when the API does not answer a report: what happened, in words, and
 * what to do about it. Pure: the API's status, message and `Retry-After` decide it.
 */
export type ProblemKind = 'bad-address' | 'unknown-chain' | 'key' | 'session' | 'not-found' | 'rate-limit' | 'node' | 'network' | 'server'

export interface Problem {
  kind: ProblemKind
  title: string
  /** What happened. */
  text: string
  /** What to do. */
  advice: string
  /** Seconds to wait before trying again, when the service said. */
  waitSeconds?: number
}

/** The API's message ending a sentence: with its full stop. */
const stop = (message: string) => (/[.!?]$/.test(message) ? message : `${message}.`)
/** The API's message as a sentence of its own: capital first, full stop last. */
const sentence = (message: string) => stop(`${message.charAt(0).toUpperCase()}${message.slice(1)}`)

/** Seconds to wait after a 503 when the answer gave no `Retry-After`. */
const DEFAULT_NODE_WAIT_SECONDS = 5

/**
 * The problem of a failed report request for `what` ("chain 5", "Solana"); `chains` are the chains
 * the service serves, when known, to name them after an unknown chain.
 */
export function describeProblem(error: ApiError, context: { access: 'key' | 'open'; chainId?: string; chains?: ChainEntry[] }): Problem {
  const { status, message } = error
  if (status === 0) {
    return { kind: 'network', title: 'tokenrisk could not be reached', text: `The request did not reach the service (${message}).`, advice: 'Check your connection, then try again.' }
  }
  if (status === 400 && /chainid/i.test(message) && /unsupported|supported chains/i.test(message)) {
    const served = context.chains?.map((c) => `${c.name} (${c.chainId})`).join(', ')
    return {
      kind: 'unknown-chain',
      title: `Chain ${context.chainId ?? ''} is not served here`.replace('  ', ' '),
      text: `This tokenrisk does not read chain ${context.chainId ?? 'this chain'}.${served ? ` It serves: ${served}.` : ''}`,
      advice: 'Pick the token\'s chain on the home page, or ask the operator to configure this one (RPC_URL_<chainId>).',
    }
  }
  if (status === 400 && /chainid/i.test(message)) {
    const chain = context.chainId ?? ''
    return {
      kind: 'unknown-chain',
      title: chain ? `“${chain.length > 24 ? `${chain.slice(0, 24)}…` : chain}” is not a chain id` : 'This is not a chain id',
      text: `The service refused it: ${stop(message)}`,
      advice: 'A chain id is a decimal number (1 for Ethereum, 56 for BNB Chain): pick the token\'s chain on the home page.',
    }
  }
  if (status === 400 && /address|mint/i.test(message)) {
    return { kind: 'bad-address', title: 'This is not a token address', text: `The service refused it: ${stop(message)}`, advice: 'Check the address (copy it again from its source) and try again.' }
  }
  if (status === 400) {
    return { kind: 'bad-address', title: 'The service refused this request', text: sentence(message), advice: 'Check the address and its chain, and try again.' }
  }
  if (status === 401 && context.access === 'open') {
    return { kind: 'session', title: "This page's session has ended", text: `The service did not take the page's call (${message}).`, advice: 'Reload the page to start a new session.' }
  }
  if (status === 401) {
    return { kind: 'key', title: 'The API key was refused', text: `The service did not take the key kept in this browser: ${stop(message)}`, advice: 'Paste a valid API key below.' }
  }
  if (status === 404) {
    return { kind: 'not-found', title: 'No token at this address', text: sentence(message), advice: 'Check the address and its chain: the same address on another chain is another account.' }
  }
  if (status === 429) {
    const wait = error.retryAfterSeconds ?? 1
    // The open pages' budget of new reports says so itself: reports already made are still served.
    const budget = /budget/i.test(message)
    return {
      kind: 'rate-limit',
      title: budget ? 'New reports are paused for now' : 'Too many requests',
      text: budget ? sentence(message) : `The service limits how often it is asked, and this limit is reached for now.`,
      advice: `Wait ${wait} s, then try again.`,
      waitSeconds: wait,
    }
  }
  if (status === 503) {
    const wait = error.retryAfterSeconds ?? DEFAULT_NODE_WAIT_SECONDS
    const late = /deadline/i.test(message)
    return {
      kind: 'node',
      title: late ? 'The report was not ready in time' : "The chain's node is unavailable",
      text: `${sentence(message)} Nothing was measured: this says nothing about the token, good or bad.`,
      advice: `Try again in ${wait} s; if it lasts, the node of this chain is down or too slow for this service.`,
      waitSeconds: wait,
    }
  }
  return { kind: 'server', title: 'The report could not be made', text: `The service answered ${status}: ${sentence(message)}`, advice: 'Try again later.' }
}
