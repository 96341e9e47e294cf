import { describe, expect, it } from 'vitest'
import { refusedAddress, refusedHostname } from './ip-policy.ts'

describe('refusedAddress', () => {
  it.each([
    ['0.0.0.0', '"this network"'],
    ['0.255.1.2', '"this network"'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignment'],
    ['192.0.2.10', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.99', 'documentation'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('refuses IPv4 %s (%s)', (ip, kind) => {
    expect(refusedAddress(ip)).toBe(kind)
  })

  it.each(['1.1.1.1', '8.8.8.8', '9.255.255.255', '11.0.0.1', '100.63.255.255', '100.128.0.1', '126.255.255.255', '128.0.0.1', '169.253.255.255', '172.15.255.255', '172.32.0.1', '192.167.255.255', '192.169.0.1', '198.17.255.255', '198.20.0.1', '223.255.255.255'])(
    'lets public IPv4 %s through, including the neighbours of refused ranges',
    (ip) => {
      expect(refusedAddress(ip)).toBeUndefined()
    },
  )

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible (deprecated)'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::a00:1', 'reserved'],
    ['4000::1', 'reserved'],
    ['2001:db8::1', 'documentation'],
    ['3fff:0fff::1', 'documentation'],
    ['2001::1', 'IETF protocol assignment'],
    ['2001:1ff::1', 'IETF protocol assignment'],
    ['fe80::1%eth0', 'scoped'],
  ])('refuses IPv6 %s (%s)', (ip, kind) => {
    expect(refusedAddress(ip)).toBe(kind)
  })

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:200::1', '3fff:1000::1', '2002:0808:0808::1'])('lets public IPv6 %s through', (ip) => {
    expect(refusedAddress(ip)).toBeUndefined()
  })

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::FFFF:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped private'],
    ['::ffff:100.64.1.1', 'IPv4-mapped carrier-grade NAT'],
    ['64:ff9b::10.0.0.1', 'NAT64 private'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
    ['2002:7f00:1::1', '6to4 loopback'],
    ['2002:c0a8:101::', '6to4 private'],
  ])('judges IPv6 forms carrying IPv4 by that address: %s (%s)', (ip, kind) => {
    expect(refusedAddress(ip)).toBe(kind)
  })

  it.each(['::ffff:1.1.1.1', '::ffff:808:808', '64:ff9b::8.8.8.8'])('lets %s through when its IPv4 address is public', (ip) => {
    expect(refusedAddress(ip)).toBeUndefined()
  })

  it('refuses what is not an IP address', () => {
    expect(refusedAddress('example.com')).toBe('not an IP address')
    expect(refusedAddress('1.2.3')).toBe('not an IP address')
  })

  it('opens loopback, and only loopback, when asked to', () => {
    const policy = { allowLoopback: true }
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(refusedAddress(ip, policy), ip).toBeUndefined()
    for (const ip of ['10.0.0.1', '169.254.169.254', '::ffff:192.168.0.1', 'fd00::1', 'fe80::1', '0.0.0.0', '::']) expect(refusedAddress(ip, policy), ip).toBeDefined()
  })
})

describe('refusedHostname', () => {
  it.each([
    ['example.invalid', 'reserved name (.invalid)'],
    ['metadata.test', 'reserved name (.test)'],
    ['something.example', 'reserved name (.example)'],
    ['hidden.onion', 'reserved name (.onion)'],
    ['localhost', 'local name (.localhost)'],
    ['api.localhost', 'local name (.localhost)'],
    ['printer.local', 'local name (.local)'],
    ['metadata.google.internal', 'local name (.internal)'],
    ['router.home.arpa', 'local name (.arpa)'],
    ['metadata', 'single-label name (resolved through local search domains)'],
    ['[::1]', 'loopback address'],
    ['[::ffff:a9fe:a9fe]', 'IPv4-mapped link-local address'],
    ['10.0.0.1', 'private address'],
    ['', 'empty host name'],
  ])('refuses %s before any DNS query (%s)', (host, reason) => {
    expect(refusedHostname(host)).toBe(reason)
  })

  it.each(['example.com', 'EXAMPLE.com.', 'arweave.net', 'ipfs.io', '1.1.1.1', '[2606:4700::1111]', 'my-token.xyz'])('lets %s be resolved', (host) => {
    expect(refusedHostname(host)).toBeUndefined()
  })

  it('lets localhost be resolved only with the loopback hatch, and never reserved names', () => {
    expect(refusedHostname('localhost', { allowLoopback: true })).toBeUndefined()
    expect(refusedHostname('[::1]', { allowLoopback: true })).toBeUndefined()
    expect(refusedHostname('example.invalid', { allowLoopback: true })).toBeDefined()
    expect(refusedHostname('printer.local', { allowLoopback: true })).toBeDefined()
  })
})
