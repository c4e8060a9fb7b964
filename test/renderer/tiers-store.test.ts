// The tiers store: the levels cheapest first, this month's bytes (kept current by the downloads
// store), the artist checked with their fit and the cheapest level that fits; an artist the cache
// does not have is said so; a slow answer for an artist no longer checked is dropped; and while
// the screen is open a burst of catalogue changes is read again once, when it is over.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { AccessLevel } from '../../src-main/core/shared/catalogue'
import { tierFits } from '../../src-main/core/shared/tiers'
import type { SessionEvent, SessionSnapshot } from '../../src-main/core/shared/types'
import type { MockApi } from './support/mock-api'

const LEVELS: AccessLevel[] = [
  { id: 3, name: 'Gold', maxsize: 4096, bandwidth: 250, storage: 100, price: 15 },
  { id: 1, name: 'Free', maxsize: 100, bandwidth: 30, storage: 2, price: 0 },
  { id: 2, name: 'Silver', maxsize: 4096, bandwidth: 100, storage: 60, price: 8 },
] as AccessLevel[]

const core = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: SessionSnapshot): void; events(events: SessionEvent[]): void } | undefined,
  calls: { levels: 0, artist: [] as string[], list: [] as unknown[] },
  artists: new Map<string, number[]>(),
  /** Answers for an artist held back until released. */
  hold: new Map<string, Promise<void>>(),
}))

vi.mock('../../src-renderer/api', async () => {
  const { tierFits: fitsOf } = await import('../../src-main/core/shared/tiers')
  const { deserializeError: error } = await import('../../src-main/core/shared/errors')
  const tracksOf = async (name: string): Promise<number[]> => {
    await core.hold.get(name)
    const tracks = core.artists.get(name)
    if (!tracks) throw error({ name: 'NotFoundError', code: 'not_found', message: `no artist ${name}`, retryable: false })
    return tracks
  }
  return {
    api: {
      subscribe: (listener: typeof core.listener) => {
        core.listener = listener
        return { dispose: () => undefined }
      },
      app: { info: async () => ({ transport: 'web' }) },
      catalogue: {
        levels: async () => {
          core.calls.levels++
          return LEVELS
        },
        artist: async (name: string) => {
          core.calls.artist.push(name)
          const tracks = await tracksOf(name)
          return { username: name, name: name.toUpperCase(), tracks: tracks.map((bytes) => ({ bytes })) }
        },
        tierFit: async (name: string) => fitsOf(LEVELS, await tracksOf(name)),
        list: async (query: unknown) => {
          core.calls.list.push(query)
          return { artists: [{ username: 'ann' }], total: 1 }
        },
      },
      downloads: { monthlyBytes: async () => ({ month: '2026-11', bytes: 108_000_000 }), list: async () => [] },
    } satisfies MockApi,
  }
})

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useTiersStore } = await import('../../src-renderer/stores/tiers')
const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')

const settled = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
  await nextTick()
}

beforeEach(async () => {
  setActivePinia(createPinia())
  core.calls = { levels: 0, artist: [], list: [] }
  core.artists = new Map([
    ['ann', [108_000_000, 2_000_000]],
    ['bob', [150_000_000]],
  ])
  core.hold = new Map()
  const session = useSessionStore()
  const started = session.start()
  core.listener!.snapshot({
    service: { baseUrl: 'http://127.0.0.1:1', demo: false, readOnly: false },
    sync: { status: 'running' },
    downloads: { pausedBecause: null },
  } as SessionSnapshot)
  await started
})

afterEach(() => vi.useRealTimers())

describe('the tiers store', () => {
  it('reads the levels cheapest first and this month, and checks the artist named', async () => {
    const tiers = useTiersStore()
    await tiers.start('ann')
    expect(tiers.levels?.map((level) => level.name)).toEqual(['Free', 'Silver', 'Gold'])
    expect(tiers.month).toBe('2026-11')
    expect(tiers.monthBytes).toBe(108_000_000)
    expect(tiers.artist?.username).toBe('ann')
    expect(tiers.fits).toEqual(tierFits(LEVELS, [108_000_000, 2_000_000]))
    // 108 MB is over Free's 100 MB: Silver is the cheapest that fits.
    expect(tiers.fitOf(LEVELS[1]!)?.fits).toBe(false)
    expect(tiers.cheapest?.level.name).toBe('Silver')
    expect(tiers.loadingArtist).toBe(false)
  })

  it('says so of an artist the cache does not have, and clears the artist on none', async () => {
    const tiers = useTiersStore()
    await tiers.start('nobody')
    expect(tiers.artistError).toBe('There is no artist "nobody" in the cache.')
    expect(tiers.artist).toBeNull()
    await tiers.check(null)
    expect(tiers.artistError).toBe('')
    expect(tiers.fits).toBeNull()
    expect(tiers.cheapest).toBeUndefined()
  })

  it('drops a slow answer for an artist no longer checked', async () => {
    const tiers = useTiersStore()
    let release!: () => void
    core.hold.set('bob', new Promise((resolve) => (release = resolve)))
    await tiers.start(null)
    const slow = tiers.check('bob')
    expect(tiers.loadingArtist).toBe(true)
    await tiers.check('ann')
    release()
    await slow
    expect(tiers.artist?.username).toBe('ann')
    expect(tiers.loadingArtist).toBe(false)
  })

  it('follows the downloads store for the month, and reads a burst of catalogue changes again once, while open', async () => {
    vi.useFakeTimers()
    const tiers = useTiersStore()
    await tiers.start('ann')
    useDownloadsStore().monthBytes = 110_000_000
    await nextTick()
    expect(tiers.monthBytes).toBe(110_000_000)

    const before = core.calls.levels
    for (let i = 0; i < 5; i++) core.listener!.events([{ type: 'catalogue-changed' } as SessionEvent])
    await vi.advanceTimersByTimeAsync(400)
    await settled()
    expect(core.calls.levels).toBe(before + 1)

    // Closed, it reads nothing.
    tiers.stop()
    core.listener!.events([{ type: 'catalogue-changed' } as SessionEvent])
    await vi.advanceTimersByTimeAsync(400)
    expect(core.calls.levels).toBe(before + 1)
  })

  it('searches the cached artists for the picker; a search overtaken by a later one gives nothing', async () => {
    const tiers = useTiersStore()
    const first = tiers.searchArtists('an')
    const second = tiers.searchArtists('ann')
    expect(await first).toBeUndefined()
    expect(await second).toEqual([{ username: 'ann' }])
    expect(core.calls.list[1]).toMatchObject({ q: 'ann', includeBlank: true })
  })

})
