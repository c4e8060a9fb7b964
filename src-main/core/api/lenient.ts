/**
 * Lists whose entries are read one by one: a page of artists, the access levels. One entry the
 * service describes badly (a username or an upload id over 200 characters, a level without its
 * price) once failed the whole page, and so every sync of that catalogue. Now such an entry is
 * left out and told to the caller (`onSkipped`); the answer is refused only when most of it is bad,
 * since then it is the service, not one entry, that is wrong.
 */
import * as v from 'valibot'
import { cleanText } from '../shared/text'
import { accessLevelSchema, artistListSchema, accessLevelsSchema, listArtistSchema, TEXT_LIMITS, type AccessLevel, type ArtistList } from './schemas'
import { fieldPath, validateBody } from './validate'

/** An entry left out: what it was (a username, a level's key, as far as readable) and what was wrong with it. */
export interface SkippedEntry {
  what: string
  message: string
}

const pageEnvelope = v.object({ pages: v.unknown(), artists: v.array(v.unknown()) })
const wrappedArtist = v.object({ artist: listArtistSchema })
const levelsEnvelope = v.record(v.string(), v.unknown())

/** A page of the artist list, its bad entries left out and told; the whole page refused (as the schema words it) when most are bad. */
export function readArtistList(json: unknown, url: string, onSkipped: (entry: SkippedEntry) => void): ArtistList {
  const envelope = v.safeParse(pageEnvelope, json)
  if (!envelope.success) return validateBody(artistListSchema, json, url)
  const artists: ArtistList['artists'] = []
  const skipped: SkippedEntry[] = []
  envelope.output.artists.forEach((wrapper, index) => {
    const read = v.safeParse(wrappedArtist, wrapper, { abortEarly: true })
    if (read.success) artists.push(read.output.artist)
    else skipped.push({ what: nameOf((wrapper as { artist?: { username?: unknown } } | null)?.artist?.username, `artist ${index + 1} of the page`), message: issueText(read.issues[0]) })
  })
  if (skipped.length * 2 > envelope.output.artists.length) return validateBody(artistListSchema, json, url)
  // The page count is checked as the schema checks it (a wrong one refuses the page).
  const { pages } = validateBody(v.object({ pages: artistListSchema.entries.pages }), json, url)
  for (const entry of skipped) onSkipped(entry)
  return { pages, artists }
}

/** The access levels, sorted by id, a bad level left out and told; all refused when most are bad. */
export function readAccessLevels(json: unknown, url: string, onSkipped: (entry: SkippedEntry) => void): AccessLevel[] {
  const envelope = v.safeParse(levelsEnvelope, json)
  if (!envelope.success || Array.isArray(json)) return validateBody(accessLevelsSchema, json, url)
  const levels: AccessLevel[] = []
  const skipped: SkippedEntry[] = []
  for (const [key, value] of Object.entries(envelope.output)) {
    const read = v.safeParse(accessLevelSchema, value, { abortEarly: true })
    const what = `access level ${nameOf(key, '?')}`
    if (!read.success) skipped.push({ what, message: issueText(read.issues[0]) })
    else if (String(read.output.id) !== key) skipped.push({ what, message: `its id ${read.output.id} is not its key` })
    else levels.push(read.output)
  }
  if (skipped.length * 2 > Object.keys(envelope.output).length) return validateBody(accessLevelsSchema, json, url)
  for (const entry of skipped) onSkipped(entry)
  return levels.sort((a, b) => a.id - b.id)
}

/** A name from the service for a message: cleaned and capped, or `fallback` when it is not text. */
function nameOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? cleanText(value, 60) : fallback
}

function issueText(issue: v.BaseIssue<unknown>): string {
  const field = fieldPath(issue.path)
  return cleanText(`${field === undefined ? '' : `${field}: `}${issue.message}`, TEXT_LIMITS.name)
}
