/**
 * `whats-new [--json]`: what the last syncs added or changed (the last ten, the
 * newest first), the followed artists first, from the cache of --data-dir (and
 * --base-url, else the service synced last); after the first sync alone, its
 * newest uploads instead. The exit codes of the other offline verbs: 2 for bad
 * arguments or nothing synced. `--json` prints the answer as the app reads it.
 */
import { formatBytes, formatDate } from '../core/shared/format'
import type { WhatsNew, WhatsNewRun, WhatsNewTrack } from '../core/shared/types'
import { withLibrary } from './open'
import type { CliOptions } from './options'
import { printAnswer, printJson, printMessage } from './print'
import { table, truncate } from './table'

const READ = { mustExist: true, synced: true }
/** Rows listed at most, of artists and of tracks; the totals say how many there are. */
const LIMIT = 200

export async function runWhatsNew(options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    const news = library.catalogue.whatsNew(LIMIT)
    if (options.json) {
      printJson(news)
      return 0
    }
    if (news.mode === 'newest') printNewest(news)
    else printChanges(news, `npm run -s cli -- sync --base-url ${library.displayUrl} --data-dir ${library.dataDir}`)
    return 0
  })
}

/** syncCommand: the command that syncs this cache again (`sync` needs --base-url). */
function printChanges(news: WhatsNew, syncCommand: string): void {
  if (news.runs.length === 0) {
    printMessage(`no sync after the first has completed yet; sync again to see what changes: ${syncCommand}`)
    return
  }
  const when = new Map(news.runs.map((run) => [run.id, syncTime(run)]))
  const parts: string[] = []
  if (news.artists.length > 0) {
    parts.push(
      table(
        ['sync (UTC)', 'change', 'following', 'username', 'name', 'tracks'],
        news.artists.map((entry) => [
          when.get(entry.runId) ?? '',
          entry.change,
          entry.followed ? 'yes' : '',
          entry.artist.username,
          truncate(entry.artist.name, 40),
          String(entry.artist.numTracks),
        ]),
      ),
    )
  }
  if (news.tracks.length > 0) {
    parts.push(
      table(
        ['sync (UTC)', 'change', ...TRACK_HEADERS],
        news.tracks.map((entry) => [when.get(entry.runId) ?? '', entry.change, ...trackCells(entry)]),
      ),
    )
  }
  if (parts.length > 0) printAnswer(parts.join('\n\n'))
  const syncs = news.runs.length === 1 ? 'the last sync' : `the last ${news.runs.length} syncs`
  printMessage(`${count(news.totalArtists, 'artist')} and ${count(news.totalTracks, 'track')} appeared or changed in ${syncs}${cut(news)}`)
}

function printNewest(news: WhatsNew): void {
  if (news.tracks.length > 0) {
    printAnswer(
      table(
        ['date', ...TRACK_HEADERS],
        news.tracks.map((entry) => [formatDate(entry.track.createdAt), ...trackCells(entry)]),
      ),
    )
  }
  printMessage(`only the first sync has completed, and everything it brought is new: these are the ${count(news.tracks.length, 'newest upload')} of the catalogue`)
}

/** The columns of a track in both lists, after when it came (and, after later syncs, what changed). */
const TRACK_HEADERS = ['following', 'artist', 'upload', 'title', 'size', 'format', 'download']

function trackCells(entry: WhatsNewTrack): string[] {
  return [
    entry.followed ? 'yes' : '',
    entry.artistUsername,
    entry.track.uploadId,
    truncate(entry.track.title, 50),
    formatBytes(entry.track.bytes),
    entry.track.ext ?? '',
    entry.download ? entry.download.state : '',
  ]
}

/** "2026-11-03 14:02", in UTC (the same on every machine). */
function syncTime(run: WhatsNewRun): string {
  return new Date(run.finishedAt).toISOString().slice(0, 16).replace('T', ' ')
}

function count(n: number, what: string): string {
  return `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`
}

/** Where the lists stop short of everything; blank when nothing was cut. */
function cut(news: WhatsNew): string {
  const parts: string[] = []
  if (news.totalArtists > news.artists.length) parts.push(`the first ${news.artists.length} artists`)
  if (news.totalTracks > news.tracks.length) parts.push(`the first ${news.tracks.length} tracks`)
  return parts.length > 0 ? `; showing ${parts.join(' and ')}` : ''
}
