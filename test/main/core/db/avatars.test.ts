/** The avatar store's bounds: its budget, least recently used out first, and the images no artist refers to. */
import Database from 'better-sqlite3'
import { describe, expect, test } from 'vitest'
import { dropUnusedAvatars, getAvatar, markAvatarsUsed, recordAvatars } from '../../../../src-main/core/db/avatars'
import { migrate } from '../../../../src-main/core/db/migrate'
import { imageTypeOf } from '../../../../src-main/core/sync/avatars'

function store(): Database.Database {
  const db = new Database(':memory:')
  migrate(db)
  return db
}

const image = (url: string, bytes = 100) => ({ url, contentType: 'image/png', body: Buffer.alloc(bytes, 1) })
const urls = (db: Database.Database): string[] => db.prepare('SELECT url FROM avatars ORDER BY url').pluck().all() as string[]

describe('the avatar store', () => {
  test('keeps within its budget, letting the least recently used go first', () => {
    const db = store()
    recordAvatars(db, [image('a')], 1, 250)
    recordAvatars(db, [image('b')], 2, 250)
    // "a" is shown after "b" was fetched: "b" is now the least recently used.
    markAvatarsUsed(db, ['a'], 3)
    recordAvatars(db, [image('c')], 4, 250)
    expect(urls(db)).toEqual(['a', 'c'])
    // A batch larger than the budget keeps its newest rows, as many as fit.
    recordAvatars(db, [image('d'), image('e'), image('f')], 5, 250)
    expect(urls(db)).toHaveLength(2)
    expect(db.prepare('SELECT total(length(body)) FROM avatars').pluck().get()).toBeLessThanOrEqual(250)
  })

  test('a use never moves an image back in time', () => {
    const db = store()
    recordAvatars(db, [image('a')], 10, 1000)
    markAvatarsUsed(db, ['a', 'unknown'], 5)
    expect(db.prepare('SELECT fetched_at FROM avatars').pluck().get()).toBe(10)
    expect(getAvatar(db, 'a')?.body).toHaveLength(100)
  })

  test('drops the images no artist refers to, and those larger than a thumbnail may be', () => {
    const db = store()
    recordAvatars(db, [image('//x/a-thumb.svg?v=1'), image('//x/a-thumb.svg?v=2'), image('//x/a.svg', 2000)], 1, 10_000)
    db.prepare(
      `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run)
       VALUES (1, 'a', 'a', 0, '', '', '//x/a.svg', '//x/a-thumb.svg?v=2', '[]', 'x', 1)`,
    ).run()
    expect(dropUnusedAvatars(db, 1000)).toBe(2)
    expect(urls(db)).toEqual(['//x/a-thumb.svg?v=2'])
  })
})

describe('which bytes are an image', () => {
  test('knows the types the window shows by their first bytes, and nothing else', () => {
    const hex = (text: string): Buffer => Buffer.from(text.replace(/ /g, ''), 'hex')
    expect(imageTypeOf(hex('89504e47 0d0a1a0a 0000'))).toBe('image/png')
    expect(imageTypeOf(hex('ffd8ffe0 0010'))).toBe('image/jpeg')
    expect(imageTypeOf(Buffer.from('GIF89a...'))).toBe('image/gif')
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(imageTypeOf(Buffer.from('\0\0\0\x1cftypavif'))).toBe('image/avif')
    expect(imageTypeOf(Buffer.from('<?xml version="1.0"?>\n<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml')
    expect(imageTypeOf(Buffer.alloc(64, 0x07))).toBeUndefined()
    expect(imageTypeOf(Buffer.from('<html><svg></svg></html>'))).toBeUndefined()
    expect(imageTypeOf(Buffer.from('{"avatar": "<svg>"}'))).toBeUndefined()
    expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined()
  })
})
