/**
 * The search index's upkeep at a sync's end (db/search-answers.ts): the index's
 * segments merged, and the answers of the broadest words kept or stored again.
 * On 100,000 artists that is up to a second of work, done here in steps of a few
 * tens of milliseconds, each its own transaction, with the core free between two
 * to answer the window (a search then reads the index as it stands, and no stored
 * answer that no longer holds).
 *
 * It runs under the sync's lock, before the run is marked completed: a sync
 * cancelled, failed or taken over meanwhile, or a process that quits or crashes,
 * leaves its run to the next sync, which resumes it (every page and detail is in
 * by then, so the resume only has the upkeep left to do). A half-done upkeep is
 * never read: the answers are marked as holding only by its last step. (The run's staged list
 * positions are dropped the same way just before, see sync.ts.)
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Database } from '../db/connection'
import { startSearchIndexUpkeep, type SearchAnswersJob } from '../db/search-answers'
import { SEARCH_TUNING, type SearchTuning } from '../db/search'

/**
 * How long a step works before it lets the core go on: it ends after the piece that passes this
 * (a piece is a few pages of the index's merge, a slice of its vocabulary or one word's answers,
 * at most about 50 ms on 100,000 artists), so that no step takes much more than 70 ms.
 */
export const UPKEEP_STEP_MS = 20

/** One step of the upkeep, in a transaction of its own; true once the upkeep is done. */
export function upkeepStep(db: Database, job: SearchAnswersJob, stepMs = UPKEEP_STEP_MS): boolean {
  return db.transaction(() => job.step(stepMs)).immediate()
}

/**
 * Runs the whole upkeep a step at a time; rejects with the signal's reason once it aborts, between
 * two steps. (A test may ask for other tuning, or for steps of one piece each.)
 */
export function upkeepSearchIndex(db: Database, signal: AbortSignal, tuning: SearchTuning = SEARCH_TUNING, stepMs = UPKEEP_STEP_MS): Promise<void> {
  const job = startSearchIndexUpkeep(db, tuning)
  return inSteps(signal, () => upkeepStep(db, job, stepMs))
}

/**
 * Calls `step` (some synchronous work, true once all is done) until it is done, letting the core
 * go on between two calls; rejects with the signal's reason once it aborts, between two calls.
 */
export async function inSteps(signal: AbortSignal, step: () => boolean): Promise<void> {
  for (;;) {
    signal.throwIfAborted()
    if (step()) return
    await nextTurn()
  }
}
