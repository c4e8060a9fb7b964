/** Plain-text tables for the CLI's human-readable output. */

/** Columns padded to their widest cell (by code points, so most scripts line up). */
export function table(header: string[], rows: string[][]): string {
  const clean = (cell: string): string => cell.replace(/\p{Cc}+/gu, ' ')
  const all = [header, ...rows].map((row) => row.map(clean))
  const widths = header.map((_, column) => Math.max(...all.map((row) => [...(row[column] ?? '')].length)))
  return all
    .map((row) => row.map((cell, column) => cell + ' '.repeat(widths[column]! - [...cell].length)).join('  ').trimEnd())
    .join('\n')
}

/** Cuts text to at most max code points, marking the cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}
