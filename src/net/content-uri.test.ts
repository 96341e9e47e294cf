import { describe, expect, it } from 'vitest'
import { ContentUriError, contentUrl, DEFAULT_GATEWAYS, publicLink } from './content-uri.ts'

const CID_V0 = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG'
const CID_V1 = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
const AR_TX = 'bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U'
const gateways = { ipfs: 'https://gw.tokenrisk.dev/ipfs/', arweave: 'https://ar.tokenrisk.dev' }

describe('contentUrl', () => {
  it('maps ipfs:// and ar:// through the gateways, paths kept', () => {
    expect(contentUrl(`ipfs://${CID_V0}`, { gateways, allowHttp: false }).href).toBe(`https://gw.tokenrisk.dev/ipfs/${CID_V0}`)
    expect(contentUrl(`ipfs://${CID_V1}/meta/0.json`, { gateways, allowHttp: false }).href).toBe(`https://gw.tokenrisk.dev/ipfs/${CID_V1}/meta/0.json`)
    expect(contentUrl(`ipfs://ipfs/${CID_V1}`, { gateways, allowHttp: false }).href).toBe(`https://gw.tokenrisk.dev/ipfs/${CID_V1}`)
    // A gateway base without its final slash still keeps its path.
    expect(contentUrl(`ar://${AR_TX}/logo.png`, { gateways, allowHttp: false }).href).toBe(`https://ar.tokenrisk.dev/${AR_TX}/logo.png`)
    expect(contentUrl(`ipfs://${CID_V0}`, { gateways: DEFAULT_GATEWAYS, allowHttp: false }).href).toBe(`https://ipfs.io/ipfs/${CID_V0}`)
  })

  it('refuses gateway paths that could leave the content (dot segments, queries, bad ids)', () => {
    for (const uri of [
      `ipfs://${CID_V0}/../../admin`,
      `ipfs://${CID_V0}/%2e%2e/admin`,
      `ipfs://${CID_V0}/.%2E/admin`,
      `ipfs://${CID_V0}?x=1`,
      'ipfs://short',
      'ipfs://../etc',
      `ar://${AR_TX.slice(1)}`,
      `ar://${AR_TX}/a b`,
    ]) {
      expect(() => contentUrl(uri, { gateways, allowHttp: false }), uri).toThrow(ContentUriError)
    }
  })

  it('takes https, http only when allowed, and nothing else', () => {
    expect(contentUrl('https://meta.tokenrisk.dev/a.json#x', { gateways, allowHttp: false }).href).toBe('https://meta.tokenrisk.dev/a.json')
    expect(() => contentUrl('http://meta.tokenrisk.dev/a.json', { gateways, allowHttp: false })).toThrow(/http: scheme is not fetched/)
    expect(contentUrl('http://meta.tokenrisk.dev/a.json', { gateways, allowHttp: true }).protocol).toBe('http:')
    for (const uri of ['javascript:alert(1)', 'data:application/json,{}', 'file:///etc/passwd', 'ftp://x.dev/a', '//meta.tokenrisk.dev/a.json', '/a.json', '', '   ', 'https://user:pw@meta.tokenrisk.dev/a.json', 'https://meta.tokenrisk.dev/a b', 'https://meta.tokenrisk.dev\\@evil.dev/']) {
      expect(() => contentUrl(uri, { gateways, allowHttp: true }), uri).toThrow(ContentUriError)
    }
    expect(() => contentUrl(`https://x.dev/${'a'.repeat(3000)}`, { gateways, allowHttp: false })).toThrow(/longer than/)
  })
})

describe('publicLink', () => {
  it('keeps https links to public hosts and maps content addresses', () => {
    expect(publicLink('https://cdn.tokenrisk.dev/logo.png', gateways)).toBe('https://cdn.tokenrisk.dev/logo.png')
    expect(publicLink(` ipfs://${CID_V0}/logo.png `, gateways)).toBe(`https://gw.tokenrisk.dev/ipfs/${CID_V0}/logo.png`)
    expect(publicLink(`ar://${AR_TX}`, gateways)).toBe(`https://ar.tokenrisk.dev/${AR_TX}`)
  })

  it('gives "" for script, data, plain-http, local and malformed links, and for non-strings', () => {
    for (const uri of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'http://cdn.tokenrisk.dev/logo.png',
      'https://127.0.0.1/logo.png',
      'https://[::1]/logo.png',
      'https://192.168.0.10/logo.png',
      'https://localhost/logo.png',
      'https://router.local/logo.png',
      'https://x.invalid/logo.png',
      'logo.png',
      'ipfs://nope',
    ]) {
      expect(publicLink(uri, gateways), uri).toBe('')
    }
    for (const value of [undefined, null, 42, { url: 'https://x.dev' }]) expect(publicLink(value, gateways)).toBe('')
  })
})
