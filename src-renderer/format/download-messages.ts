/**
 * What the window says about an action on downloads: what it was doing when
 * it failed (`Could not pause "Song"`), and what an action on a list skipped,
 * in the core's own words (the reason of each skipped download).
 */
import type { DownloadActionResult, DownloadView } from '@shared/types'
import type { DownloadAction } from './download-actions'
import { trackTitle } from './titles'

/** The downloads acted on: `"Song"` for one, `3 downloads` for more (count: how many, when not all of them are at hand). */
export function describeDownloads(downloads: readonly Pick<DownloadView, 'title'>[], count = downloads.length): string {
  return count === 1 && downloads.length === 1 ? `"${trackTitle(downloads[0]!.title)}"` : `${count.toLocaleString()} downloads`
}

/** The actions a message may name: the rows' actions, and a move in the queue. */
type Named = DownloadAction | 'move'

const VERBS: Record<Named, { verb: string; past: string }> = {
  pause: { verb: 'pause', past: 'Paused' },
  resume: { verb: 'resume', past: 'Resumed' },
  cancel: { verb: 'cancel', past: 'Cancelled' },
  retry: { verb: 'retry', past: 'Retried' },
  redownload: { verb: 'download again', past: 'Downloading again' },
  remove: { verb: 'remove', past: 'Removed' },
  open: { verb: 'open', past: 'Opened' },
  reveal: { verb: 'show', past: 'Shown' },
  move: { verb: 'move', past: 'Moved' },
}

/** What failed, for an error's title: `Could not pause "Song"`, `Could not show 3 downloads in their folder`. */
export function doingOf(action: DownloadAction, what: string, many = false): string {
  if (action === 'reveal') return `Could not show ${what} in ${many ? 'their' : 'its'} folder`
  return `Could not ${VERBS[action].verb} ${what}`
}

/**
 * The note for an action on a list that skipped some downloads: how many were done
 * and how many skipped, by the state they had moved on to, and the core's reason.
 * Null when nothing was skipped.
 */
export function skippedNote(action: Named, result: DownloadActionResult): { title: string; text: string } | null {
  const { changed, skipped } = result
  if (skipped.length === 0) return null
  const asked = changed.length + skipped.length
  const title = `${VERBS[action].past} ${changed.length.toLocaleString()} of ${asked.toLocaleString()} downloads`
  const byState = new Map<string, number>()
  for (const { state } of skipped) byState.set(state ?? 'removed', (byState.get(state ?? 'removed') ?? 0) + 1)
  const states = [...byState].map(([state, count]) => `${count.toLocaleString()} ${state}`).join(', ')
  const count = skipped.length === 1 ? '1 skipped' : `${skipped.length.toLocaleString()} skipped (${states})`
  return { title, text: `${count}: ${skipped[0]!.reason}${skipped.length > 1 ? ', and so on' : ''}.` }
}
