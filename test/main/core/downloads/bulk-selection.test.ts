/**
 * Actions on a selection of groups ("all" of the queue, but a few): resolved to its downloads
 * by the queue when the action comes, applied to those that allow it, and told in one change
 * event that carries the rows when they are few, and only how many when they are thousands.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { getDownloads, idsOfGroups, insertDownload, setState } from '../../../../src-main/core/db/downloads'
import { migrate } from '../../../../src-main/core/db/migrate'
import { resolveSelection } from '../../../../src-main/core/downloads/bulk'
import type { Library } from '../../../../src-main/core/library/library'
import { MANY_CHANGED } from '../../../../src-main/core/shared/types-downloads'
import { collect, queueTest } from './queue-fixtures'

const test = queueTest({ artists: 10, seed: 5, maxFileMb: 1 })

/** Queues `count` downloads straight into the library's cache (as another process would); their ids. */
function queueMany(library: Library, count: number): number[] {
  const db = new Database(library.cacheFile)
  try {
    db.pragma('busy_timeout = 5000')
    return db.transaction(() =>
      Array.from({ length: count }, (_, index) =>
        insertDownload(db, { uploadId: `bulk-${index}`, artistUsername: 'someone', title: `Song ${index}`, url: `http://x/${index}.mp3`, targetPath: `/nowhere/${index}.mp3`, folder: '/', bytesTotal: 1000 }, 1000).id,
      ),
    )()
  } finally {
    db.close()
  }
}

describe('a selection of groups', () => {
  it('is resolved to the ids it names now, in queue order: but those excepted, and more by id', () => {
    const db = new Database(':memory:')
    migrate(db)
    const [a, b, c, d, e] = db.transaction(() =>
      [1, 2, 3, 4, 5].map((n) => insertDownload(db, { uploadId: `u${n}`, artistUsername: 'x', title: 't', url: `http://x/${n}.mp3`, targetPath: `/nowhere/${n}.mp3`, folder: '/', bytesTotal: 10 }, 1000).id),
    )() as [number, number, number, number, number]
    setState(db, b, 'downloading', { now: 2000 })
    setState(db, c, 'downloading', { now: 2000 })
    setState(db, e, 'failed', { now: 2000, error: 'x' })
    // Group by group in the screen's order (downloading first), each in queue order; c is interrupted.
    expect(idsOfGroups(db, ['queued', 'downloading'], [c])).toEqual([b, a, d])
    expect(resolveSelection(db, { groups: ['queued', 'interrupted'], except: [d], ids: [e, a] }, [c])).toEqual({ ids: [a, c, e], strict: false })
    // Ids: one alone is strict (its refusal is an error), a list is not.
    expect(resolveSelection(db, [d], [])).toEqual({ ids: [d], strict: true })
    expect(resolveSelection(db, [d, d, e], [])).toEqual({ ids: [d, d, e], strict: false })
    expect([...getDownloads(db, [e, 999, a]).keys()]).toEqual([a, e])
    db.close()
  })

  test('pauses, resumes, moves and removes thousands in one call each, each told in one event that says how many', async ({ syncedLibrary }) => {
    // Not started: nothing transfers, so what the test queued stays where it puts it.
    const library = syncedLibrary()
    const ids = queueMany(library, 1200)
    const changes = collect(library.downloads.onDidChange)

    const paused = await library.downloads.pause({ groups: ['queued'], except: [ids[0]!] })
    expect(paused.changed).toEqual(ids.slice(1))
    expect(paused.skipped).toEqual([])
    expect(changes).toEqual([{ downloads: [], removed: [], many: 1199 }])
    expect(library.downloads.summary().groups).toMatchObject({ queued: { files: 1, bytes: 1000 }, paused: { files: 1199, bytes: 1_199_000 } })

    // A few: the rows themselves.
    expect(library.downloads.resume([ids[1]!, ids[2]!]).changed).toEqual([ids[1], ids[2]])
    expect(changes[1]!.downloads.map((download) => [download.id, download.state])).toEqual([
      [ids[1], 'queued'],
      [ids[2], 'queued'],
    ])
    expect(changes[1]!.many).toBeUndefined()

    // Every paused one to the top, in its queue order, ahead of the three queued.
    expect(library.downloads.move({ groups: ['paused'] }, { to: 'top' }).changed).toHaveLength(1197)
    expect(library.downloads.page({ group: 'paused', offset: 0, limit: 2 }).downloads.map((download) => download.id)).toEqual([ids[3], ids[4]])
    expect(library.downloads.list().slice(0, 2).map((download) => download.id)).toEqual([ids[3], ids[4]])

    // A selection names what allows the action when it comes: resume of groups that hold nothing paused changes nothing.
    expect(library.downloads.resume({ groups: ['queued'] })).toEqual({ changed: [], skipped: expect.any(Array) })
    const removed = await library.downloads.remove({ groups: ['paused', 'queued'], except: ids.slice(0, 3) })
    expect(removed.changed).toHaveLength(1197)
    expect(changes.at(-1)).toEqual({ downloads: [], removed: [], many: 1197 })
    expect(library.downloads.list().map((download) => download.id)).toEqual(ids.slice(0, 3))
    // Up to MANY_CHANGED the ids removed are told.
    expect(MANY_CHANGED).toBeGreaterThanOrEqual(200)
    await library.downloads.remove({ groups: ['queued'] })
    expect(changes.at(-1)).toEqual({ downloads: [], removed: ids.slice(0, 3), many: undefined })
  })
})
