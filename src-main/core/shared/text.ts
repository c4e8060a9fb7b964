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
