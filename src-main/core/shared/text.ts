/** Text folded for search exactly as the catalogue service folds it. Shared with the renderer. */

/**
 * Compatibility decomposition (fullwidth `Ａ` is `A`), marks removed in every
 * script (`Ψυχή` is `Ψυχη`), case folded: what the service compares, and what
 * the offline search index holds.
 */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
}

/**
 * The words of a text as the service's search sees them: folded runs of
 * letters and digits. The offline search index holds exactly these words
 * (db/functions.ts), so both sides agree on what a word is in every script.
 */
export function searchWords(text: string): string[] {
  return foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

/**
 * Control characters (C0, DEL, C1): terminal escapes, NULs, bells; and the
 * direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 * An override reverses the text it holds, so a title `song<RLO>gpj.exe` showed
 * as `songexe.jpg`; real right-to-left names need none of them (the screens
 * isolate each name, and the bidirectional algorithm orders its letters). The
 * left-to-right and right-to-left marks (U+200E, U+200F) and the joiners that
 * make emoji stay: they cannot reorder anything.
 */
const CONTROL_OR_DIRECTION = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u
const CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu
const CONTROLS_BUT_LINES = /(?![\t\n\r])[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu
const BREAKS = /\r\n|[\t\n\v\f\r\u0085]/g

/**
 * Text from outside the app (the service's names, titles, bios, error
 * messages) made safe to keep and to show: control characters out (a tab or
 * a line break becomes a space, unless `lines` keeps them, as a bio's), and at
 * most `max` characters, cut with an ellipsis. What is cut is still the name
 * or the message, so this truncates rather than refuses. The one place where
 * this is done, so every screen, log and cache row gets the same.
 */
export function cleanText(text: string, max: number, options: { lines?: boolean } = {}): string {
  if (text.length <= max && !CONTROL_OR_DIRECTION.test(text)) return text
  // Only the start can survive: megabytes are not scanned for the few hundred characters kept.
  const start = text.length > max * 4 + 16 ? text.slice(0, max * 4 + 16) : text
  const cleaned = options.lines ? start.replace(CONTROLS_BUT_LINES, '') : start.replace(BREAKS, ' ').replace(CONTROLS, '')
  if (cleaned.length <= max && start === text) return cleaned
  if (cleaned.length <= max) return `${cleaned.slice(0, max - 1)}…`
  let end = max - 1
  // Never half a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(cleaned.charAt(end - 1))) end--
  return `${cleaned.slice(0, end)}…`
}

/**
 * Text as a terminal may be given it: what cleanText takes out (escape
 * sequences, bells, C1 controls, direction overrides), and no carriage return
 * left to overwrite a line with. `lines` keeps line breaks, as `\n`. Every
 * line the CLI and the web bridge print goes through this (cli/print.ts, web/main.ts).
 */
export function printable(text: string, options: { lines?: boolean } = {}): string {
  return cleanText(text, Number.POSITIVE_INFINITY, options).replace(/\r\n?/g, '\n')
}
