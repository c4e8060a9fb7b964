/**
 * The keys of a list of selectable rows: arrows (and Home, End) move the focus
 * between the rows' checkboxes, Ctrl/Cmd+A selects every row, Escape empties
 * the selection. They only move the focus and change the selection; what the
 * list does with them is the caller's (selectAll, clear, and step: a list that
 * draws only the rows in view brings the row it steps to into view first).
 */

export type RowStep = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'

const ROW = '[data-download-id]'
const STEPS: readonly string[] = ['ArrowDown', 'ArrowUp', 'Home', 'End']

export function useRowKeys(options: {
  hasSelection: () => boolean
  selectAll(): void
  clear(): void
  /** Moves the focus from a row to the one the key leads to; false when there is none. */
  step(row: HTMLElement, key: RowStep): boolean
}): (event: KeyboardEvent) => void {
  return (event) => {
    const target = event.target as HTMLElement
    if (event.key === 'Escape' && options.hasSelection()) {
      options.clear()
      event.preventDefault()
      return
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      options.selectAll()
      event.preventDefault()
      return
    }
    if (!STEPS.includes(event.key) || event.altKey) return
    const row = target.closest<HTMLElement>(ROW)
    if (row && options.step(row, event.key as RowStep)) event.preventDefault()
  }
}
