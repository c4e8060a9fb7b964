/**
 * The queue's own order: downloads moved to the top, the bottom, or before another
 * start in that order (concurrency 1), the order survives a restart, a list move skips
 * what has no place in the queue, and Clear completed takes completed rows off the list
 * while their files stay on disk.
 */
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import type { Library } from '../../../../src-main/core/library/library'
import { InvalidArgumentError, NotFoundError } from '../../../../src-main/core/shared/errors'
import { QUICK_TRANSFERS, queueTest } from './queue-fixtures'

const test = queueTest({ artists: 30, seed: 21, maxFileMb: 1 })

/** The ids in the order the queue starts them, as it starts them (it runs one at a time). */
function startOrder(library: Library): number[] {
  const started: number[] = []
  library.downloads.onDidChange(({ downloads }) => {
    for (const download of downloads) if (download.state === 'downloading' && !started.includes(download.id)) started.push(download.id)
  })
  return started
}

/** Queues uploads without running the queue; their ids in queue order. */
async function queued(library: Library, uploadIds: string[], folder: string): Promise<number[]> {
  const { downloads } = await library.downloads.enqueue({ uploadIds, folder })
  return downloads.map((download) => download.id)
}

const ids = (library: Library, state?: Parameters<Library['downloads']['list']>[0]): number[] => library.downloads.list(state).map((download) => download.id)

describe('the queue order', () => {
  test('new downloads go to the bottom, and the queue starts them in the order moves leave', async ({ synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS } })
    library.downloads.setConcurrency(1)
    const folder = tempDir()
    const [a, b, c, d, e] = await queued(library, synced.uploads(5), folder)
    expect(ids(library)).toEqual([a, b, c, d, e])
    expect(library.downloads.list().map((download) => download.queueOrder)).toEqual([...library.downloads.list().map((download) => download.queueOrder)].sort((x, y) => x - y))

    // To the top: the moved ones keep their own order between them, whatever order they are named in.
    expect(library.downloads.move([e!, d!], { to: 'top' })).toEqual({ changed: [e, d], skipped: [] })
    expect(ids(library)).toEqual([d, e, a, b, c])
    library.downloads.move([d!], { to: 'bottom' })
    expect(ids(library)).toEqual([e, a, b, c, d])
    // Before another (a drag): before the first, in the middle, and before the last.
    library.downloads.move([c!], { before: e! })
    expect(ids(library)).toEqual([c, e, a, b, d])
    library.downloads.move([c!, e!], { before: d! })
    expect(ids(library)).toEqual([a, b, c, e, d])
    // New downloads still go to the bottom, after a move to the bottom too.
    const [f] = await queued(library, synced.uploads(6).slice(5), folder)
    expect(ids(library)).toEqual([a, b, c, e, d, f])

    const started = startOrder(library)
    library.downloads.start()
    await library.downloads.whenIdle()
    expect(started).toEqual([a, b, c, e, d, f])
    expect(library.downloads.list().every((download) => download.state === 'completed')).toBe(true)
  })

  test('a move while the queue runs changes what starts next, and the order outlives a restart', async ({ openLibrary, synced, syncedLibrary, tempDir }) => {
    const dataDir = tempDir()
    const first = syncedLibrary({ dataDir, downloads: { transferSettings: QUICK_TRANSFERS } })
    const folder = tempDir()
    const [a, b, c, d] = await queued(first, synced.uploads(4, 200_000), folder)
    first.downloads.move([d!, c!], { to: 'top' })
    await first.dispose()

    const second = openLibrary({ dataDir, downloads: { transferSettings: QUICK_TRANSFERS } })
    expect(ids(second)).toEqual([c, d, a, b])
    // One at a time, slowed down (the speed limit), so c is still running when b moves.
    second.settings.update({ downloadConcurrency: 1, downloadSpeedLimit: 50_000 })
    const started = startOrder(second)
    second.downloads.start()
    // While c runs, b is moved to the top: it starts next, before d.
    await expect.poll(() => started.length).toBeGreaterThan(0)
    second.downloads.move([b!], { to: 'top' })
    expect(second.downloads.get(c!).state).toBe('downloading')
    second.settings.update({ downloadSpeedLimit: null })
    await second.downloads.whenIdle()
    expect(started).toEqual([c, b, d, a])
  })

  test('a list move skips what has no place in the queue; one download alone fails with the reason', async ({ synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS } })
    const folder = tempDir()
    const [a, b, c] = await queued(library, synced.uploads(3), folder)
    library.downloads.start()
    await library.downloads.whenIdle()
    await library.downloads.stop()
    const [d, e] = await queued(library, synced.uploads(5).slice(3), folder)
    await library.downloads.pause([e!])

    // A paused one has a place (where it goes back to when resumed); a completed one has none.
    const result = library.downloads.move([a!, e!, 999_999], { to: 'top' })
    expect(result.changed).toEqual([e])
    expect(result.skipped).toEqual([
      { id: a, state: 'completed', reason: `download ${a} is completed: only a queued or paused download can be moved in the queue` },
      { id: 999_999, state: null, reason: 'no download 999999: it was removed' },
    ])
    expect(ids(library, 'queued')).toEqual([d])
    library.downloads.resume([e!])
    expect(ids(library, 'queued')).toEqual([e, d])

    expect(() => library.downloads.move([b!], { to: 'bottom' })).toThrow(InvalidArgumentError)
    expect(() => library.downloads.move([999_999], { to: 'bottom' })).toThrow(NotFoundError)
    expect(() => library.downloads.move([d!], { before: d! })).toThrow(/cannot be moved before itself/)
    expect(() => library.downloads.move([d!], { before: 999_999 })).toThrow(NotFoundError)
    // Bad arguments are validation errors, as over the channel.
    expect(() => library.downloads.move([d!], { to: 'middle' } as never)).toThrow(InvalidArgumentError)
    expect(() => library.downloads.move([], { to: 'top' })).toThrow(InvalidArgumentError)
    expect(ids(library)).toContain(c)
  })

  test('Clear completed takes every completed download off the list; their files stay on disk', async ({ synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS } })
    const folder = tempDir()
    const done = await queued(library, synced.uploads(3), folder)
    library.downloads.start()
    await library.downloads.whenIdle()
    await library.downloads.stop()
    const [waiting] = await queued(library, synced.uploads(4).slice(3), folder)
    const files = library.downloads.list('completed').map((download) => download.targetPath)
    expect(files).toHaveLength(3)
    const removed: number[] = []
    library.downloads.onDidChange((change) => removed.push(...change.removed))

    expect(await library.downloads.clearCompleted()).toEqual({ removed: 3 })
    expect(ids(library)).toEqual([waiting])
    expect(removed.sort()).toEqual([...done].sort())
    for (const file of files) expect(fs.existsSync(file)).toBe(true)
    // Nothing left to clear: none removed, no error.
    expect(await library.downloads.clearCompleted()).toEqual({ removed: 0 })
  })
})
