/**
 * The answers of the broadest words, stored ahead at a sync's end (see the top
 * of search.ts and migration 0007), and the search index's upkeep there.
 *
 * Storing them reads every match of a few hundred words (about 4 million rows
 * of the index on 100,000 artists, two thirds of a second), so a sync's end
 * first looks whether anything they are made of changed since they were
 * stored: the index's own bookkeeping (FTS5 rewrites its structure record,
 * which lists its segments and their deletions, with every change of its
 * content, and its averages record with every row added or removed) and the
 * trending order. When neither changed, the stored answers still hold, and
 * they are only marked as holding for the new catalogue version. A sync that
 * changed no artist's text, filters or trending place ends in milliseconds.
 *
 * All of it can be done in steps (`startSearchIndexUpkeep`), each a few tens of
 * milliseconds, so that a large catalogue's upkeep never blocks the core for
 * long: the sync runs them before it marks its run completed (sync/search-upkeep.ts).
 * Between two steps searches go on: the index is whole at every step, and a stored
 * answer is read only while the catalogue version or the index it was made of holds.
 */
import { createHash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { ARTIST_KINDS } from '../shared/catalogue'
import { deleteMeta, readMeta, writeMeta } from './meta'
import { currentCatalogueVersion } from './query-cache'
import { SEARCH_TUNING, TOP_RESULTS, answersStamp, everywhere, namesMatch, searchIndexDigest, type SearchTuning } from './search'
import { statement } from './statements'

/**
 * Stores the answers of every word that matches more than `storeAbove` artists in
 * some list filter (see the top of search.ts): for each list filter its total, and
 * where it lists in trending order, its first results. Computed from the index and
 * the trending ranks in one pass per word, the same answers a search computes.
 */
export function storeSearchAnswers(db: Database, tuning: SearchTuning = SEARCH_TUNING): void {
  const job = startSearchAnswers(db, tuning)
  while (!job.step(Infinity));
}

/** Stored answers (and the index's upkeep) done a few pieces at a time (see `startSearchIndexUpkeep`). */
export interface SearchAnswersJob {
  /**
   * Does the next pieces, at least one, until about `budgetMs` have passed (each step its own
   * transaction, as the caller sees fit): a few pages of the index's merge, the look at what
   * the answers are made of, the words to store, or a word's answers. True once every word is
   * stored and the answers marked as holding, or once the catalogue changed since the answers'
   * start: then they never are, and searches are computed until the next sync's end.
   */
  step(budgetMs: number): boolean
  /** How many words are left (infinity while they are not known yet). */
  readonly left: number
}

/** Runs `work`, a generator that yields between two pieces, a step at a time. */
function jobOf(db: Database, work: Generator<void, void, void>, progress: { left: number }): SearchAnswersJob {
  let done = false
  return {
    get left() {
      return done ? 0 : progress.left
    },
    step(budgetMs) {
      // A cache closed meanwhile (the app quitting) ends the job: nothing more is stored, and nothing was marked as holding.
      if (!db.open) done = true
      const started = performance.now()
      while (!done) {
        done = work.next().done === true
        if (performance.now() - started >= budgetMs) break
      }
      return done
    },
  }
}

/**
 * Starts storing the answers afresh: the first step drops the old ones, and the steps store
 * the new ones a few words at a time, so that a large catalogue's few hundred words (about two
 * thirds of a second on 100,000 artists) need not block the core in one piece. `inputs` (what
 * `startSearchIndexUpkeep` found them made of) is noted with them when the last word is in.
 */
export function startSearchAnswers(db: Database, tuning: SearchTuning = SEARCH_TUNING, inputs?: string): SearchAnswersJob {
  const progress = { left: Number.POSITIVE_INFINITY }
  return jobOf(db, storingAnswers(db, tuning, inputs, Number.POSITIVE_INFINITY, progress), progress)
}

/** The work of `startSearchAnswers`, yielding between two pieces; `progress.left` says how many words are left. */
function* storingAnswers(
  db: Database,
  tuning: SearchTuning,
  inputs: string | undefined,
  sliceMs: number,
  progress: { left: number },
): Generator<void, void, void> {
  statement(db, 'DELETE FROM search_answers').run()
  deleteMeta(db, 'search_answers_for')
  deleteMeta(db, 'search_answers_inputs')
  deleteMeta(db, 'search_answers_index')
  const artists = statement<[], number>(db, 'SELECT count(*) FROM artists').pluck().get()!
  if (artists <= tuning.storeAbove) return
  const version = currentCatalogueVersion(db)
  // Each piece may be a transaction of its own: a change to the catalogue between two (a sync's batch
  // in another process, an artist refreshed) ends the work, with nothing marked as holding.
  const changed = (): boolean => currentCatalogueVersion(db) !== version

  // Words that may match enough artists: the prefixes of the index's terms, by how many rows hold each term.
  // Counting them reads the whole index (a tenth of a second on 100,000 artists), so the terms are read
  // in slices of about `sliceMs`, in the index's order, each from the term after the last one read.
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocabulary USING fts5vocab(main, artists_fts, row)')
  const bound = new Map<string, number>()
  const vocabulary = statement<[string], [string, number]>(db, 'SELECT term, doc FROM temp.search_vocabulary WHERE term > ?').raw()
  for (let after: string | undefined = ''; after !== undefined; ) {
    const started = performance.now()
    let read = 0
    let last: string | undefined
    for (const [term, rows] of vocabulary.iterate(after)) {
      let prefix = ''
      let length = 0
      for (const character of term) {
        if (++length > tuning.storeLength) break
        prefix += character
        bound.set(prefix, (bound.get(prefix) ?? 0) + rows)
      }
      if (++read % 256 === 0 && performance.now() - started >= sliceMs) {
        last = term
        break
      }
    }
    after = last
    if (after !== undefined) {
      yield
      if (changed()) return
    }
  }
  const candidates = [...bound].filter(([, rows]) => rows > tuning.storeAbove).map(([word]) => word)
  if (candidates.length === 0) return
  progress.left = candidates.length
  yield
  if (changed()) return

  // The flags as the search's filters see them, and the trending order.
  const maxId = statement<[], number>(db, 'SELECT max(id) FROM artists').pluck().get()!
  const flags = new Uint8Array(maxId + 1)
  const PODCAST = 1
  const BLANK = 2
  const GONE = 4
  const flagged = statement<[string], number>(db, 'SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?').pluck()
  for (const [word, bit] of [['podcast', PODCAST], ['blank', BLANK], ['gone', GONE]] as const) {
    for (const id of flagged.iterate(`search_flags : ${word}`)) flags[id] |= bit
  }
  yield
  if (changed()) return
  // Where each artist stands: its place in trending order, or after all of those, by id.
  const trending = statement<[], number>(db, 'SELECT id FROM artists WHERE rank_trending IS NOT NULL ORDER BY rank_trending, id').pluck().all()
  const place = new Float64Array(maxId + 1)
  for (let id = 0; id <= maxId; id++) place[id] = trending.length + id
  trending.forEach((id, i) => (place[id] = i))
  const inPlace = (key: number): number => (key < trending.length ? trending[key]! : key - trending.length)

  // Each list filter, and for each combination of flags the filters that let it through (a bit each).
  const filters = ARTIST_KINDS.flatMap((kind) => [false, true].map((includeBlank) => ({ kind, includeBlank })))
  const letThrough = Array.from({ length: 8 }, (_, flag) =>
    filters.reduce(
      (mask, filter, i) =>
        (flag & GONE) === 0 &&
        (filter.includeBlank || (flag & BLANK) === 0) &&
        (filter.kind === 'all' || (filter.kind === 'podcasts') === ((flag & PODCAST) !== 0))
          ? mask | (1 << i)
          : mask,
      0,
    ),
  )
  // Which artists match the current word, and which of them in their names: those marked with the word's number.
  const inAll = new Int32Array(maxId + 1)
  const inNames = new Int32Array(maxId + 1)
  const keys = new Float64Array(maxId + 1)
  const insert = statement(db, 'INSERT INTO search_answers (word, kind, include_blank, total, first_ids) VALUES (?, ?, ?, ?, ?)')
  const matching = statement<[string], number>(db, 'SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?').pluck()
  const storeWord = (word: string, index: number): void => {
    const mark = index + 1
    const all = matching.all(everywhere([word], ''))
    const byFlags = new Array<number>(8).fill(0)
    for (const id of all) {
      byFlags[flags[id]!]!++
      inAll[id] = mark
    }
    const totals = filters.map((_, i) => byFlags.reduce((sum, n, flag) => ((letThrough[flag]! >> i) & 1 ? sum + n : sum), 0))
    if (Math.max(...totals) <= tuning.storeAbove) return
    const names = matching.all(namesMatch([word], ''))
    for (const id of names) inNames[id] = mark
    // Filters still short of a first page, as bits; those ranked by bm25 are never open.
    let open = totals.reduce((mask, total, i) => (total > tuning.popularAbove ? mask | (1 << i) : mask), 0)
    const popular = open
    const firsts = filters.map(() => [] as number[])
    const take = (id: number): void => {
      const through = letThrough[flags[id]!]! & open
      for (let i = 0; through !== 0 && i < filters.length; i++) {
        if (((through >> i) & 1) === 0) continue
        const first = firsts[i]!
        first.push(id)
        if (first.length === TOP_RESULTS) open &= ~(1 << i)
      }
    }
    // Names first, then the others; each in trending order, those without a place in it last, by id.
    // A small group is sorted; a large one (more than a sixteenth of the trending order, where walking that
    // order costs less than sorting the group) is picked from the trending order until every filter has its page.
    for (const group of [names, all]) {
      if (open === 0) break
      const namesGroup = group === names
      const inGroup = (id: number): boolean => (inNames[id] === mark) === namesGroup && (letThrough[flags[id]!]! & open) !== 0
      let n = 0
      if (group.length * 16 <= trending.length) {
        for (const id of group) if (inGroup(id)) keys[n++] = place[id]!
      } else {
        for (let i = 0; i < trending.length && open !== 0; i++) {
          const id = trending[i]!
          if (inAll[id] === mark && inGroup(id)) take(id)
        }
        for (const id of group) if (place[id]! >= trending.length && inGroup(id)) keys[n++] = place[id]!
      }
      const sorted = keys.subarray(0, n).sort()
      for (let i = 0; i < n && open !== 0; i++) take(inPlace(sorted[i]!))
    }
    filters.forEach((filter, i) => {
      const first = (popular >> i) & 1 ? JSON.stringify(firsts[i]) : null
      insert.run(word, filter.kind, filter.includeBlank ? 1 : 0, totals[i]!, first)
    })
  }
  yield
  if (changed()) return
  for (const [index, word] of candidates.entries()) {
    storeWord(word, index)
    progress.left = candidates.length - index - 1
    if (progress.left === 0) break
    yield
    if (changed()) return
  }
  writeMeta(db, 'search_answers_for', answersStamp(version, tuning))
  if (inputs !== undefined) {
    // Made right after the index's merge (see startSearchIndexUpkeep), these say all it holds (see searchIndexDigest).
    writeMeta(db, 'search_answers_inputs', inputs)
    writeMeta(db, 'search_answers_index', `${searchIndexDigest(db)}/${answersStamp('', tuning)}`)
  }
}

/**
 * Row-by-row updates leave the index in many small segments; merging them into
 * one makes searches about a tenth faster. It costs about half a second per
 * 100,000 changed artists, and next to nothing when the index is already one
 * segment. Then the answers of the broadest words are stored, unless what they
 * are made of is as it was when they were last stored. All of it in one piece,
 * in the caller's transaction.
 */
export function optimizeSearchIndex(db: Database, tuning: SearchTuning = SEARCH_TUNING): void {
  // One merge of every page: what the index's 'optimize' does, without the cost of resuming a merge many times.
  const job = startSearchIndexUpkeep(db, tuning, { mergePages: 0x7fffffff, sliceMs: Number.POSITIVE_INFINITY })
  while (!job.step(Number.POSITIVE_INFINITY));
}

/** How large the pieces of the upkeep are (a test may ask for smaller ones). */
export interface UpkeepPieces {
  /** Pages of the index's merge per piece: each 'merge' command writes about this many pages of merged segments (of 4,050 bytes). */
  mergePages: number
  /** How long a piece reads the index's vocabulary (the terms are read 256 at a time). */
  sliceMs: number
}

/** Pieces of a few tens of milliseconds at most on 100,000 artists. */
export const UPKEEP_PIECES: Readonly<UpkeepPieces> = { mergePages: 64, sliceMs: 20 }

/**
 * The same in steps (what a sync's end runs, see sync/search-upkeep.ts): nothing is done
 * until the first step; each step takes about its budget, and at least one piece (a merge of a
 * few pages, the look at what the answers are made of, a slice of the words to store, the flags,
 * the trending order, one word's answers). Any step may be left the last: what is half done is never read.
 */
export function startSearchIndexUpkeep(db: Database, tuning: SearchTuning = SEARCH_TUNING, pieces: Partial<UpkeepPieces> = {}): SearchAnswersJob {
  const progress = { left: Number.POSITIVE_INFINITY }
  return jobOf(db, upkeep(db, tuning, { ...UPKEEP_PIECES, ...pieces }, progress), progress)
}

/** The work of `startSearchIndexUpkeep`, yielding between two pieces. */
function* upkeep(db: Database, tuning: SearchTuning, { mergePages, sliceMs }: UpkeepPieces, progress: { left: number }): Generator<void, void, void> {
  // The index's segments merged into one, as its 'optimize' command does, a few pages at a time
  // (FTS5's 'merge' command; searches between two pieces read the segments as they stand). The first
  // merge takes every segment there is, as 'optimize' would; the later ones only finish that merge,
  // so that a segment another connection adds meanwhile does not start it over. A merge that did
  // no work changed at most one row: the command's own. The first also writes out what the index
  // still holds in memory (this connection's writes of the transaction), so its records below say all.
  const totalChanges = statement<[], number>(db, 'SELECT total_changes()').pluck()
  const merge = statement<[number]>(db, `INSERT INTO artists_fts (artists_fts, rank) VALUES ('merge', ?)`)
  for (let pages = -mergePages; ; pages = mergePages) {
    const before = totalChanges.get()!
    merge.run(pages)
    if (totalChanges.get()! - before < 2) break
    yield
  }
  const inputs = searchInputs(db, tuning)
  if (readMeta(db, 'search_answers_for') !== null && readMeta(db, 'search_answers_inputs') === inputs) {
    writeMeta(db, 'search_answers_for', answersStamp(currentCatalogueVersion(db), tuning))
    writeMeta(db, 'search_answers_index', `${searchIndexDigest(db)}/${answersStamp('', tuning)}`)
    progress.left = 0
    return
  }
  // The old answers are no longer read from now; the new ones are stored from the next piece on,
  // unless the catalogue changed meanwhile: then `inputs` no longer says what they would be made of.
  const version = currentCatalogueVersion(db)
  deleteMeta(db, 'search_answers_for')
  deleteMeta(db, 'search_answers_index')
  yield
  if (currentCatalogueVersion(db) !== version) return
  yield* storingAnswers(db, tuning, inputs, sliceMs, progress)
}

/** A digest of everything stored answers are computed from: the index (see `searchIndexDigest`), the trending order, and the rule. */
function searchInputs(db: Database, tuning: SearchTuning): string {
  const digest = createHash('sha256').update(searchIndexDigest(db))
  const trending = statement<[], number>(db, 'SELECT id FROM artists WHERE rank_trending IS NOT NULL ORDER BY rank_trending, id').pluck().all()
  digest.update(new Uint8Array(Int32Array.from(trending).buffer))
  return `${digest.digest('base64url')}/${answersStamp('', tuning)}`
}
