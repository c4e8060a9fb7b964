import { describe, expect, it } from 'vitest'
import { heldBackText, NAME_SHOWN, newTracksText } from '../../../../src-main/core/shared/new-tracks-text'

const lucy = { username: 'Hungry_Lucy', name: 'Hungry Lucy', count: 3 }
const max = { username: 'dj-sad', name: 'Sad Max', count: 2 }

describe('newTracksText', () => {
  it('names the artist, two artists, or the first and how many others', () => {
    expect(newTracksText({ total: 3, artists: [lucy] })).toBe('3 new tracks from Hungry Lucy')
    expect(newTracksText({ total: 1, artists: [{ ...lucy, count: 1 }] })).toBe('1 new track from Hungry Lucy')
    expect(newTracksText({ total: 5, artists: [lucy, max] })).toBe('5 new tracks from Hungry Lucy and Sad Max')
    expect(newTracksText({ total: 7, artists: [lucy, max, { ...max, username: 'z', name: 'Z' }] })).toBe('7 new tracks from Hungry Lucy and 2 other artists')
  })

  it('falls back to the username for an artist without a display name', () => {
    expect(newTracksText({ total: 2, artists: [{ username: 'the.tides', name: '  ', count: 2 }] })).toBe('2 new tracks from the.tides')
    expect(newTracksText({ total: 0, artists: [] })).toBe('0 new tracks')
  })

  it('shows a hostile name without its control characters and direction overrides, and not whole when very long', () => {
    const hostile = { username: 'x', name: 'Evil\u202Egnp.exe\u0007\nnext line\u001b[2J', count: 1 }
    expect(newTracksText({ total: 1, artists: [hostile] })).toBe('1 new track from Evil gnp.exe next line [2J')
    const long = newTracksText({ total: 2, artists: [{ username: 'y', name: 'ع'.repeat(500), count: 2 }] })
    expect([...long.replace('2 new tracks from ', '')]).toHaveLength(NAME_SHOWN)
    expect(long.endsWith('…')).toBe(true)
    expect(newTracksText({ total: 1, artists: [{ username: 'the\u202Etides', name: '\u0007 ', count: 1 }] })).toBe('1 new track from the tides')
  })

  it('says what auto-download held back: how many, whose, how big', () => {
    const held = (artists: { username: string; name: string; count: number }[], bytes: number) =>
      heldBackText({ total: artists.reduce((sum, artist) => sum + artist.count, 0), bytes, artists: artists.map((artist) => ({ ...artist, bytes: 0 })) })
    expect(held([{ ...lucy, count: 900 }], 1_234_000_000)).toBe('held back 900 new tracks of Hungry Lucy (1.23 GB) over the auto-download limit')
    expect(held([{ ...lucy, count: 1 }, max], 5_000_000)).toBe('held back 3 new tracks of Hungry Lucy and Sad Max (5 MB) over the auto-download limit')
  })
})
