// Where an action puts the rows it moves, before the core answers (stores/download-pages.ts): a group's
// size follows the rows moved; a row lands at its place in its new group when what is held there says
// where; a row whose place is not known is left for the next read, never put in a wrong place.
import { describe, expect, it } from 'vitest'
import type { DownloadGroup } from '../../src-main/core/shared/download-groups'
import type { DownloadView } from '../../src-main/core/shared/types'
import { compareRows, heldOf, project, rowAt, windowsOf, WINDOW_ROWS, type Pages } from '../../src-renderer/stores/download-pages'
import { row } from './support/fake-queue'

const SIZES: Record<DownloadGroup, number> = { downloading: 0, queued: 0, paused: 0, interrupted: 0, failed: 0, completed: 0, cancelled: 0 }
const pause = (download: DownloadView): DownloadView => ({ ...download, state: 'paused', pauseReason: 'user' })
const toPaused = (): DownloadGroup => 'paused'

/** Pages holding these rows of each group from their first place on. */
function pagesOf(groups: Partial<Record<DownloadGroup, DownloadView[]>>): Pages {
  return new Map(Object.entries(groups).map(([group, rows]) => [group as DownloadGroup, windowsOf(rows.map((download, at) => ({ row: download, at })))]))
}

const ids = (pages: Pages, group: DownloadGroup, count: number): (number | undefined)[] => Array.from({ length: count }, (_, at) => rowAt(pages.get(group), at)?.id)

describe('what an action shows at once', () => {
  it('a whole group moved into another lands in queue order among its rows, as far as both are held', () => {
    const queued = Array.from({ length: 120 }, (_, index) => row(index + 10, 'queued'))
    // Held: the first 100 queued of 5,000; paused holds 2 (all of it), at places 1 and 60.
    const pages = pagesOf({ queued: queued.slice(0, 100), paused: [row(1, 'paused', { queueOrder: 11.5 }), row(2, 'paused', { queueOrder: 70.5 })] })
    const { pages: after, sizes } = project(pages, { ...SIZES, queued: 5000, paused: 2 }, { rows: [], groups: ['queued'], except: [] }, pause, toPaused)
    expect(sizes).toMatchObject({ queued: 0, paused: 5002 })
    expect(ids(after, 'paused', 4)).toEqual([10, 11, 1, 12])
    expect(rowAt(after.get('paused'), 62)?.id).toBe(2)
    expect(rowAt(after.get('paused'), 101)?.id).toBe(109)
    // Past the last queued row held, nothing is placed: the next read brings it.
    expect(heldOf(after.get('paused')).length).toBe(102)
    expect(after.get('queued')?.size ?? 0).toBe(0)
  })

  it('a group but a few: the rows left out stay, in order, and the others go', () => {
    const queued = Array.from({ length: 10 }, (_, index) => row(index + 1, 'queued'))
    const pages = pagesOf({ queued })
    const { pages: after, sizes } = project(pages, { ...SIZES, queued: 10 }, { rows: [], groups: ['queued'], except: [queued[3]!, queued[7]!] }, pause, toPaused)
    expect(sizes).toMatchObject({ queued: 2, paused: 8 })
    expect(ids(after, 'queued', 2)).toEqual([4, 8])
    expect(ids(after, 'paused', 8)).toEqual([1, 2, 3, 5, 6, 7, 9, 10])
  })

  it('a row named alone lands where its neighbours are held, and the rows after it move on one place', () => {
    // Held: queued places 100–149 of 1,000 (window 2); paused places 0–49 of 300.
    const queued = new Map([[2, Array.from({ length: WINDOW_ROWS }, (_, index) => row(1000 + index, 'queued', { queueOrder: 1000 + index }))]])
    const paused = new Map([[0, Array.from({ length: WINDOW_ROWS }, (_, index) => row(index * 10 + 1, 'paused', { queueOrder: index * 100 }))]])
    const pages: Pages = new Map<DownloadGroup, typeof queued>([
      ['queued', queued],
      ['paused', paused],
    ])
    const named = queued.get(2)![5]!
    const { pages: after, sizes } = project(pages, { ...SIZES, queued: 1000, paused: 300 }, { rows: [named], groups: [], except: [] }, pause, toPaused)
    expect(sizes).toMatchObject({ queued: 999, paused: 301 })
    // In queued, the rows after it move up one place; those before it stay.
    expect(rowAt(after.get('queued'), 104)?.id).toBe(1004)
    expect(rowAt(after.get('queued'), 105)?.id).toBe(1006)
    // In paused, its order (1005) falls after paused places 0–10 (orders 0–1000) and before 11: it is place 11.
    expect(rowAt(after.get('paused'), 11)).toMatchObject({ id: 1005, state: 'paused' })
    expect(rowAt(after.get('paused'), 12)?.id).toBe(111)
  })

  it('a row whose place falls where nothing is held is not placed, and the held rows after it still move on', () => {
    // Paused holds places 0–49 and 100–149 of 300; the row's order falls between them.
    const first = Array.from({ length: WINDOW_ROWS }, (_, index) => row(index + 1, 'paused', { queueOrder: index }))
    const third = Array.from({ length: WINDOW_ROWS }, (_, index) => row(index + 500, 'paused', { queueOrder: 1000 + index }))
    const pages: Pages = new Map([['paused', new Map([[0, first], [2, third]])]])
    const named = row(999, 'queued', { queueOrder: 75 })
    const { pages: after } = project(pages, { ...SIZES, queued: 1, paused: 300 }, { rows: [named], groups: [], except: [] }, pause, toPaused)
    expect(heldOf(after.get('paused')).some(({ row: each }) => each.id === 999)).toBe(false)
    expect(rowAt(after.get('paused'), 49)?.id).toBe(50)
    expect(rowAt(after.get('paused'), 101)?.id).toBe(500)
  })

  it('removes: the rows leave, the sizes shrink, nothing lands anywhere', () => {
    const pages = pagesOf({ completed: [row(1, 'completed'), row(2, 'completed')], queued: [row(3, 'queued')] })
    const { pages: after, sizes } = project(pages, { ...SIZES, completed: 2, queued: 1 }, { rows: [], groups: ['completed'], except: [] }, () => null, () => null)
    expect(sizes).toMatchObject({ completed: 0, queued: 1 })
    expect(heldOf(after.get('completed'))).toEqual([])
    expect(ids(after, 'queued', 1)).toEqual([3])
  })

  it('completed rows are held newest first: one taken away leaves the rest in place, one downloaded again lands in queue order', () => {
    // Completed newest first (finished 5000, 4000, 3000), their queue places the other way round.
    const completed = [row(1, 'completed', { finishedAt: 5000 }), row(2, 'completed', { finishedAt: 4000 }), row(3, 'completed', { finishedAt: 3000 })]
    const pages = pagesOf({ completed, queued: [row(4, 'queued'), row(5, 'queued', { queueOrder: 0.5 })].sort((a, b) => a.queueOrder - b.queueOrder) })
    const removed = project(pages, { ...SIZES, completed: 3, queued: 2 }, { rows: [completed[1]!], groups: [], except: [] }, () => null, () => null)
    expect(ids(removed.pages, 'completed', 2)).toEqual([1, 3])
    const again = project(
      pages,
      { ...SIZES, completed: 3, queued: 2 },
      { rows: [completed[0]!], groups: [], except: [] },
      (download) => ({ ...download, state: 'queued', bytesDone: 0 }),
      () => 'queued',
    )
    expect(ids(again.pages, 'completed', 2)).toEqual([2, 3])
    // Its queue place (1) is between the queued rows' (0.5 and 4).
    expect(ids(again.pages, 'queued', 3)).toEqual([5, 1, 4])
  })

  it('a row that completes sorts by when it finished, the latest first; rows of other groups before the completed ones', () => {
    const a = row(1, 'completed', { finishedAt: 3000, queueOrder: 1 })
    const b = row(2, 'completed', { finishedAt: 3000, queueOrder: 2 })
    const c = row(3, 'completed', { finishedAt: 9000, queueOrder: 3 })
    const d = row(4, 'completed', { finishedAt: null, queueOrder: 0 })
    const q = row(5, 'queued', { queueOrder: 99 })
    expect([a, b, c, d, q].sort(compareRows).map((each) => each.id)).toEqual([5, 3, 2, 1, 4])
  })
})
