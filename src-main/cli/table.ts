/** Plain-text tables for the CLI's human-readable output. */
import stringWidth from 'string-width'
import { printable } from '../core/shared/text'

/**
 * Columns padded to their widest cell by display width, so CJK, fullwidth and
 * emoji cells line up in a terminal; each cell made printable, on one line
 * (see print.ts).
 */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows].map((row) => row.map((cell) => printable(cell)))
  const widths = header.map((_, column) => Math.max(...all.map((row) => stringWidth(row[column] ?? ''))))
  return all
    .map((row) =>
      row
        .map((cell, column) => cell + ' '.repeat(widths[column]! - stringWidth(cell)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** Cuts text to at most max columns of display width, marking the cut. */
export function truncate(text: string, max: number): string {
  if (stringWidth(text) <= max) return text
  let result = ''
  let width = 0
  // By grapheme, so a flag or an accented letter is never split.
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    const size = stringWidth(segment)
    if (width + size > max - 1) break
    result += segment
    width += size
  }
  return `${result}…`
}
