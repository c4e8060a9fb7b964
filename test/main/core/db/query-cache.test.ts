import path from 'node:path'
import { describe, expect, vi } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { bumpCatalogueVersion, cached, currentCatalogueVersion, letAnswersLag } from '../../../../src-main/core/db/query-cache'
import { test } from '../../support/fixtures'

describe('the query cache', () => {
  test('keeps answers across writes that are not the catalogue, and drops them when the catalogue changes', ({ tempDir }) => {
    const file = path.join(tempDir(), 'cache.sqlite')
    const db = openDatabase(file)
    expect(currentCatalogueVersion(db)).toBe('0')
    const first = cached(db, 'answer', () => ({ computed: 1 }))
    expect(cached(db, 'answer', () => ({ computed: 2 }))).toBe(first)
    // Download progress and other bookkeeping leave the catalogue as it was.
    db.prepare(`INSERT INTO download_months (month, bytes) VALUES ('2026-11', 10)`).run()
    expect(cached(db, 'answer', () => ({ computed: 3 }))).toBe(first)
    bumpCatalogueVersion(db)
    expect(currentCatalogueVersion(db)).toBe('1')
    expect(cached(db, 'answer', () => ({ computed: 4 }))).toEqual({ computed: 4 })
    // A sync in another connection (another process) is seen too.
    const other = openDatabase(file)
    const before = cached(db, 'answer', () => ({ computed: 5 }))
    bumpCatalogueVersion(other)
    expect(currentCatalogueVersion(db)).toBe('2')
    expect(cached(db, 'answer', () => ({ computed: 6 }))).toEqual({ computed: 6 })
    expect(cached(db, 'answer', () => ({ computed: 7 }))).not.toBe(before)
    other.close()
    db.close()
  })

  test('keeps answers per connection and key, and at most 32 of them', ({ tempDir }) => {
    const file = path.join(tempDir(), 'cache.sqlite')
    const db = openDatabase(file)
    const other = openDatabase(file)
    expect(cached(db, 'a', () => 'from db')).toBe('from db')
    expect(cached(other, 'a', () => 'from other')).toBe('from other')
    expect(cached(db, 'b', () => 'b')).toBe('b')
    for (let i = 0; i < 32; i++) cached(db, `filler ${i}`, () => i)
    // The oldest answers made room; the newest are kept.
    expect(cached(db, 'a', () => 'computed again')).toBe('computed again')
    expect(cached(db, 'filler 31', () => -1)).toBe(31)
    other.close()
    db.close()
  })

  test('while a sync writes, answers may lag the catalogue for as long as allowed, and never once the lag is off', ({ tempDir }) => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
      letAnswersLag(db, 1_000)
      const first = cached(db, 'order', () => ({ computed: 1 }))
      // The sync commits a batch: within the lag the order computed before it is given again.
      bumpCatalogueVersion(db)
      vi.advanceTimersByTime(600)
      expect(cached(db, 'order', () => ({ computed: 2 }))).toBe(first)
      // Older than the lag: computed again, for the version of now.
      vi.advanceTimersByTime(500)
      expect(cached(db, 'order', () => ({ computed: 3 }))).toEqual({ computed: 3 })
      // A key never asked is computed, whatever the lag.
      expect(cached(db, 'count', () => 7)).toBe(7)
      // The sync ends: the lag is off, and the next call sees the last commit at once.
      bumpCatalogueVersion(db)
      letAnswersLag(db, 0)
      expect(cached(db, 'order', () => ({ computed: 4 }))).toEqual({ computed: 4 })
      expect(cached(db, 'count', () => 8)).toBe(8)
      db.close()
    } finally {
      vi.useRealTimers()
    }
  })
})
