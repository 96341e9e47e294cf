// An anvil that cannot have its port must not pass for started because another process's anvil
// answers there: the world would then be built on (and automine turned off in) someone else's chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type AnvilProcess } from '@tokenrisk/devworld/anvil'

describe('anvil on a port another anvil holds', () => {
  let first: AnvilProcess
  beforeAll(async () => {
    first = await startAnvil({ args: ['--chain-id', '31337'] })
  })
  afterAll(async () => {
    await first?.stop()
  })

  it('is refused, and the anvil holding the port keeps serving', async () => {
    await expect(startAnvil({ port: first.port, args: ['--chain-id', '31337'] })).rejects.toThrow(/exited before it answered/)
    const res = await fetch(first.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    expect(((await res.json()) as { result: string }).result).toBe('0x7a69')
  })
})
