/** The one URL module: the base URL's one rule, the catalogue key, redaction, service addresses and fetchable addresses. */
import { describe, expect, it } from 'vitest'
import { BadResponseError, InvalidArgumentError } from '../../../../src-main/core/shared/errors'
import {
  artistPath,
  catalogueKey,
  checkHttpAddress,
  isValidBaseUrl,
  normaliseBaseUrl,
  redactUrl,
  resolveServiceUrl,
} from '../../../../src-main/core/shared/urls'

/** What a function threw; fails the test if it returned. */
function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw, but it returned')
}

describe('normaliseBaseUrl: one rule for the base URL', () => {
  it.each([
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.0.0.1:8787/', 'http://127.0.0.1:8787'],
    ['https://Example.COM:443/catalogue/', 'https://example.com/catalogue'],
    ['HTTPS://example.com:8443/Catalogue', 'https://example.com:8443/Catalogue'],
    ['https://example.com/catalogue//', 'https://example.com/catalogue'],
    ['http://example.com/a b/', 'http://example.com/a%20b'],
    ['http://example.com/a/../b/', 'http://example.com/b'],
    ['http://user:s3cret@example.com/', 'http://user:s3cret@example.com'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected)
    expect(isValidBaseUrl(input)).toBe(true)
    // Normalising twice changes nothing: the cache key and the client always see one form.
    expect(normaliseBaseUrl(expected)).toBe(expected)
  })

  it.each([
    ['file:///etc', /must be http or https, not file:/],
    ['ftp://example.com/', /must be http or https, not ftp:/],
    ['javascript:alert(1)', /must be http or https/],
    ['example.com', /not a valid address/],
    ['', /not a valid address/],
    ['http://', /not a valid address/],
    ['http://example.com/?x=1', /query or a fragment/],
    ['http://example.com/#top', /query or a fragment/],
    ['http://example.com?', /query or a fragment/],
    ['http://example.com/catalogue#', /query or a fragment/],
  ])('refuses %j with an InvalidArgumentError on baseUrl', (input, message) => {
    const error = thrownBy(() => normaliseBaseUrl(input))
    expect(error).toBeInstanceOf(InvalidArgumentError)
    expect(error).toMatchObject({ code: 'invalid_argument', field: 'baseUrl', retryable: false })
    expect((error as Error).message).toMatch(message)
    expect(isValidBaseUrl(input)).toBe(false)
  })

  it('never shows the password of a base URL it refuses', () => {
    for (const input of ['ftp://user:s3cret@example.com/', 'http://user:s3cret@example.com/?x=1']) {
      const message = (thrownBy(() => normaliseBaseUrl(input)) as Error).message
      expect(message).not.toContain('s3cret')
      expect(message).toContain('user:***@example.com')
    }
  })
})

describe('catalogueKey', () => {
  it('is the normalised base URL', () => {
    expect(catalogueKey('https://Example.COM:443/catalogue/')).toBe('https://example.com/catalogue')
    expect(catalogueKey('http://127.0.0.1:8787/')).toBe(normaliseBaseUrl('http://127.0.0.1:8787/'))
  })

  it('drops the password and only the password', () => {
    expect(catalogueKey('http://user:s3cret@Example.com:8080/mirror/catalogue/')).toBe('http://user@example.com:8080/mirror/catalogue')
    expect(catalogueKey('http://user@example.com/')).toBe('http://user@example.com')
    expect(catalogueKey('https://:s3cret@example.com')).toBe('https://example.com')
  })

  it('is the same for a changed password, and differs for another user, host, port or path', () => {
    const key = catalogueKey('http://user:one@example.com/catalogue')
    expect(catalogueKey('http://user:two@example.com/catalogue/')).toBe(key)
    expect(catalogueKey('http://other:one@example.com/catalogue')).not.toBe(key)
    expect(catalogueKey('http://user:one@example.org/catalogue')).not.toBe(key)
    expect(catalogueKey('http://user:one@example.com:81/catalogue')).not.toBe(key)
    expect(catalogueKey('http://user:one@example.com/other')).not.toBe(key)
  })

  it('follows the one rule: refuses what normaliseBaseUrl refuses', () => {
    expect(() => catalogueKey('ftp://example.com')).toThrow(InvalidArgumentError)
    expect(() => catalogueKey('http://example.com/?')).toThrow(InvalidArgumentError)
  })
})

describe('redactUrl', () => {
  it('replaces the password of a URL with ***', () => {
    expect(redactUrl('http://user:s3cret@127.0.0.1:8787/api/v1/artists?page=2')).toBe('http://user:***@127.0.0.1:8787/api/v1/artists?page=2')
    expect(redactUrl('https://:s3cret@example.com/x')).toBe('https://:***@example.com/x')
    // A password may hold an @; the URL parser takes the last one before the host, and so does the redaction.
    expect(redactUrl('http://user:s3@cret@example.com/x')).toBe('http://user:***@example.com/x')
    expect(redactUrl('http://user:s3cret@example.com/login?next=http://other:s3cret@example.org/')).toBe(
      'http://user:***@example.com/login?next=http://other:***@example.org/',
    )
  })

  it('returns a URL without a password as it is', () => {
    for (const url of ['http://127.0.0.1:8787', 'http://user@example.com/x', 'https://example.com/a?b=c#d', 'file:///etc/passwd']) {
      expect(redactUrl(url)).toBe(url)
    }
  })

  it('masks user:pass@ inside text that is not one URL', () => {
    expect(redactUrl('GET http://user:s3cret@example.com/x: network error')).toBe('GET http://user:***@example.com/x: network error')
    expect(redactUrl('from //user:s3cret@a.example and https://u:p@ss@b.example/y')).toBe(
      'from //user:***@a.example and https://u:***@b.example/y',
    )
    // `error:` is a scheme to the URL parser, so this text is a URL without a password: it must be searched too.
    expect(redactUrl('error: request to http://user:s3cret@example.com failed')).toBe('error: request to http://user:***@example.com failed')
  })

  it('leaves text without credentials alone', () => {
    for (const text of ['not a url', 'connect ECONNREFUSED 127.0.0.1:8787', 'mailto:someone@example.com', '']) {
      expect(redactUrl(text)).toBe(text)
    }
  })
})

describe('artistPath', () => {
  it('keeps a username in the path as one segment', () => {
    expect(artistPath('Hungry_Lucy')).toBe('/api/v1/artists/Hungry_Lucy')
    expect(artistPath('a/b?c#d')).toBe('/api/v1/artists/a%2Fb%3Fc%23d')
    expect(artistPath('Mix.JSON')).toBe('/api/v1/artists/Mix.JSON.json')
    expect(artistPath('..')).toBe('/api/v1/artists/...json')
  })
})

describe('resolveServiceUrl', () => {
  it('gives a protocol-relative address the base URL protocol', () => {
    expect(resolveServiceUrl('//cdn.example.com/a.png', 'https://example.com/catalogue')).toBe('https://cdn.example.com/a.png')
    expect(resolveServiceUrl('//cdn.example.com/a.png', 'http://example.com')).toBe('http://cdn.example.com/a.png')
  })

  it('resolves a path against the base URL, under its prefix', () => {
    expect(resolveServiceUrl('/avatars/a1.svg', 'https://example.com/catalogue/')).toBe('https://example.com/avatars/a1.svg')
    expect(resolveServiceUrl('avatars/a1.svg', 'https://example.com/catalogue')).toBe('https://example.com/catalogue/avatars/a1.svg')
    expect(resolveServiceUrl('hotlink/12.mp3', 'http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787/hotlink/12.mp3')
  })

  it('takes an absolute http(s) address as it is, normalised', () => {
    expect(resolveServiceUrl('https://cdn.example.com/a b.png', 'http://example.com')).toBe('https://cdn.example.com/a%20b.png')
    expect(resolveServiceUrl('HTTP://CDN.example.com/A.png', 'https://example.com')).toBe('http://cdn.example.com/A.png')
  })

  it.each(['file:///etc/passwd', 'data:image/svg+xml;base64,PHN2Zy8+', 'javascript:alert(1)', 'ftp://example.com/a.png'])(
    'refuses %s with a BadResponseError',
    (address) => {
      const error = thrownBy(() => resolveServiceUrl(address, 'http://example.com'))
      expect(error).toBeInstanceOf(BadResponseError)
      expect(error).toMatchObject({ code: 'bad_response', url: address })
      expect((error as Error).message).toBe(`refusing ${address}: only http and https addresses are fetched`)
    },
  )

  it.each(['', '  ', 'http://', 'https://'])('refuses %j, which names nothing to fetch', (address) => {
    const error = thrownBy(() => resolveServiceUrl(address, 'http://example.com/catalogue'))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', url: address })
    expect((error as Error).message).toMatch(/is not an http or https address/)
  })

  it('never shows a password in its messages', () => {
    const message = (thrownBy(() => resolveServiceUrl('ftp://user:s3cret@example.com/a', 'http://example.com')) as Error).message
    expect(message).not.toContain('s3cret')
    expect(message).toContain('ftp://user:***@example.com/a')
  })

  it('follows the one rule for the base URL', () => {
    expect(() => resolveServiceUrl('/a.png', 'ftp://example.com')).toThrow(InvalidArgumentError)
  })
})

describe('checkHttpAddress', () => {
  it('returns an absolute http(s) address as a URL', () => {
    expect(checkHttpAddress('http://127.0.0.1:8787/hotlink/1.mp3').href).toBe('http://127.0.0.1:8787/hotlink/1.mp3')
    expect(checkHttpAddress('HTTPS://Example.com/a b').href).toBe('https://example.com/a%20b')
  })

  it.each([
    ['file:///etc/passwd', /refusing file:\/\/\/etc\/passwd: only http and https/],
    ['data:,x', /refusing data:,x: only http and https/],
    ['relative/path.mp3', /is not an http or https address/],
    ['//example.com/x', /is not an http or https address/],
    ['', /is not an http or https address/],
  ])('refuses %j with a BadResponseError', (address, message) => {
    const error = thrownBy(() => checkHttpAddress(address))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', url: address })
    expect((error as Error).message).toMatch(message)
  })

  it('never shows a password in its messages', () => {
    const message = (thrownBy(() => checkHttpAddress('ftp://user:s3cret@example.com/a')) as Error).message
    expect(message).not.toContain('s3cret')
    expect(message).toContain('***')
  })

  it('shortens a huge address in the message', () => {
    const address = `data:text/plain,${'x'.repeat(100_000)}`
    const error = thrownBy(() => checkHttpAddress(address)) as BadResponseError
    expect(error.url).toBe(address)
    expect(error.message.length).toBeLessThan(500)
  })
})
