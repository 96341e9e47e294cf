import { isIP } from 'node:net'

/**
 * Which addresses and host names a server-side fetch of a URL chosen by someone else (a token
 * creator's metadata uri) may reach: public unicast addresses only. Everything a request could
 * use to reach this host, its network or its cloud provider's internal services is refused.
 */

/** Special-purpose IPv4 ranges (IANA registry): never the address of a public web server. */
const IPV4_REFUSED: readonly { base: string; bits: number; kind: string }[] = [
  { base: '0.0.0.0', bits: 8, kind: '"this network"' },
  { base: '10.0.0.0', bits: 8, kind: 'private' },
  { base: '100.64.0.0', bits: 10, kind: 'carrier-grade NAT' },
  { base: '127.0.0.0', bits: 8, kind: 'loopback' },
  { base: '169.254.0.0', bits: 16, kind: 'link-local' },
  { base: '172.16.0.0', bits: 12, kind: 'private' },
  { base: '192.0.0.0', bits: 24, kind: 'IETF protocol assignment' },
  { base: '192.0.2.0', bits: 24, kind: 'documentation' },
  { base: '192.88.99.0', bits: 24, kind: '6to4 relay' },
  { base: '192.168.0.0', bits: 16, kind: 'private' },
  { base: '198.18.0.0', bits: 15, kind: 'benchmarking' },
  { base: '198.51.100.0', bits: 24, kind: 'documentation' },
  { base: '203.0.113.0', bits: 24, kind: 'documentation' },
  { base: '224.0.0.0', bits: 4, kind: 'multicast' },
  { base: '240.0.0.0', bits: 4, kind: 'reserved' },
]

/** Top-level names that never exist on the public internet (RFC 2606, 6761, 7686, 9476). */
const RESERVED_TLDS = new Set(['invalid', 'test', 'example', 'onion', 'alt'])
/** Names that resolve inside this host or its network, wherever they are asked. */
const LOCAL_TLDS = new Set(['localhost', 'local', 'internal', 'lan', 'intranet', 'corp', 'home', 'private'])

export interface AddressPolicy {
  /**
   * Loopback addresses (127.0.0.0/8, ::1) and local names such as `localhost` are allowed. Unsafe:
   * for tests against a server on this machine only. Every other refused range stays refused.
   */
  allowLoopback: boolean
}

/**
 * Why a connection to `ip` is refused (e.g. "private", "link-local", "IPv4-mapped loopback"), or
 * undefined for a public unicast address. Not an IP address at all is refused too.
 *
 * @example
 * refusedAddress('10.1.2.3') // 'private'
 * refusedAddress('::ffff:169.254.169.254') // 'IPv4-mapped link-local'
 * refusedAddress('2606:4700::1111') // undefined
 */
export function refusedAddress(ip: string, policy: AddressPolicy = { allowLoopback: false }): string | undefined {
  const version = isIP(ip)
  if (version === 4) return refusedIpv4(ipv4Number(ip), policy)
  if (version === 6) {
    if (ip.includes('%')) return 'scoped'
    return refusedIpv6(ipv6Bytes(ip), policy)
  }
  return 'not an IP address'
}

/**
 * Why `hostname` (as `URL.hostname` gives it: lower case, IPv6 in brackets) is refused before any
 * DNS query, or undefined when it may be resolved. IP literals are judged by `refusedAddress`;
 * names under reserved top-level domains, single-label names (resolved through the host's search
 * domains) and local names (`localhost`, `*.local`, `*.internal`, ...) are refused.
 *
 * @example
 * refusedHostname('example.invalid') // 'reserved name (.invalid)'
 * refusedHostname('metadata.google.internal') // 'local name (.internal)'
 */
export function refusedHostname(hostname: string, policy: AddressPolicy = { allowLoopback: false }): string | undefined {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  if (isIP(host) !== 0) {
    const reason = refusedAddress(host, policy)
    return reason ? `${reason} address` : undefined
  }
  if (host === '') return 'empty host name'
  const labels = host.split('.')
  const tld = labels[labels.length - 1]
  if (RESERVED_TLDS.has(tld)) return `reserved name (.${tld})`
  if (policy.allowLoopback && (host === 'localhost' || tld === 'localhost')) return undefined
  if (LOCAL_TLDS.has(tld) || labels.slice(-2).join('.') === 'home.arpa') return `local name (.${tld})`
  if (labels.length === 1) return 'single-label name (resolved through local search domains)'
  return undefined
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

function inIpv4Range(n: number, base: string, bits: number): boolean {
  const size = 2 ** (32 - bits)
  return Math.floor(n / size) === Math.floor(ipv4Number(base) / size)
}

function refusedIpv4(n: number, policy: AddressPolicy): string | undefined {
  const range = IPV4_REFUSED.find((r) => inIpv4Range(n, r.base, r.bits))
  if (!range) return undefined
  if (range.kind === 'loopback' && policy.allowLoopback) return undefined
  return range.kind
}

/** The 16 bytes of a valid IPv6 address (as `isIP` accepts it, without a zone). */
function ipv6Bytes(ip: string): Uint8Array {
  let text = ip.toLowerCase()
  const tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.indexOf('.', lastColon) !== -1) {
    const n = ipv4Number(text.slice(lastColon + 1))
    tail.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff)
    text = text.slice(0, lastColon + 1) + '0:0'
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined]
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = groups(head)
  const right = groups(rest)
  const all = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
  const bytes = new Uint8Array(16)
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8
    bytes[2 * i + 1] = g & 0xff
  })
  if (tail.length === 4) bytes.set(tail, 12)
  return bytes
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b)
const isZero = (bytes: Uint8Array, from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0)
const embeddedIpv4 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3]

function refusedIpv6(b: Uint8Array, policy: AddressPolicy): string | undefined {
  // Forms that carry an IPv4 address: judged by that address.
  if (isZero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) {
    const inner = refusedIpv4(embeddedIpv4(b, 12), policy)
    return inner ? `IPv4-mapped ${inner}` : undefined
  }
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b]) && isZero(b, 4, 12)) {
    const inner = refusedIpv4(embeddedIpv4(b, 12), policy)
    return inner ? `NAT64 ${inner}` : undefined
  }
  if (startsWith(b, [0x20, 0x02])) {
    const inner = refusedIpv4(embeddedIpv4(b, 2), policy)
    return inner ? `6to4 ${inner}` : undefined
  }
  if (isZero(b, 0, 15) && b[15] === 1) return policy.allowLoopback ? undefined : 'loopback'
  if (isZero(b, 0, 16)) return 'unspecified'
  if (isZero(b, 0, 12)) return 'IPv4-compatible (deprecated)'
  if ((b[0] & 0xfe) === 0xfc) return 'unique-local'
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local'
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'site-local (deprecated)'
  if (b[0] === 0xff) return 'multicast'
  // Public unicast lives in 2000::/3; within it, special ranges are refused.
  if ((b[0] & 0xe0) !== 0x20) return 'reserved'
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8])) return 'documentation'
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] < 0x02) return 'IETF protocol assignment'
  if (b[0] === 0x3f && b[1] === 0xff && (b[2] & 0xf0) === 0) return 'documentation'
  return undefined
}
