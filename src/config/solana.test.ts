import { describe, expect, it } from 'vitest'
import { ConfigError } from '../errors.ts'
import { parseSolanaRpcUrls } from './solana.ts'

describe('parseSolanaRpcUrls', () => {
  it('splits several endpoints on commas and blanks, in order', () => {
    expect(parseSolanaRpcUrls('https://a.example/rpc?api-key=x, http://127.0.0.1:8899\nhttps://b.example')).toEqual([
      'https://a.example/rpc?api-key=x',
      'http://127.0.0.1:8899',
      'https://b.example',
    ])
  })

  it('refuses empty values and non-http URLs without echoing them', () => {
    expect(() => parseSolanaRpcUrls(' , ')).toThrow(ConfigError)
    expect(() => parseSolanaRpcUrls('wss://secret-key@x.example')).toThrow(/entry 1 must be http or https/)
    const error = (() => {
      try {
        parseSolanaRpcUrls('https://ok.example, not a url?key=SECRET')
      } catch (e) {
        return e as Error
      }
    })()
    expect(error?.message).toMatch(/entry 2 is not a URL/)
    expect(error?.message).not.toContain('SECRET')
  })
})
