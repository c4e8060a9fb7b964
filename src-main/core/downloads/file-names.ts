/**
 * File names that are valid on Windows, macOS and Linux alike, of a type the
 * app plays (or plain `.bin`), and paths that can never leave the download
 * folder, whatever the catalogue's titles and extensions hold.
 */
import path from 'node:path'
import { isInside, realPathInsideSync, resolveInside as resolveInsideFolder } from '../files/contained-path'
import { UnsafePathError } from '../shared/errors'
import { isPlayableExtension } from '../shared/media-types'

/** The longest file name most file systems take, in bytes of UTF-8. */
export const MAX_NAME_BYTES = 255
/** Room kept in every file name for the partial-file suffix and a " (99)" that keeps names apart. */
const PART_SUFFIX = '.part'
const RESERVED_FOR_SUFFIXES = Buffer.byteLength(`${PART_SUFFIX} (99)`)
/** Device names Windows reserves, with or without an extension (COM¹ and friends included). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i

/** Cuts text to at most maxBytes of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text
  let result = ''
  let bytes = 0
  for (const char of text) {
    const size = Buffer.byteLength(char)
    if (bytes + size > maxBytes) break
    result += char
    bytes += size
  }
  return result
}

/**
 * One path segment made safe everywhere: no reserved or control characters,
 * no reserved device names, no leading or trailing dots and spaces, at most
 * maxBytes of UTF-8, never empty, never "." or "..".
 */
export function safeSegment(name: string, maxBytes = MAX_NAME_BYTES, fallback = 'untitled'): string {
  let segment = name
    .normalize('NFC')
    // Reserved on Windows (and / everywhere, : on macOS), plus control and format-breaking characters.
    .replace(/[<>:"/\\|?*\p{Cc}\u2028\u2029]/gu, '_')
    // Invisible direction overrides would make a name read differently from what it is.
    .replace(/[\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/\s+/gu, ' ')
  segment = stripEnds(segment)
  if (WINDOWS_RESERVED.test(segment)) segment = `_${segment}`
  segment = stripEnds(truncateUtf8(segment, maxBytes))
  if (segment === '' || /^\.+$/.test(segment)) segment = fallback
  return segment
}

function stripEnds(text: string): string {
  // Windows drops trailing dots and spaces; leading ones hide files or confuse shells.
  return text.replace(/^[\s.]+|[\s.]+$/gu, '')
}

/**
 * A file extension from the catalogue, made safe: one of the types the app plays (lower-case), else
 * "bin". A stranger's catalogue names it, and a `.exe`, `.desktop`, `.sh` or `.js` would be run by
 * whoever opens the file.
 */
export function safeExtension(ext: string | null | undefined): string {
  const clean = (ext ?? '').toLowerCase()
  return /^[a-z0-9]{1,10}$/.test(clean) && isPlayableExtension(clean) ? clean : 'bin'
}

/**
 * The folder of an artist's downloads, one path segment: their display name (their username when it is
 * blank). Display names are not unique (five demo artists are "Ａｅｓｔｈｅｔｉｃ"), and two artists in
 * one folder mix their files: when `others` (artists.ts, artistsNamedLike) holds another artist whose
 * folder would have the same name, as a file system that ignores case sees it, the folder is
 * "<display name> (<username>)". Usernames are unique; the username is never cut short to fit.
 */
export function artistFolderName(name: string, username: string, others: readonly { name: string; username: string }[] = []): string {
  const plain = (artist: { name: string; username: string }): string => safeSegment(artist.name.trim() === '' ? artist.username : artist.name, MAX_NAME_BYTES, 'unknown artist')
  const folder = plain({ name, username })
  const key = folder.toLowerCase()
  const shared = others.some((other) => other.username.toLowerCase() !== username.toLowerCase() && plain(other).toLowerCase() === key)
  if (!shared) return folder
  const tail = ` (${safeSegment(username, MAX_NAME_BYTES / 2, 'artist')})`
  return `${safeSegment(name.trim() === '' ? username : name, MAX_NAME_BYTES - Buffer.byteLength(tail), 'unknown artist')}${tail}`
}

/**
 * `<artist>/<title> [<upload id>].<ext>`, each part safe, relative to the download folder. `artistName`
 * is the artist's folder (artistFolderName), or a name made safe here.
 */
export function defaultRelativePath(artistName: string, title: string, uploadId: string, ext: string | null): string {
  const extension = safeExtension(ext)
  const id = safeSegment(uploadId, 64, 'upload')
  const tail = ` [${id}].${extension}`
  const titleBudget = MAX_NAME_BYTES - RESERVED_FOR_SUFFIXES - Buffer.byteLength(tail)
  const file = `${safeSegment(title, titleBudget)}${tail}`
  return path.join(safeSegment(artistName, MAX_NAME_BYTES, 'unknown artist'), file)
}

/** The absolute path of relative inside the download folder (core/files/contained-path.ts), refused unless it stays inside. */
export function resolveInside(folder: string, relative: string): string {
  return resolveInsideFolder(folder, relative, 'the download folder')
}

/**
 * Throws UnsafePathError unless target is `<folder>/<artist>/<file>`, as plan.ts makes it, by name
 * alone: `folder` is the one the download was queued into (db/downloads.ts, downloadFolder), kept
 * apart from the target, so a target rewritten in the cache (by hand, or by a trigger planted there)
 * is held to it. The real paths on the way are judged as the file is opened and put in place.
 */
export function checkPlannedTarget(folder: string, target: string): void {
  const planned = path.isAbsolute(folder) && path.resolve(target) === target && path.dirname(path.dirname(target)) === folder && isInside(folder, target)
  if (!planned) throw new UnsafePathError(`${target} is not in an artist's folder of the download folder ${folder || '(none recorded)'} it was queued into; refused`)
}

/**
 * The partial file of a download to delete (a cancel, a fresh start), or undefined when it must be
 * left alone: its target is not where it was planned in the folder it was queued into, or the
 * partial file leads out of that folder (a link, or a folder on the way swapped for one). A target
 * rewritten in the cache (test/main/attacks/23-writer-containment.test.ts) must not name a file
 * elsewhere to delete; a partial file left behind is only a stray.
 */
export function deletablePart(folder: string | undefined, target: string): string | undefined {
  try {
    checkPlannedTarget(folder ?? '', target)
  } catch {
    return undefined
  }
  const part = partPathOf(target)
  return realPathInsideSync(folder!, part) === 'outside' ? undefined : part
}

/** The partial file of a target. */
export function partPathOf(target: string): string {
  return `${target}${PART_SUFFIX}`
}

/** The target itself if free, else the first free "name (n).ext" beside it. */
export function freePath(target: string, isFree: (candidate: string) => boolean): string {
  if (isFree(target)) return target
  const { dir, name, ext } = path.parse(target)
  for (let n = 2; n < 100; n++) {
    const candidate = path.join(dir, `${name} (${n})${ext}`)
    if (isFree(candidate)) return candidate
  }
  throw new UnsafePathError(`no free name for ${target}`)
}
