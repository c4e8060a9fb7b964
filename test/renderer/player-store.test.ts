// The player: a track plays through the one audio element; at its end the artist's next downloaded
// track follows; a file the element cannot play, or a media address the core refuses, is a notice
// in words (never "[object Object]"), and the player says it is not playing.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadView } from '../../src-main/core/shared/types'

const fake = vi.hoisted(() => ({
  addresses: new Map<number, string>(),
  byUpload: new Map<string, { id: number; uploadId: string; title: string; artistUsername: string; state: string }>(),
  missing: [] as number[],
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    downloads: {
      playbackAddress: async (id: number) => {
        const address = fake.addresses.get(id)
        if (address === undefined) throw { name: 'NotFoundError', code: 'not_found', message: `the file of download ${id} is no longer at /gone.wav`, retryable: false }
        return address
      },
    },
    catalogue: { artist: async () => ({ username: 'tones', name: 'Tones', tracks: [] }) },
  },
}))
vi.mock('../../src-renderer/stores/downloads', () => ({ useDownloadsStore: () => ({ byUpload: fake.byUpload, markMissing: (id: number) => fake.missing.push(id) }) }))

// What Node lacks of the browser: the element's error codes, and the stored volume.
vi.stubGlobal('MediaError', { MEDIA_ERR_ABORTED: 1, MEDIA_ERR_NETWORK: 2, MEDIA_ERR_DECODE: 3, MEDIA_ERR_SRC_NOT_SUPPORTED: 4 })
vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined })

const { usePlayerStore } = await import('../../src-renderer/stores/player')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')

/** An audio element that plays what it is given until the test says it ended or failed. */
class FakeAudio extends EventTarget {
  src = ''
  paused = true
  currentTime = 0
  duration = NaN
  volume = 1
  muted = false
  error: { code: number; message: string } | null = null
  played: string[] = []
  async play(): Promise<void> {
    this.paused = false
    this.played.push(this.src)
    this.dispatchEvent(new Event('play'))
  }
  pause(): void {
    this.paused = true
    this.dispatchEvent(new Event('pause'))
  }
  load(): void {}
  removeAttribute(): void {
    this.src = ''
  }
  /** The file played to its end. */
  end(): void {
    this.paused = true
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
  tracks: [{ uploadId: 'u1' }, { uploadId: 'u2' }, { uploadId: 'u3' }],
} as unknown as Parameters<ReturnType<typeof usePlayerStore>['play']>[1]

function completed(id: number, uploadId: string, title: string): DownloadView {
  const download = { id, uploadId, title, artistUsername: 'tones', state: 'completed' }
  fake.byUpload.set(uploadId, download)
  return download as unknown as DownloadView
}

function attached(): { player: ReturnType<typeof usePlayerStore>; audio: FakeAudio } {
  const player = usePlayerStore()
  const audio = new FakeAudio()
  player.attach(audio as unknown as HTMLAudioElement)
  return { player, audio }
}

const shown = () => useNoticesStore().shown.map(({ title, message }) => ({ title, message }))

beforeEach(() => {
  setActivePinia(createPinia())
  fake.addresses.clear()
  fake.byUpload.clear()
  fake.missing.length = 0
})

describe('the player', () => {
  it("plays a track, then the artist's next downloaded one when it ends (past one that is not downloaded)", async () => {
    const first = completed(1, 'u1', 'First')
    completed(3, 'u3', 'Third')
    fake.addresses.set(1, 'media://1').set(3, 'media://3')
    const { player, audio } = attached()
    await player.play(first, tones)
    expect(player.current).toMatchObject({ downloadId: 1, title: 'First', artistName: 'Tones' })
    expect(player.playing).toBe(true)
    expect(player.next?.id).toBe(3)
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(3))
    expect(audio.played).toEqual(['media://1', 'media://3'])
    expect(player.next).toBeNull()
    expect(shown()).toEqual([])
  })

  it('says in words why the next track cannot be played when the element gives up on it', async () => {
    const first = completed(1, 'u1', 'A tone')
    completed(2, 'u2', 'Not a tone')
    fake.addresses.set(1, 'media://1').set(2, 'media://2')
    const { player, audio } = attached()
    await player.play(first, tones)
    audio.end()
    await vi.waitFor(() => expect(player.current?.downloadId).toBe(2))
    audio.fail(4)
    expect(player.playing).toBe(false)
    expect(shown()).toEqual([{ title: 'Could not play "Not a tone": File error', message: 'the file is missing, or in a format this player cannot play' }])
  })

  it('says why when the core refuses the media address (the file is gone), marks the download so, and leaves the player as it was', async () => {
    const gone = completed(5, 'u1', ' ')
    const { player } = attached()
    await player.play(gone, tones)
    expect(player.current).toBeNull()
    expect(fake.missing).toEqual([5])
    expect(shown()).toEqual([{ title: 'Could not play "Untitled": Not found', message: 'the file of download 5 is no longer at /gone.wav' }])
  })

  it('says why the browser refused to play, but not for a load that a newer one interrupted', async () => {
    const first = completed(1, 'u1', 'First')
    fake.addresses.set(1, 'media://1')
    const { player, audio } = attached()
    audio.play = () => Promise.reject(Object.assign(new Error('play() can only be initiated by a user gesture'), { name: 'NotAllowedError' }))
    await player.play(first, tones)
    audio.play = () => Promise.reject(Object.assign(new Error('interrupted by a new load request'), { name: 'AbortError' }))
    await player.play(first, tones)
    expect(shown()).toEqual([{ title: 'Could not play "First": Not available here', message: 'play() can only be initiated by a user gesture' }])
  })
})
