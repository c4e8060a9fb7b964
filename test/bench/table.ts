/**
 * The closing table of a benchmark: each figure beside its goal and its reference, from the one
 * run that printed the details above it, so a reader sees at a glance what is met and what is not.
 */

export interface BenchRow {
  /** What was measured, with its value: `loopback first sync: 4.10 s`. */
  figure: string
  /** The goal, as the issue states it: `≤ 1.5 × got alone`; '–' for a figure given as context. */
  goal: string
  /** What the figure is held against: `got alone 2.87 s (curl 1.51 s)`. */
  reference: string
  /** The figure over its reference, as the goal reads it; undefined when there is none. */
  ratio?: number | undefined
  /** Whether the goal is met; undefined for a figure given as context. */
  met?: boolean | undefined
}

/** Prints rows as an aligned table: figure | goal | reference | ratio | met?. */
export function printTable(title: string, rows: readonly BenchRow[]): void {
  const cells = rows.map((row) => [
    row.figure,
    row.goal,
    row.reference,
    row.ratio === undefined ? '–' : row.ratio.toFixed(2),
    row.met === undefined ? 'context' : row.met ? 'met' : 'MISSED',
  ])
  const header = ['figure', 'goal', 'reference', 'ratio', 'met?']
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((row) => row[column]!.length)))
  const line = (row: string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
  console.log(`\n${title}`)
  console.log(line(header))
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const row of cells) console.log(line(row))
}
