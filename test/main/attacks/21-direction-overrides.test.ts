/**
 * Attack 21: a title with a right-to-left override (U+202E) showed `song<RLO>gpj.exe` as
 * `songexe.jpg` on the Downloads screen; the file on disk was fine. Isolating a name keeps it from
 * reordering its neighbours, not its own letters, so the direction controls (embeddings, overrides,
 * isolates) are taken out of every text of the service where it is read: every screen, the cache
 * and the logs get the same. Both readers of the service's JSON (the fast one and valibot) do it.
 */
import { describe, expect, onTestFinished, test } from 'vitest'
import { cleanText } from '../../../src-main/core/shared/text'
import { testClient } from '../support/fixtures'
import { startJsonServer } from '../core/api/helpers'

const RLO = '\u202e'
const detail = {
  username: 'spoof',
  num_tracks: 1,
  pf_name: `Quiet${RLO}rabraH`,
  pf_facebook: null,
  pf_twitter: null,
  pf_website: null,
  pf_bio: `bio ${RLO}txt.exe`,
  avatar: '',
  avatar_thumb: '',
  items: [
    {
      item: {
        id: 'song',
        title: `song${RLO}gpj.exe`,
        subtype: 'track',
        upload: { id: 'u1', created_at: '2026-01-01T00:00:00.000+00:00', bytes: 10, downloads: 0, hotlinks: 0, ext: 'mp3', hotlink_path: '/f/u1.mp3' },
        artist: { username: 'spoof' },
      },
    },
  ],
  '': null,
}

describe('attack 21: direction controls in the service\'s text', () => {
  test.each([
    [`song${RLO}gpj.exe`, 'songgpj.exe'],
    ['a\u202ab\u202bc\u202cd\u202de', 'abcde'],
    ['\u2066x\u2067y\u2068z\u2069', 'xyz'],
    // Marks and joiners stay: they reorder nothing, and right-to-left names and emoji need them.
    ['שלום\u200f!', 'שלום\u200f!'],
    ['👩\u200d💻', '👩\u200d💻'],
  ])('%j is shown as %j', (text, shown) => {
    expect(cleanText(text, 500)).toBe(shown)
  })

  test('a title, a name and a bio arrive without them, by both readers of the JSON', async () => {
    for (const many of [1, 40]) {
      // Forty items take the fast reader's path and one the same; the shapes agree (fast-shapes.test.ts).
      const items = Array.from({ length: many }, (_, index) => ({ item: { ...detail.items[0]!.item, id: `song-${index}`, upload: { ...detail.items[0]!.item.upload, id: `u${index}` } } }))
      const server = await startJsonServer({ ...detail, items })
      onTestFinished(() => server.close())
      const artist = await testClient(server.url).getArtist('spoof')
      expect(artist.items[0]!.title).toBe('songgpj.exe')
      expect(artist.pf_name).toBe('QuietrabraH')
      expect(artist.pf_bio).toBe('bio txt.exe')
      expect(JSON.stringify(artist)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
    }
  })
})
