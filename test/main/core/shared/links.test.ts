import { describe, expect, it } from 'vitest'
import { LINK_KINDS, linkAddress } from '../../../../src-main/core/shared/links'

describe('linkAddress', () => {
  it('makes https profile addresses from facebook and twitter handles', () => {
    expect(linkAddress('facebook', 'the.band')).toBe('https://www.facebook.com/the.band')
    expect(linkAddress('facebook', '  @theband ')).toBe('https://www.facebook.com/theband')
    expect(linkAddress('twitter', '@the_band')).toBe('https://twitter.com/the_band')
    expect(linkAddress('twitter', 'a'.repeat(15))).toBe(`https://twitter.com/${'a'.repeat(15)}`)
  })

  it('takes the handle out of a whole profile address, and builds the address again itself', () => {
    expect(linkAddress('twitter', 'https://twitter.com/@the_band')).toBe('https://twitter.com/the_band')
    expect(linkAddress('twitter', 'http://evil.example/the_band')).toBe('https://twitter.com/the_band')
    expect(linkAddress('facebook', 'https://www.facebook.com/the.band/')).toBe('https://www.facebook.com/the.band')
  })

  it('refuses handles that are not handles', () => {
    for (const kind of ['facebook', 'twitter'] as const) {
      for (const value of ['the/band', 'the band', '../x', '', '   ', null, undefined, 'javascript:alert(1)', 'a%2fb', 'bånd']) {
        expect(linkAddress(kind, value), `${kind} ${String(value)}`).toBeUndefined()
      }
    }
    expect(linkAddress('twitter', 'a'.repeat(16))).toBeUndefined()
    expect(linkAddress('twitter', 'the.band')).toBeUndefined()
    expect(linkAddress('facebook', 'a'.repeat(51))).toBeUndefined()
    expect(linkAddress('twitter', 'https://twitter.com/')).toBeUndefined()
    // Dots alone are a path (the site's root, or above it), not a handle.
    for (const value of ['.', '..', '...']) expect(linkAddress('facebook', value), value).toBeUndefined()
  })

  it('gives a schemeless website https, and keeps an http(s) one', () => {
    expect(linkAddress('website', 'example.com')).toBe('https://example.com/')
    expect(linkAddress('website', 'example.com/band?x=1#top')).toBe('https://example.com/band?x=1#top')
    expect(linkAddress('website', 'example.com:8080/band')).toBe('https://example.com:8080/band')
    expect(linkAddress('website', '//example.com/band')).toBe('https://example.com/band')
    expect(linkAddress('website', 'http://example.com')).toBe('http://example.com/')
    expect(linkAddress('website', ' HTTPS://Example.COM/Band ')).toBe('https://example.com/Band')
  })

  it('refuses every other scheme, credentials, and hosts that are not domains', () => {
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'javascript://example.com/%0aalert(1)',
      'file:///etc/passwd',
      'data:text/html,<script>alert(1)</script>',
      'tuneshelf-media://downloads/1',
      'vbscript:msgbox(1)',
      'ftp://example.com/x',
      'mailto:someone@example.com',
      'https://user:password@example.com/',
      'https://user@example.com/',
      'user:password@example.com',
      'localhost',
      'http://localhost:8080/',
      'https://',
      'http:// example.com',
      '',
    ]) {
      expect(linkAddress('website', value), value).toBeUndefined()
    }
  })

  it('only ever gives http or https addresses, whatever the kind', () => {
    expect(LINK_KINDS).toEqual(['facebook', 'twitter', 'website'])
    const samples = ['x', 'a.b', '@x', 'https://a.b/c', 'javascript:a.b', 'a.b:1', '//a.b', 'data:a.b', 'x:y@a.b', '\\\\a.b\\c']
    for (const kind of LINK_KINDS) {
      for (const value of samples) {
        const address = linkAddress(kind, value)
        if (address !== undefined) expect(new URL(address).protocol, `${kind} ${value}`).toMatch(/^https?:$/)
      }
    }
  })
})
