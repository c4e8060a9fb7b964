import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { bumpCatalogueVersion, cached } from '../../../../src-main/core/db/query-cache'
import { useTempDir } from './temp-dir'

const tempDir = useTempDir()

describe('the query cache', () => {
  it('keeps answers across writes that are not the catalogue, and drops them when the catalogue changes', () => {
    const file = path.join(tempDir(), 'cache.sqlite')
    const db = openDatabase(file)
    const first = cached(db, 'answer', () => ({ computed: 1 }))
    expect(cached(db, 'answer', () => ({ computed: 2 }))).toBe(first)
    // Download progress and other bookkeeping leave the catalogue as it was.
    db.prepare(`INSERT INTO download_months (month, bytes) VALUES ('2026-11', 10)`).run()
    expect(cached(db, 'answer', () => ({ computed: 3 }))).toBe(first)
    bumpCatalogueVersion(db)
    expect(cached(db, 'answer', () => ({ computed: 4 }))).toEqual({ computed: 4 })
    // A sync in another connection (another process) is seen too.
    const other = openDatabase(file)
    const before = cached(db, 'answer', () => ({ computed: 5 }))
    bumpCatalogueVersion(other)
    expect(cached(db, 'answer', () => ({ computed: 6 }))).not.toBe(before)
    other.close()
    db.close()
  })
})
