// The player and its queue: a list plays through the one audio element, previous/next/shuffle/
// repeat move in it as players do, a track that cannot be played is skipped with ONE notice in
// words, long tracks resume where they were stopped, and the system's media keys (MediaSession)
// drive it. The element is a fake that plays what it is given until the test says otherwise.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadView } from '../../src-main/core/shared/types'
import type { MockApi } from './support/mock-api'

const fake = vi.hoisted(() => ({
  addresses: new Map<number, string>(),
  byUpload: new Map<string, { id: number; uploadId: string; title: string; artistUsername: string; state: string; fileMissing: boolean }>(),
  missing: [] as number[],
  storage: new Map<string, string>(),
  /** The core cannot answer for the downloads (it is restarting, say). */
  downloadsFail: false,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    downloads: {
      playbackAddress: async (id: number) => {
        const address = fake.addresses.get(id)
        if (address === undefined) throw { name: 'NotFoundError', code: 'not_found', message: `the file of download ${id} is no longer at /gone-${id}.wav`, retryable: false }
        return address
      },
    },
    catalogue: { artist: async () => tones },
  } satisfies MockApi,
}))
vi.mock('../../src-renderer/stores/downloads', () => ({
  useDownloadsStore: () => ({
    downloadsOf: async () => {
      if (fake.downloadsFail) throw { name: 'HostRestartingError', code: 'internal', message: 'the core is restarting', retryable: true }
      return fake.byUpload
    },
    markMissing: (id: number) => fake.missing.push(id) }),
}))

// What Node lacks of the browser: the element's error codes, and localStorage.
vi.stubGlobal('MediaError', { MEDIA_ERR_ABORTED: 1, MEDIA_ERR_NETWORK: 2, MEDIA_ERR_DECODE: 3, MEDIA_ERR_SRC_NOT_SUPPORTED: 4 })
vi.stubGlobal('localStorage', {
  getItem: (key: string) => fake.storage.get(key) ?? null,
  setItem: (key: string, value: string) => void fake.storage.set(key, value),
  removeItem: (key: string) => void fake.storage.delete(key),
})

const { usePlayerStore, RESTART_AFTER } = await import('../../src-renderer/stores/player')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
type QueueTrack = import('../../src-renderer/stores/player').QueueTrack

/** An audio element that plays what it is given until the test says it ended or failed. */
class FakeAudio extends EventTarget {
  src = ''
  paused = true
  currentTime = 0
  duration = NaN
  volume = 1
  muted = false
  playbackRate = 1
  error: { code: number; message: string } | null = null
  played: string[] = []
  async play(): Promise<void> {
    this.paused = false
    this.played.push(this.src)
    this.dispatchEvent(new Event('play'))
    this.dispatchEvent(new Event('playing'))
  }
  pause(): void {
    this.paused = true
    this.dispatchEvent(new Event('pause'))
  }
  load(): void {}
  removeAttribute(): void {
    this.src = ''
  }
  /** The file opened: its length is known. */
  open(seconds: number): void {
    this.duration = seconds
    this.dispatchEvent(new Event('durationchange'))
    this.dispatchEvent(new Event('loadedmetadata'))
  }
  /** Playback reached a time. */
  tick(seconds: number): void {
    this.currentTime = seconds
    this.dispatchEvent(new Event('timeupdate'))
  }
  /** The file played to its end. */
  end(): void {
    this.paused = true
    this.dispatchEvent(new Event('pause'))
    this.dispatchEvent(new Event('ended'))
  }
  /** The element gave up on the file. */
  fail(code: number): void {
    this.error = { code, message: '' }
    this.paused = true
    this.dispatchEvent(new Event('error'))
  }
}

const tones = {
  username: 'tones',
  name: 'Tones',
  tracks: ['u1', 'u2', 'u3', 'u4', 'u5'].map((uploadId) => ({ uploadId })),
} as unknown as NonNullable<Parameters<ReturnType<typeof usePlayerStore>['play']>[1]>

/** A completed download of Tones whose file plays (unless `playable` is false). */
function completed(id: number, uploadId: string, title: string, playable = true): DownloadView {
  const download = { id, uploadId, title, artistUsername: 'tones', artistName: 'Tones', state: 'completed', fileMissing: false }
  fake.byUpload.set(uploadId, download)
  if (playable) fake.addresses.set(id, `media://${id}`)
  return download as unknown as DownloadView
}

function entry(id: number, title = `Track ${id}`): QueueTrack {
  fake.addresses.set(id, `media://${id}`)
  return { downloadId: id, uploadId: `u${id}`, title, artistUsername: 'tones', artistName: 'Tones' }
}

function attached(): { player: ReturnType<typeof usePlayerStore>; audio: FakeAudio } {
  const player = usePlayerStore()
  const audio = new FakeAudio()
  player.attach(audio as unknown as HTMLAudioElement)
  return { player, audio }
}

const ids = (tracks: readonly QueueTrack[]) => tracks.map((track) => track.downloadId)
const shown = () => useNoticesStore().shown.map(({ title, message }) => ({ title, message }))

/** The pages of this test, each with its stores. */
const pages: EventTarget[] = []

/** A page of its own (a test, a reload): the stores of another one do not hear its pagehide. */
function newPage(): void {
  const page = new EventTarget()
  pages.push(page)
  vi.stubGlobal('window', page)
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }))
  setActivePinia(createPinia())
}

// A store's throttled save (kept-state.ts, up to a second later) would land in a later test's storage:
// each page of the test saves now instead, which cancels it.
afterEach(() => {
  for (const page of pages.splice(0)) page.dispatchEvent(new Event('pagehide'))
})

beforeEach(() => {
  newPage()
  fake.addresses.clear()
  fake.byUpload.clear()
  fake.missing.length = 0
  fake.storage.clear()
  fake.downloadsFail = false
})

describe('the play queue', () => {
  it('plays a list from the track asked for, goes on to the next when one ends, and stops after the last', async () => {
    const { player, audio } = attached()
    await player.playList([entry(1), entry(2), entry(3)], 1)
    expect(player.current).toMatchObject({ downloadId: 2, title: 'Track 2', artistName: 'Tones' })
    expect(player.index).toBe(1)
    expect(player.isCurrent('u2')).toBe(true)
    expect(player.isCurrent('u1')).toBe(false)
    expect(player.upcoming?.downloadId).toBe(3)
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(3))
    expect(player.hasNext).toBe(false)
    audio.end()
    // The last one ended, nothing repeats: the player stays on it, not playing.
    expect(player.current?.downloadId).toBe(3)
    expect(player.playing).toBe(false)
    expect(audio.played).toEqual(['media://2', 'media://3'])
    expect(shown()).toEqual([])
  })

  it("plays a download and then the rest of its artist's downloaded tracks, in the artist's order (play)", async () => {
    completed(1, 'u1', 'First')
    const second = completed(2, 'u2', 'Second')
    completed(4, 'u4', 'Fourth')
    fake.byUpload.set('u3', { id: 3, uploadId: 'u3', title: 'Queued', artistUsername: 'tones', state: 'queued', fileMissing: false })
    const { player, audio } = attached()
    await player.play(second, tones)
    expect(ids(player.queue)).toEqual([1, 2, 4])
    expect(player.current?.downloadId).toBe(2)
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(4))
    // Without the artist at hand, it is read from the cache: the same queue.
    await player.play(second)
    expect(ids(player.queue)).toEqual([1, 2, 4])
  })

  it('previous starts the track over after its first seconds, else goes to the track before; next moves on', async () => {
    const { player, audio } = attached()
    await player.playList([entry(1), entry(2), entry(3)], 1)
    audio.open(60)
    audio.tick(RESTART_AFTER + 1)
    await player.previous()
    expect(player.current?.downloadId).toBe(2)
    expect(audio.currentTime).toBe(0)
    await player.previous()
    expect(player.current?.downloadId).toBe(1)
    // The first track has nothing before it: it starts over.
    audio.tick(1)
    await player.previous()
    expect(player.current?.downloadId).toBe(1)
    expect(audio.currentTime).toBe(0)
    await player.next()
    await player.playNext()
    expect(player.current?.downloadId).toBe(3)
    await player.next()
    expect(player.current?.downloadId).toBe(3)
  })

  it('repeat all comes back to the first track after the last; repeat one plays the same track again; both are kept', async () => {
    const { player, audio } = attached()
    await player.playList([entry(1), entry(2)], 1)
    expect(player.repeat).toBe('off')
    player.cycleRepeat()
    expect(player.repeat).toBe('all')
    expect(player.hasNext).toBe(true)
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(1))
    await player.previous()
    expect(player.current?.downloadId).toBe(2)
    player.cycleRepeat()
    expect(player.repeat).toBe('one')
    audio.tick(30)
    audio.end()
    await vi.waitFor(() => expect(audio.played).toEqual(['media://2', 'media://1', 'media://2', 'media://2']))
    expect(player.current?.downloadId).toBe(2)
    expect(audio.currentTime).toBe(0)
    // Next by hand still moves on under repeat one (the queue loops).
    await player.next()
    expect(player.current?.downloadId).toBe(1)
    await player.previous()
    expect(player.current?.downloadId).toBe(2)
    player.cycleRepeat()
    expect(player.repeat).toBe('off')
    player.setRepeat('all')
    setActivePinia(createPinia())
    expect(usePlayerStore().repeat).toBe('all')
  })

  it('shuffle keeps the current track first and its place; off goes back to the given order at the same track; it is kept', async () => {
    const { player } = attached()
    const list = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => entry(id))
    await player.playList(list, 2)
    player.setShuffle(true)
    expect(player.shuffle).toBe(true)
    expect(player.current?.downloadId).toBe(3)
    expect(player.index).toBe(0)
    expect(ids(player.queue).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    await player.next()
    const second = player.current!.downloadId
    player.setShuffle(false)
    expect(ids(player.queue)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(player.current?.downloadId).toBe(second)
    expect(player.index).toBe(second - 1)
    // On when a list starts: the track asked for plays first, the others after it.
    player.setShuffle(true)
    setActivePinia(createPinia())
    const again = attached().player
    expect(again.shuffle).toBe(true)
    await again.playList(list, 5)
    expect(again.current?.downloadId).toBe(6)
    expect(again.index).toBe(0)
    expect(ids(again.queue).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('takes tracks off the queue, keeping the current one playing (and not removable), and lists each download once', async () => {
    const { player } = attached()
    await player.playList([entry(1), entry(2), entry(2), entry(3), entry(4)], 2)
    expect(ids(player.queue)).toEqual([1, 2, 3, 4])
    expect(player.current?.downloadId).toBe(3)
    player.remove(0)
    expect(ids(player.queue)).toEqual([2, 3, 4])
    expect(player.current?.downloadId).toBe(3)
    player.remove(player.index)
    expect(ids(player.queue)).toEqual([2, 3, 4])
    player.remove(2)
    expect(ids(player.queue)).toEqual([2, 3])
    expect(player.hasNext).toBe(false)
    await player.jump(0)
    expect(player.current?.downloadId).toBe(2)
    player.stop()
    expect(player.current).toBeNull()
    expect(player.queue).toEqual([])
  })

  it('keeps the volume for the next session', () => {
    const { player, audio } = attached()
    player.setVolume(0.3)
    expect(audio.volume).toBe(0.3)
    setActivePinia(createPinia())
    expect(usePlayerStore().volume).toBe(0.3)
  })
})

describe('tracks that cannot be played', () => {
  it('are skipped on the way to one that plays, told in ONE notice naming them and why', async () => {
    const { player, audio } = attached()
    const gone = { ...entry(1, 'Gone'), downloadId: 11 }
    const also = { ...entry(2, 'Also gone'), downloadId: 12 }
    await player.playList([gone, also, entry(3, 'Plays')])
    expect(player.current?.downloadId).toBe(3)
    expect(player.playing).toBe(true)
    expect(fake.missing).toEqual([11, 12])
    expect(shown()).toEqual([
      {
        title: 'Skipped 2 tracks that could not be played: Not found',
        message: '"Gone": the file of download 11 is no longer at /gone-11.wav; "Also gone": the file of download 12 is no longer at /gone-12.wav',
      },
    ])
    // A file the element cannot decode: skipped to the next one, told once.
    useNoticesStore().dismissFolded()
    for (const notice of useNoticesStore().shown) useNoticesStore().dismiss(notice.id)
    await player.playList([entry(4, 'Broken'), entry(5, 'Fine')])
    audio.fail(3)
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(5))
    expect(shown()).toEqual([{ title: 'Skipped "Broken", which could not be played: File error', message: 'the file is damaged, or in a format this player cannot decode' }])
  })

  it('stop playback with one notice when nothing after them can be played, also under repeat all; Play tries again', async () => {
    const { player, audio } = attached()
    player.setRepeat('all')
    await player.playList([entry(1, 'A tone'), entry(2, 'Not a tone')])
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(2))
    audio.fail(4)
    // Repeat all comes back to the first, which plays.
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(1))
    expect(shown()).toEqual([{ title: 'Skipped "Not a tone", which could not be played: File error', message: 'the file is missing, or in a format this player cannot play' }])
    // Both files gone: each tried once, then playback stops on the last track played; the queue's one notice now says so, for both.
    fake.addresses.clear()
    audio.end()
    await vi.waitFor(() => expect(shown()[0]?.title).toMatch(/^Could not play/))
    expect(player.current?.downloadId).toBe(1)
    expect(ids(player.queue)).toEqual([1, 2])
    expect(player.playing).toBe(false)
    expect(audio.played).toEqual(['media://1', 'media://2', 'media://1'])
    expect(shown()).toEqual([
      {
        title: 'Could not play 2 tracks: Not found',
        message: '"Not a tone": the file of download 2 is no longer at /gone-2.wav; "A tone": the file of download 1 is no longer at /gone-1.wav',
      },
    ])
    // Play on a track the element gave up on loads it again (a file put back plays).
    fake.addresses.set(2, 'media://2')
    await player.jump(1)
    audio.fail(4)
    await vi.waitFor(() => expect(shown()[0]?.message).toMatch(/^"Not a tone": the file is missing/))
    expect(shown()).toEqual([
      {
        title: 'Could not play 2 tracks: File error',
        message: '"Not a tone": the file is missing, or in a format this player cannot play; "A tone": the file of download 1 is no longer at /gone-1.wav',
      },
    ])
    expect(player.current?.downloadId).toBe(2)
    expect(player.playing).toBe(false)
    const plays = audio.played.length
    await player.toggle()
    expect(audio.played.slice(plays)).toEqual(['media://2'])
    expect(player.playing).toBe(true)
  })

  it('in a queue where playable files alternate with unplayable ones: ONE notice for the queue, updated in place, each reason said once', async () => {
    const { player, audio } = attached()
    const list = [entry(1, 'Plays 1'), entry(2, 'Bad 2'), entry(3, 'Plays 3'), entry(4, 'Bad 4'), entry(5, 'Bad 5'), entry(6, 'Plays 6'), entry(7, 'Bad 7'), entry(8, 'Plays 8')]
    await player.playList(list)
    const bad = new Set([2, 4, 5, 7])
    // Each track ends, or fails as the browser's element does for a file it cannot play.
    for (let step = 0; step < 12 && player.current; step++) {
      const at = player.current.downloadId
      if (bad.has(at)) audio.fail(4)
      else if (at === 8) break
      else audio.end()
      await vi.waitFor(() => expect(player.current?.downloadId).not.toBe(at))
      expect(shown().length).toBeLessThanOrEqual(1)
    }
    expect(player.current?.downloadId).toBe(8)
    expect(player.playing).toBe(true)
    expect(shown()).toEqual([
      {
        title: 'Skipped 4 tracks that could not be played: File error',
        message: '"Bad 2", "Bad 4", "Bad 5" and 1 more: the file is missing, or in a format this player cannot play',
      },
    ])
    // The same notice all along (its id), so the list does not stack.
    const [notice] = useNoticesStore().notices
    expect(useNoticesStore().notices).toHaveLength(1)
    // Another message meanwhile stays; a new Play all has its own notice, in the place of the last queue's.
    useNoticesStore().error(new Error('the disk said no'), 'Could not save')
    await player.playList([entry(21, 'Broken'), entry(22, 'Fine')])
    audio.fail(3)
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(22))
    expect(shown()).toEqual([
      { title: 'Could not save: Something went wrong', message: 'the disk said no' },
      { title: 'Skipped "Broken", which could not be played: File error', message: 'the file is damaged, or in a format this player cannot decode' },
    ])
    expect(useNoticesStore().notices.at(-1)!.id).toBe(notice!.id)
    // A new list that plays at once leaves the last queue's notice as it was.
    await player.playList([entry(31, 'Good')])
    expect(shown()).toHaveLength(2)
  })

  it('names the first few of many, counts the others, and leaves a playing queue alone when a new list has nothing playable', async () => {
    const { player } = attached()
    await player.playList([entry(9, 'Playing')])
    const broken = [1, 2, 3, 4, 5].map((id) => ({ ...entry(id, `Broken ${id}`), downloadId: 100 + id }))
    await player.playList(broken)
    expect(player.current?.downloadId).toBe(9)
    expect(ids(player.queue)).toEqual([9])
    expect(shown()).toHaveLength(1)
    expect(shown()[0]!.title).toBe('Could not play 5 tracks: Not found')
    expect(shown()[0]!.message).toMatch(/^"Broken 1": .*; "Broken 2": .*; "Broken 3": .*; and 2 more$/)
  })

  it('says why when the core refuses the only track, marks the download so, and leaves the player empty', async () => {
    const gone = completed(5, 'u1', ' ', false)
    const { player } = attached()
    await player.play(gone, tones)
    expect(player.current).toBeNull()
    expect(fake.missing).toEqual([5])
    expect(shown()).toEqual([{ title: 'Could not play "Untitled": Not found', message: 'the file of download 5 is no longer at /gone-5.wav' }])
  })

  it('says why the browser refused to play, but not for a load that a newer one interrupted', async () => {
    const first = completed(1, 'u1', 'First')
    const { player, audio } = attached()
    audio.play = () => Promise.reject(Object.assign(new Error('play() can only be initiated by a user gesture'), { name: 'NotAllowedError' }))
    await player.play(first, tones)
    audio.play = () => Promise.reject(Object.assign(new Error('interrupted by a new load request'), { name: 'AbortError' }))
    await player.play(first, tones)
    expect(shown()).toEqual([{ title: 'Could not play "First": Not available here', message: 'play() can only be initiated by a user gesture' }])
  })
})

describe('long tracks', () => {
  const stored = () => JSON.parse(fake.storage.get('tuneshelf.player.resume') ?? '[]') as [string, number][]

  it('resume where they were stopped, in a later session; the place is saved every few seconds, and forgotten when finished', async () => {
    let { player, audio } = attached()
    await player.playList([entry(1, 'Episode'), entry(2, 'Short')])
    audio.open(1800)
    audio.tick(3)
    expect(stored()).toEqual([])
    audio.tick(6)
    expect(stored()).toEqual([['u1', 6]])
    // Throttled: saved again only once it moved far enough, or at once on pause.
    audio.tick(9)
    expect(stored()).toEqual([['u1', 6]])
    audio.tick(754.4)
    player.pause()
    expect(stored()).toEqual([['u1', 754]])

    setActivePinia(createPinia())
    ;({ player, audio } = attached())
    await player.playList([entry(1, 'Episode'), entry(2, 'Short')])
    audio.open(1800)
    expect(audio.currentTime).toBe(754)
    expect(player.position).toBe(754)
    // Leaving it for the next track keeps its place.
    audio.tick(800)
    await player.next()
    expect(stored()).toEqual([['u1', 800]])
    // A short track is never saved.
    audio.open(200)
    audio.tick(100)
    player.pause()
    expect(stored()).toEqual([['u1', 800]])
    // Played to its end: forgotten, it starts over next time.
    await player.jump(0)
    audio.open(1800)
    expect(audio.currentTime).toBe(800)
    audio.tick(1800)
    audio.end()
    expect(stored()).toEqual([])
  })
})

describe('the media keys (MediaSession)', () => {
  it("drive the player, and see the track's names, whether it plays and where it is", async () => {
    const handlers = new Map<string, ((details: { seekTime?: number; seekOffset?: number }) => void) | null>()
    const session = {
      metadata: null as unknown,
      playbackState: 'none',
      setActionHandler: (action: string, handler: ((details: object) => void) | null) => void handlers.set(action, handler),
      setPositionState: vi.fn(),
    }
    const original = globalThis.navigator
    vi.stubGlobal('navigator', { mediaSession: session })
    vi.stubGlobal(
      'MediaMetadata',
      class {
        constructor(readonly init: object) {}
      },
    )
    try {
      const player = usePlayerStore()
      const audio = new FakeAudio()
      const attached = player.attach(audio as unknown as HTMLAudioElement)
      expect([...handlers.keys()].sort()).toEqual(['nexttrack', 'pause', 'play', 'previoustrack', 'seekbackward', 'seekforward', 'seekto'])
      await player.playList([entry(1, 'One'), entry(2, 'Two'), entry(3, 'Three')])
      await vi.waitFor(() => expect(session.metadata).toEqual({ init: { title: 'One', artist: 'Tones' } }))
      expect(session.playbackState).toBe('playing')
      audio.open(120)
      expect(session.setPositionState).toHaveBeenLastCalledWith({ duration: 120, position: 0, playbackRate: 1 })

      const act = (action: string, details = {}) => handlers.get(action)!(details)
      act('pause')
      expect(audio.paused).toBe(true)
      expect(session.playbackState).toBe('paused')
      act('play')
      expect(audio.paused).toBe(false)
      act('seekto', { seekTime: 50 })
      expect(audio.currentTime).toBe(50)
      act('seekforward')
      expect(audio.currentTime).toBe(60)
      act('seekbackward', { seekOffset: 30 })
      expect(audio.currentTime).toBe(30)
      act('nexttrack')
      await vi.waitFor(() => expect(player.current?.downloadId).toBe(2))
      await vi.waitFor(() => expect(session.metadata).toEqual({ init: { title: 'Two', artist: 'Tones' } }))
      act('previoustrack')
      await vi.waitFor(() => expect(player.current?.downloadId).toBe(1))

      attached.dispose()
      expect([...handlers.values()].every((handler) => handler === null)).toBe(true)
      expect(session.playbackState).toBe('none')
    } finally {
      vi.stubGlobal('navigator', original)
    }
  })
})

describe('a reload, or a restart', () => {
  /** The page goes (a reload, the window closed): what is kept is written at once; then the new page's player. */
  async function reload(): Promise<{ player: ReturnType<typeof usePlayerStore>; audio: FakeAudio }> {
    window.dispatchEvent(new Event('pagehide'))
    newPage()
    const next = attached()
    // Put back once the downloads were read (or it is settled that nothing is).
    await vi.waitFor(() => expect(fake.storage.has('tuneshelf.player.queue') === (next.player.current !== null)).toBe(true))
    await new Promise((resolve) => setTimeout(resolve, 0))
    return next
  }
  const track = (download: DownloadView): QueueTrack => ({
    downloadId: download.id,
    uploadId: download.uploadId,
    title: download.title,
    artistUsername: 'tones',
    artistName: 'Tones',
  })

  it('puts the queue, its track and the place back, paused: nothing plays until Play, which goes on from there', async () => {
    let { player, audio } = attached()
    const list = [completed(1, 'u1', 'One'), completed(2, 'u2', 'Two'), completed(3, 'u3', 'Three')].map(track)
    await player.playList(list, 1)
    audio.open(200)
    audio.tick(42.5)

    ;({ player, audio } = await reload())
    expect(player.current).toMatchObject({ downloadId: 2, title: 'Two', artistName: 'Tones' })
    expect(ids(player.queue)).toEqual([1, 2, 3])
    expect(player.index).toBe(1)
    expect(player.position).toBe(42.5)
    expect(player.playing).toBe(false)
    // The file is loaded, not played.
    expect(audio.src).toBe('media://2')
    expect(audio.played).toEqual([])
    audio.open(200)
    expect(audio.currentTime).toBe(42.5)
    expect(player.duration).toBe(200)

    await player.toggle()
    expect(audio.played).toEqual(['media://2'])
    expect(audio.currentTime).toBe(42.5)
    expect(player.playing).toBe(true)
    expect(shown()).toEqual([])
  })

  it('keeps the shuffled order and the order given; the place only of the track it was saved for', async () => {
    let { player, audio } = attached()
    const list = [1, 2, 3, 4, 5].map((id) => track(completed(id, `u${id}`, `T${id}`)))
    player.setShuffle(true)
    await player.playList(list, 2)
    audio.open(100)
    audio.tick(30)
    await player.next()
    const order = ids(player.queue)
    expect(order[0]).toBe(3)
    // Saved while the second track was loading: its place is its start, not the first one's 30 s.
    ;({ player, audio } = await reload())
    expect(ids(player.queue)).toEqual(order)
    expect(player.index).toBe(1)
    expect(player.position).toBe(0)
    expect(player.shuffle).toBe(true)
    player.setShuffle(false)
    expect(ids(player.queue)).toEqual([1, 2, 3, 4, 5])
    expect(player.current?.downloadId).toBe(order[1])
  })

  it('leaves out, quietly, the tracks whose download is gone or whose file is; the same upload downloaded again plays its new file', async () => {
    let { player, audio } = attached()
    const list = [1, 2, 3, 4, 5].map((id) => track(completed(id, `u${id}`, `T${id}`)))
    await player.playList(list, 1)
    audio.open(100)
    audio.tick(20)
    player.pause()
    // Meanwhile: 1's file was found missing, 2 (the current one) was removed, 3's row says completed
    // but its file is gone from the disk, 4 was downloaded again, 5 is as it was.
    fake.byUpload.set('u1', { ...fake.byUpload.get('u1')!, fileMissing: true })
    fake.byUpload.delete('u2')
    fake.addresses.delete(3)
    fake.byUpload.set('u4', { ...fake.byUpload.get('u4')!, id: 40 })
    fake.addresses.set(40, 'media://40')

    ;({ player, audio } = await reload())
    // The current one gone, the next one left takes its place, from its start; 3 is found gone on the way.
    expect(ids(player.queue)).toEqual([40, 5])
    expect(player.current).toMatchObject({ downloadId: 40, uploadId: 'u4', title: 'T4' })
    expect(player.position).toBe(0)
    expect(audio.src).toBe('media://40')
    expect(audio.played).toEqual([])
    expect(fake.missing).toEqual([3])
    // No error storm: nothing was asked to play.
    expect(shown()).toEqual([])
    // What is kept now is what was put back.
    ;({ player, audio } = await reload())
    expect(ids(player.queue)).toEqual([40, 5])
  })

  it('a file the element cannot open is taken off the queue for the next one, still paused; nothing left, no player', async () => {
    let { player, audio } = attached()
    await player.playList([1, 2].map((id) => track(completed(id, `u${id}`, `T${id}`))), 0)
    audio.tick(10)
    player.pause()
    ;({ player, audio } = await reload())
    expect(player.current?.downloadId).toBe(1)
    audio.fail(3)
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(2))
    expect(ids(player.queue)).toEqual([2])
    expect(audio.played).toEqual([])
    audio.error = null
    audio.fail(4)
    await vi.waitFor(() => expect(player.current).toBeNull())
    expect(audio.played).toEqual([])
    expect(shown()).toEqual([])
    ;({ player } = await reload())
    expect(player.current).toBeNull()
  })

  it('a player closed stays closed; a kept value damaged or of another shape is ignored', async () => {
    let { player, audio } = attached()
    await player.playList([1, 2].map((id) => track(completed(id, `u${id}`, `T${id}`))), 0)
    player.stop()
    ;({ player, audio } = await reload())
    expect(player.current).toBeNull()
    expect(fake.storage.has('tuneshelf.player.queue')).toBe(false)

    const good = { tracks: [track(completed(1, 'u1', 'T1'))], order: [0], index: 0 }
    const kept = (value: unknown, v = 1): string => JSON.stringify({ v, value })
    const bad = [
      '{ not json',
      kept(good, 2),
      JSON.stringify(good),
      kept({ ...good, index: 1 }),
      kept({ ...good, order: [1] }),
      kept({ ...good, order: [0, 0] }),
      kept({ ...good, tracks: [{ downloadId: 'one' }] }),
      kept({ ...good, tracks: [] }),
      kept(null),
    ]
    for (const text of bad) {
      fake.storage.set('tuneshelf.player.queue', text)
      newPage()
      ;({ player, audio } = attached())
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(player.current, text).toBeNull()
      expect(audio.src, text).toBe('')
    }
    // A damaged place is ignored alone: the queue comes back at the track's start.
    fake.storage.set('tuneshelf.player.queue', kept(good))
    fake.storage.set('tuneshelf.player.place', kept({ downloadId: 1, at: 'late' }))
    newPage()
    ;({ player } = attached())
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(1))
    expect(player.position).toBe(0)
  })

  it('a session that could not be put back (the core did not answer) is kept for the next reload, unless a new queue replaces it', async () => {
    let { player, audio } = attached()
    await player.playList([1, 2].map((id) => track(completed(id, `u${id}`, `T${id}`))), 1)
    audio.tick(12)
    player.pause()
    const kept = [fake.storage.get('tuneshelf.player.queue'), fake.storage.get('tuneshelf.player.place')]
    fake.downloadsFail = true
    window.dispatchEvent(new Event('pagehide'))
    newPage()
    ;({ player, audio } = attached())
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(player.current).toBeNull()
    expect(shown()).toEqual([])
    window.dispatchEvent(new Event('pagehide'))
    expect([fake.storage.get('tuneshelf.player.queue'), fake.storage.get('tuneshelf.player.place')]).toEqual(kept)

    fake.downloadsFail = false
    ;({ player, audio } = await reload())
    expect(player.current?.downloadId).toBe(2)
    expect(player.position).toBe(12)
  })

  it('playing something while the last session is being put back wins', async () => {
    let { player, audio } = attached()
    await player.playList([1, 2].map((id) => track(completed(id, `u${id}`, `T${id}`))), 1)
    window.dispatchEvent(new Event('pagehide'))
    newPage()
    ;({ player, audio } = attached())
    await player.playList([track(completed(7, 'u7', 'T7'))])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ids(player.queue)).toEqual([7])
    expect(audio.played).toEqual(['media://7'])
    // And it is what the next reload finds.
    ;({ player } = await reload())
    expect(ids(player.queue)).toEqual([7])
  })
})
