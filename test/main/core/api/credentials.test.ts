/** A base URL with a password: requests work, and no client error message (nor its JSON form) ever shows the password. */
import { describe, expect } from 'vitest'
import { createCatalogueClient, type CatalogueClient, type CatalogueClientOptions } from '../../../../src-main/core/api/index'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import {
  BadResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ServerError,
  type TuneshelfError,
} from '../../../../src-main/core/shared/errors'
import { catalogueTest } from '../../support/fixtures'
import { closedPort, rejectionOf, startRawServer, type RawServer } from './helpers'

const PASSWORD = 's3cret'

/** The base URL with user:s3cret@ in it. */
function withPassword(baseUrl: string): string {
  return baseUrl.replace('http://', `http://user:${PASSWORD}@`)
}

interface Case {
  /** Starts what the case needs and returns the failing call. */
  call(demo: RunningCatalogueService, client: (options?: Partial<CatalogueClientOptions>) => CatalogueClient): Promise<unknown>
  errorClass: new (...args: never[]) => TuneshelfError
  code: string
}

const servers: RawServer[] = []
const test = catalogueTest({ artists: 30, seed: 21, maxFileMb: 4 })
test.afterEach(async ({ demo }) => {
  demo.faults.clear()
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** The levels endpoint answers with this fault once. */
function levelsFault(demo: RunningCatalogueService, fault: Parameters<RunningCatalogueService['faults']['add']>[0]['fault']): void {
  demo.faults.add({ path: '/api/v1/access_levels', fault })
}

const CASES: Record<string, Case> = {
  'a 404': {
    call: (_demo, client) => client().getArtist('nobody-here'),
    errorClass: NotFoundError,
    code: 'not_found',
  },
  'a 400 with the service message': {
    call: (_demo, client) => client().listArtists({ perPage: 5 }),
    errorClass: RejectedError,
    code: 'rejected',
  },
  'a 429 asking for a longer wait than allowed': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'status', status: 429, retryAfter: 3600 })
      return client().accessLevels()
    },
    errorClass: RateLimitedError,
    code: 'rate_limited',
  },
  'a 500 when the retries run out': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'status', status: 500 })
      return client({ retries: 0 }).accessLevels()
    },
    errorClass: ServerError,
    code: 'server',
  },
  'malformed JSON': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'malformed' })
      return client({ retries: 0 }).accessLevels()
    },
    errorClass: BadResponseError,
    code: 'bad_response',
  },
  'a body of the wrong shape (respond fault)': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'respond', status: 200, body: '{"1":{"id":"one"}}' })
      return client().accessLevels()
    },
    errorClass: BadResponseError,
    code: 'bad_response',
  },
  'a body over the size cap': {
    call: (_demo, client) => client({ maxBodyBytes: 100 }).listArtists(),
    errorClass: BadResponseError,
    code: 'bad_response',
  },
  'a refused redirect to an address with the same password': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'respond', status: 302, headers: { location: `ftp://user:${PASSWORD}@127.0.0.1/levels` } })
      return client().accessLevels()
    },
    errorClass: BadResponseError,
    code: 'bad_response',
  },
  'a connection dropped mid-body': {
    call: (demo, client) => {
      levelsFault(demo, { kind: 'drop', afterBytes: 10 })
      return client({ retries: 0 }).accessLevels()
    },
    errorClass: NetworkError,
    code: 'network',
  },
  'a closed port': {
    call: async () => {
      const client = createCatalogueClient({ baseUrl: withPassword(`http://127.0.0.1:${await closedPort()}`), retries: 1, backoffMs: 5 })
      return client.accessLevels()
    },
    errorClass: NetworkError,
    code: 'network',
  },
  'a server that never answers': {
    call: async () => {
      const server = await startRawServer(() => undefined)
      servers.push(server)
      return createCatalogueClient({ baseUrl: withPassword(server.url), retries: 0, idleTimeoutMs: 100 }).accessLevels()
    },
    errorClass: NetworkError,
    code: 'network',
  },
  'a file address of the catalogue that is not http(s)': {
    call: (_demo, client) => client().fetchBinary(`ftp://user:${PASSWORD}@127.0.0.1/a.svg`),
    errorClass: BadResponseError,
    code: 'bad_response',
  },
}

describe('a base URL with a password', () => {
  test('works, and the client shows it only without the password', async ({ demo }) => {
    const client = createCatalogueClient({ baseUrl: `${withPassword(demo.baseUrl)}/` })
    expect(client.baseUrl).toBe(withPassword(demo.baseUrl))
    expect(await client.accessLevels()).toHaveLength(4)
  })

  test.for(Object.keys(CASES))('never shows the password in the error of %s', async (name, { demo }) => {
    const { call, errorClass, code } = CASES[name]!
    const client = (options: Partial<CatalogueClientOptions> = {}): CatalogueClient =>
      createCatalogueClient({ baseUrl: withPassword(demo.baseUrl), backoffMs: 5, ...options })
    const error = await rejectionOf(call(demo, client))
    expect(error).toBeInstanceOf(errorClass)
    expect(error).toMatchObject({ code })
    const { message } = error as Error
    expect(message).not.toContain(PASSWORD)
    // Every one names the address it was about, with the password masked.
    expect(message).toMatch(/user:\*\*\*@127\.0\.0\.1/)
    // The form that crosses IPC and is printed by --json.
    expect(JSON.stringify(error)).not.toContain(PASSWORD)
  })
})
