/**
 * Attack 11: a catalogue on the internet pointed the app at the user's own
 * machine and network (a hotlink, an avatar, a redirect to 127.0.0.1, the LAN
 * or the cloud metadata address 169.254.169.254), and the app fetched it. Now,
 * unless the catalogue itself is on loopback or a private network, such
 * targets are refused: literal addresses before any connection, names after
 * resolving them (so the connection uses the very addresses checked).
 *
 * Offline, no name resolves to a public address; so the test stands in for the
 * network: its resolver says `catalogue.test` is 203.0.113.5 (public), and its
 * agent routes connections to 203.0.113.5 to the loopback server, after the
 * app's own lookup has checked the address. The "inside" server plays the
 * private target: it must never see a request.
 */
import http from 'node:http'
import net from 'node:net'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import dns from 'node:dns'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isPrivateAddress, type Resolver } from '../../../src-main/core/api/address-guard'
import { createHttp, type Http } from '../../../src-main/core/api/http'
import { createCatalogueClient } from '../../../src-main/core/api/index'
import { transfer } from '../../../src-main/core/downloads/transfer'
import { fetchAvatar } from '../../../src-main/core/sync/avatars'
import { rejectionOf, startRawServer, type RawServer } from '../core/api/helpers'

const PUBLIC = '203.0.113.5'
const PNG = Buffer.from('89504e470d0a1a0a', 'hex')

/** Names the test's network knows; anything else is resolved for real (localhost). */
function resolver(names: Record<string, string>): Resolver {
  return async (hostname) => {
    const address = names[hostname]
    if (address !== undefined) return [{ address, family: net.isIP(address) === 6 ? 6 : 4 }]
    return (await dns.promises.lookup(hostname, { all: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
  }
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void
type Lookup = (hostname: string, options: object, callback: LookupCallback) => void

/** The test's router: a connection to the public address goes to loopback, after the app's lookup approved it. */
class RoutingAgent extends http.Agent {
  override createConnection(options: net.NetConnectOpts & { lookup?: Lookup }): net.Socket {
    const lookup = options.lookup
    if (!lookup) throw new Error('the app connected without its own lookup')
    const route = (address: string): string => (address === PUBLIC ? '127.0.0.1' : address)
    return net.createConnection({
      ...options,
      lookup: (hostname: string, lookupOptions: object, callback: LookupCallback) =>
        lookup(hostname, lookupOptions, (error, address, family) => {
          if (error) callback(error, '')
          else if (Array.isArray(address)) callback(null, address.map((entry) => ({ ...entry, address: route(entry.address) })))
          else callback(null, route(address), family)
        }),
    } as net.NetConnectOpts)
  }
}

/** The app's Http for a catalogue at baseUrl, on the test's network. */
function httpOn(baseUrl: string): Http {
  const made = createHttp({ baseUrl, resolve: resolver({ 'catalogue.test': PUBLIC, 'intranet.test': '10.0.0.1', 'loop.test': '127.0.0.1' }), connectTimeoutMs: 500 })
  return { ...made, got: made.got.extend({ agent: { http: new RoutingAgent({ keepAlive: false }) } }) }
}

let catalogue: RawServer
let inside: RawServer
let insidePort: string
let publicBase: string
let folder: string

beforeAll(async () => {
  inside = await startRawServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG))
  insidePort = new URL(inside.url).port
  catalogue = await startRawServer((request, response) => {
    const to = /^\/redirect\?to=(.*)$/.exec(request.url ?? '')
    if (to) response.writeHead(302, { location: decodeURIComponent(to[1]!) }).end()
    else if (request.url === '/api/v1/access_levels') response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    else response.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
  })
  publicBase = `http://catalogue.test:${new URL(catalogue.url).port}`
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-private-'))
})
afterAll(async () => {
  await Promise.all([catalogue.close(), inside.close()])
  fs.rmSync(folder, { recursive: true, force: true })
})

/** Private targets of every kind: literal loopback, LAN, link-local (cloud metadata), IPv6 and mapped forms, and names resolving to them. */
function privateTargets(): string[] {
  return [
    `http://127.0.0.1:${insidePort}/avatar.png`,
    `http://localhost:${insidePort}/avatar.png`,
    `http://loop.test:${insidePort}/avatar.png`,
    `http://[::1]:${insidePort}/avatar.png`,
    `http://[::ffff:127.0.0.1]:${insidePort}/avatar.png`,
    `http://2130706433:${insidePort}/avatar.png`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/admin',
    'http://intranet.test/admin',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
  ]
}

function expectRefused(error: unknown): void {
  expect(error).toMatchObject({ code: 'bad_response', retryable: false })
  expect((error as Error).message).toMatch(/private|loopback|local network/)
}

describe('a catalogue on a public address', () => {
  test('is itself reached (through the test network)', async () => {
    const client = createCatalogueClient({ baseUrl: publicBase, http: httpOn(publicBase), retries: 0 })
    expect(await client.accessLevels()).toEqual([])
    expect((await fetchAvatar(client, '/avatar.png', new AbortController().signal)).body).toEqual(PNG)
  })

  test('cannot point an avatar at a private or loopback address', async () => {
    const client = createCatalogueClient({ baseUrl: publicBase, http: httpOn(publicBase), retries: 0 })
    for (const target of privateTargets()) {
      expectRefused(await rejectionOf(fetchAvatar(client, target, new AbortController().signal)))
    }
    expect(inside.requests).toEqual([])
  })

  test('cannot redirect a catalogue request or an avatar there', async () => {
    const client = createCatalogueClient({ baseUrl: publicBase, http: httpOn(publicBase), retries: 0 })
    for (const target of privateTargets()) {
      expectRefused(await rejectionOf(fetchAvatar(client, `/redirect?to=${encodeURIComponent(target)}`, new AbortController().signal)))
    }
    expect(inside.requests).toEqual([])
  })

  test('cannot have a track downloaded from there, directly or by a redirect', async () => {
    const http = httpOn(publicBase)
    for (const [index, target] of privateTargets().entries()) {
      for (const url of [target, `${publicBase}/redirect?to=${encodeURIComponent(target)}`]) {
        const error = await rejectionOf(
          transfer({ url, http, target: path.join(folder, `${index}.mp3`), folder, expectedBytes: PNG.length, validator: null, signal: new AbortController().signal, retries: 0 }),
        )
        expectRefused(error)
      }
    }
    expect(inside.requests).toEqual([])
  })
})

describe('a catalogue on loopback or the LAN', () => {
  test('may point at its own network', async () => {
    const base = catalogue.url
    const client = createCatalogueClient({ baseUrl: base, http: httpOn(base), retries: 0 })
    const image = await fetchAvatar(client, `http://127.0.0.1:${insidePort}/avatar.png`, new AbortController().signal)
    expect(image.body).toEqual(PNG)
    const redirected = await fetchAvatar(client, `/redirect?to=${encodeURIComponent(`http://localhost:${insidePort}/a.png`)}`, new AbortController().signal)
    expect(redirected.body).toEqual(PNG)
    expect(inside.requests).toHaveLength(2)
    inside.requests.length = 0
  })
})

describe('what counts as private', () => {
  test.for([
    ['127.0.0.1', true], ['127.8.9.1', true], ['10.1.2.3', true], ['172.16.0.1', true], ['172.31.255.255', true], ['192.168.0.10', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['100.127.255.255', true], ['0.0.0.0', true], ['::', true], ['::1', true],
    ['fc00::1', true], ['fd12:3456::1', true], ['fe80::1', true], ['::ffff:127.0.0.1', true], ['::ffff:7f00:1', true], ['::ffff:a9fe:a9fe', true],
    ['::127.0.0.1', true],
    ['203.0.113.5', false], ['8.8.8.8', false], ['172.32.0.1', false], ['100.128.0.1', false], ['2001:db8::1', false], ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ] as const)('%s: %s', ([address, expected]) => {
    expect(isPrivateAddress(address)).toBe(expected)
  })
})
