// The window's messages: an error is shown by its cause with its own words, whether it is an Error
// or a core error as it crossed from main (plain JSON), as the session's notices are; notes close by
// themselves (not while the user reads them); errors stay, the latest few shown, the rest folded.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERRORS_SHOWN, NOTE_MS, useNoticesStore } from '../../src-renderer/stores/notices'

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => vi.useRealTimers())

const shown = (notices: ReturnType<typeof useNoticesStore>) => notices.shown.map(({ title, message }) => ({ title, message }))

describe('errors', () => {
  it('shows the message of an Error and of a core error sent as JSON, titled by its cause', () => {
    const notices = useNoticesStore()
    notices.error(new Error('the disk said no'), 'Could not save')
    notices.error({ name: 'InternalError', code: 'internal', message: "Tuneshelf's core stopped unexpectedly; it was restarted", retryable: false })
    notices.error({ code: 'network', message: 'the service cannot be reached' })
    expect(shown(notices)).toEqual([
      { title: 'Could not save: Something went wrong', message: 'the disk said no' },
      { title: 'Something went wrong', message: "Tuneshelf's core stopped unexpectedly; it was restarted" },
      { title: 'The service cannot be reached', message: 'the service cannot be reached' },
    ])
    notices.error({ code: 'cancelled', message: 'cancelled' })
    expect(notices.notices).toHaveLength(3)
  })

  it('never shows an object as "[object Object]"', () => {
    const notices = useNoticesStore()
    notices.error({ code: 'io', detail: { nested: true } }, 'Could not play "Song"')
    notices.error({ message: { not: 'text' } })
    notices.error('plain words')
    expect(shown(notices)).toEqual([
      { title: 'Could not play "Song": File error', message: '' },
      { title: 'Something went wrong', message: '' },
      { title: 'Something went wrong', message: 'plain words' },
    ])
  })

  it('stay until dismissed; the latest few are shown and the older ones folded, then dismissed together', () => {
    vi.useFakeTimers()
    const notices = useNoticesStore()
    for (let index = 1; index <= ERRORS_SHOWN + 2; index++) notices.error(new Error(`failure ${index}`), 'Download')
    vi.advanceTimersByTime(NOTE_MS * 10)
    expect(notices.shown.map((notice) => notice.message)).toEqual(
      Array.from({ length: ERRORS_SHOWN }, (_, index) => `failure ${index + 3}`),
    )
    expect(notices.folded).toBe(2)
    notices.dismiss(notices.shown[0]!.id)
    expect(notices.folded).toBe(1)
    // The latest folded one comes back into view.
    expect(notices.shown.map((notice) => notice.message)).toEqual(['failure 2', ...Array.from({ length: ERRORS_SHOWN - 1 }, (_, index) => `failure ${index + 4}`)])
    notices.dismissFolded()
    expect(notices.folded).toBe(0)
    expect(notices.notices).toHaveLength(ERRORS_SHOWN)
  })

  it('that come again while shown are counted, and shown as the latest', () => {
    const notices = useNoticesStore()
    notices.error({ code: 'network', message: 'the service cannot be reached' }, 'Sync')
    notices.error(new Error('other'))
    notices.error({ code: 'network', message: 'the service cannot be reached' }, 'Sync')
    expect(notices.shown.map(({ message, count }) => ({ message, count }))).toEqual([
      { message: 'other', count: 1 },
      { message: 'the service cannot be reached', count: 2 },
    ])
  })

  it('may replace an earlier one (its newer word): in its place as the latest, with its id, not stacked; a new one once that is dismissed', () => {
    const notices = useNoticesStore()
    const first = notices.error({ code: 'io', message: 'one file' }, 'Skipped "A"')
    notices.error(new Error('other'))
    const second = notices.error({ code: 'io', message: 'two files' }, 'Skipped 2 tracks', first)
    expect(second).toBe(first)
    expect(shown(notices)).toEqual([
      { title: 'Something went wrong', message: 'other' },
      { title: 'Skipped 2 tracks: File error', message: 'two files' },
    ])
    notices.dismiss(first!)
    const third = notices.error({ code: 'io', message: 'three files' }, 'Skipped 3 tracks', first)
    expect(third).not.toBe(first)
    expect(shown(notices)).toEqual([
      { title: 'Something went wrong', message: 'other' },
      { title: 'Skipped 3 tracks: File error', message: 'three files' },
    ])
  })
})

describe('notes', () => {
  it('close by themselves after a few seconds', () => {
    vi.useFakeTimers()
    const notices = useNoticesStore()
    notices.note('Queued', '3 downloads')
    notices.error(new Error('stays'))
    vi.advanceTimersByTime(NOTE_MS - 1)
    expect(notices.shown.map((notice) => notice.title)).toEqual(['Queued', 'Something went wrong'])
    vi.advanceTimersByTime(1)
    expect(notices.shown.map((notice) => notice.title)).toEqual(['Something went wrong'])
  })

  it('stay while the user reads them, then close with the time they had left (a moment at least)', () => {
    vi.useFakeTimers()
    const notices = useNoticesStore()
    notices.note('Updated')
    vi.advanceTimersByTime(NOTE_MS - 500)
    notices.hold()
    notices.note('Queued')
    vi.advanceTimersByTime(NOTE_MS * 5)
    expect(notices.shown.map((notice) => notice.title)).toEqual(['Updated', 'Queued'])
    notices.release()
    vi.advanceTimersByTime(1499)
    expect(notices.shown.map((notice) => notice.title)).toEqual(['Updated', 'Queued'])
    vi.advanceTimersByTime(1)
    expect(notices.shown.map((notice) => notice.title)).toEqual(['Queued'])
    vi.advanceTimersByTime(NOTE_MS)
    expect(notices.shown).toEqual([])
  })

  it('dismissed by hand leave no timer behind', () => {
    vi.useFakeTimers()
    const notices = useNoticesStore()
    notices.note('Updated')
    notices.dismiss(notices.shown[0]!.id)
    expect(vi.getTimerCount()).toBe(0)
  })
})
