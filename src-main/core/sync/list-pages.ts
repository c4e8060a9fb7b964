/**
 * The list pages of one sync run: how many each pass has, which are stored,
 * and which to ask for next. Pages are asked for a few at a time, never all at
 * once: a page count is the service's word, and one that claimed a billion
 * pages once queued a billion requests and filled the heap in seconds. A count
 * no real catalogue has fails the run, and is never kept for a resume.
 */
import type { Database } from '../db/connection'
import { LIST_PASSES, forgetListPass, listProgress, type ListPass } from '../db/sync-store'
import { BadResponseError } from '../shared/errors'

/** Artists per list page the sync asks for. */
export const PER_PAGE = 50
/** The most artists a catalogue is believed to hold: well above the largest known service. */
const MAX_CATALOGUE_ARTISTS = 5_000_000
/** The most pages a pass may have; a service that says more is answering nonsense. */
export const MAX_LIST_PAGES = Math.ceil(MAX_CATALOGUE_ARTISTS / PER_PAGE)

interface PassPages {
  /** Its page count, as far as known (1 while only its first page is known to exist). */
  pages: number
  /** The first page that came back empty: the pass ends there, whatever count the service claims. */
  emptyAt?: number
  stored: Set<number>
  /** Every page below this one is stored or asked for. */
  cursor: number
}

/** Throws a BadResponseError when a list's page count is more than any catalogue could have. */
export function checkPageCount(pass: ListPass, pages: number): void {
  if (pages <= MAX_LIST_PAGES) return
  throw new BadResponseError(
    `the service says its ${pass} list has ${pages} pages of ${PER_PAGE} artists; no catalogue has more than ` +
      `${MAX_LIST_PAGES} pages (${MAX_CATALOGUE_ARTISTS} artists), so the answer cannot be trusted`,
    { field: 'pages' },
  )
}

export class ListPages {
  private readonly passes = new Map<ListPass, PassPages>()
  private outstanding = 0

  /**
   * The run's pages as stored so far (a resume skips them); a pass whose stored count is beyond
   * belief (kept by an older Tuneshelf) is forgotten and listed again from its first page.
   * `window`: pages asked for and not yet stored, at most; at least the queue's concurrency, so
   * list pages still take every free slot before details do.
   */
  constructor(db: Database, runId: number, private readonly window: number) {
    const progress = listProgress(db, runId)
    for (const pass of LIST_PASSES) {
      let stored = progress.get(pass)
      if (stored && stored.pages > MAX_LIST_PAGES) {
        forgetListPass(db, runId, pass)
        stored = undefined
      }
      this.passes.set(pass, { pages: stored?.pages ?? 1, stored: stored?.done ?? new Set(), cursor: 1 })
    }
  }

  /**
   * The pages to ask for now, as many as the window has room for: the first page of a pass
   * whose count is unknown before all else (it tells how much there is), then the passes in
   * order, so the default order's pages (shown during a first sync) come first.
   */
  take(): { pass: ListPass; page: number }[] {
    const wanted: { pass: ListPass; page: number }[] = []
    while (this.outstanding < this.window) {
      const pass = LIST_PASSES.find((each) => this.nextPage(each) === 1) ?? LIST_PASSES.find((each) => this.nextPage(each) !== undefined)
      if (pass === undefined) break
      const state = this.passes.get(pass)!
      wanted.push({ pass, page: state.cursor })
      state.cursor++
      this.outstanding++
    }
    return wanted
  }

  /**
   * A page came with the service's count for its pass and `artists` artists: returns the count to
   * store with it, or throws a BadResponseError when no catalogue could have that many pages. The
   * count can change while a run goes on; the larger one wins so no page is skipped. A page with
   * no artists ends its pass there: no later page can hold any (a list that shrank while it was
   * read ends early, a service that claims 100,000 empty pages is asked for one).
   */
  arrived(pass: ListPass, page: number, pages: number, artists: number): number {
    checkPageCount(pass, pages)
    const state = this.passes.get(pass)!
    state.pages = Math.max(state.pages, pages)
    if (artists === 0 && page < state.pages) state.emptyAt = Math.min(state.emptyAt ?? page, page)
    if (state.emptyAt !== undefined) state.pages = Math.min(state.pages, state.emptyAt)
    state.stored.add(page)
    this.outstanding--
    return state.pages
  }

  /** Pages known to exist, over all passes. */
  known(): number {
    return [...this.passes.values()].reduce((sum, state) => sum + Math.max(state.pages, 1), 0)
  }

  /** Pages stored, over all passes. */
  stored(): number {
    return [...this.passes.values()].reduce((sum, state) => sum + state.stored.size, 0)
  }

  /** The pass's next page neither stored nor asked for, if it has one. */
  private nextPage(pass: ListPass): number | undefined {
    const state = this.passes.get(pass)!
    while (state.stored.has(state.cursor)) state.cursor++
    return state.cursor <= state.pages ? state.cursor : undefined
  }
}
