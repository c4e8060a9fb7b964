/**
 * Tracks the player could not play, told as one notice: a queue with a few
 * broken files should not leave a stack of messages, one per file, as it skips
 * them. The notice names the tracks (the first few, the others counted) and why
 * they failed, in the core's words or the element's, a reason they share said once.
 */
import { errorCode } from '@shared/errors'
import { trackTitle } from '../format/titles'
import { formatCount } from '../format/counts'
import { messageOf } from './notices'
import type { QueueTrack } from './play-queue'

/** A track that could not be played, and why. */
export interface Skipped {
  track: QueueTrack
  error: unknown
}

/** Posts an error notice, or updates the one whose id it is given; answers the notice's id. */
export type PostNotice = (error: { code: string; message: string }, doing: string, replaces: number | undefined) => number | undefined

/**
 * The skips of one queue at a time: each track counted once (its latest reason), told in one
 * notice that is updated as more are skipped, and that the next queue's notice replaces.
 */
export class QueueSkips {
  private skipped: Skipped[] = []
  /** `skipped` holds more than its notice says. */
  private untold = false
  private noticeId: number | undefined
  /** Tracks tried and failed since the last one that played: each is tried once on the way to one that plays. */
  private readonly failing = new Set<number>()

  constructor(private readonly post: PostNotice) {}

  /** A new queue: it counts afresh (its notice still replaces the last queue's). */
  reset(): void {
    this.skipped = []
    this.untold = false
    this.failing.clear()
  }

  /** Whether the track failed since the last one that played (not to be tried again on this pass). */
  failed(downloadId: number): boolean {
    return this.failing.has(downloadId)
  }

  /** A track could not be played. */
  skip(entry: Skipped): void {
    const id = entry.track.downloadId
    this.failing.add(id)
    const known = this.skipped.some((skip) => skip.track.downloadId === id)
    this.skipped = known ? this.skipped.map((skip) => (skip.track.downloadId === id ? entry : skip)) : [...this.skipped, entry]
    this.untold = true
  }

  /** A track plays, or (`stopped`) nothing more can: the skips are told, in the one notice. */
  tell(stopped: boolean): void {
    this.failing.clear()
    if (!this.untold) return
    this.untold = false
    const notice = skipNotice(this.skipped, stopped)
    if (notice) this.noticeId = this.post(notice.error, notice.doing, this.noticeId)
  }
}

/** Tracks named in the notice; the others are counted. */
const NAMED = 3

/** Why the element gave up on a file, as a user reads it (MediaError codes 2 to 4). */
const MEDIA_ERRORS: Record<number, string> = {
  2: 'the file could not be read; it may have been moved or deleted',
  3: 'the file is damaged, or in a format this player cannot decode',
  4: 'the file is missing, or in a format this player cannot play',
}

/** The element's error as the core's errors look (a code and words). */
export function mediaErrorOf(error: MediaError): { code: string; message: string } {
  return { code: 'io', message: MEDIA_ERRORS[error.code] ?? (error.message || 'the file could not be played') }
}

/**
 * The one notice for the tracks skipped: `stopped` when nothing after them could be played
 * (the player stops), else playback went on with the next playable track. Null when none was skipped.
 * The first few are named, the others counted; a reason several of them share is said once
 * ("A", "B" and "C": the file is damaged…), not after each name.
 */
export function skipNotice(skipped: readonly Skipped[], stopped: boolean): { doing: string; error: { code: string; message: string } } | null {
  const [first] = skipped
  if (!first) return null
  const codes = new Set(skipped.map((skip) => errorCode(skip.error) ?? 'internal'))
  const code = codes.size === 1 ? [...codes][0]! : 'io'
  const name = (skip: Skipped): string => `"${trackTitle(skip.track.title)}"`
  if (skipped.length === 1) {
    const doing = stopped ? `Could not play ${name(first)}` : `Skipped ${name(first)}, which could not be played`
    return { doing, error: { code, message: messageOf(first.error) } }
  }
  const tracks = formatCount(skipped.length, 'track', 'tracks')
  const doing = stopped ? `Could not play ${tracks}` : `Skipped ${tracks} that could not be played`
  return { doing, error: { code, message: reasons(skipped, name) } }
}

/** The named tracks grouped by their reason, each reason once; the tracks beyond NAMED counted. */
function reasons(skipped: readonly Skipped[], name: (skip: Skipped) => string): string {
  const named = skipped.slice(0, NAMED)
  const others = skipped.length - named.length
  const groups = new Map<string, string[]>()
  for (const skip of named) groups.set(messageOf(skip.error), [...(groups.get(messageOf(skip.error)) ?? []), name(skip)])
  const said = (names: string[], more: number): string => listed(more > 0 ? [...names, formatCount(more, 'more', 'more')] : names)
  // All for the same reason, the ones counted too: one sentence.
  if (new Set(skipped.map((skip) => messageOf(skip.error))).size === 1) {
    const [reason] = groups.keys()
    return reason ? `${said(named.map(name), others)}: ${reason}` : said(named.map(name), others)
  }
  const parts = [...groups].map(([reason, names]) => (reason ? `${listed(names)}: ${reason}` : listed(names)))
  return [...parts, ...(others > 0 ? [`and ${formatCount(others, 'more', 'more')}`] : [])].join('; ')
}

/** "A", "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`
}
