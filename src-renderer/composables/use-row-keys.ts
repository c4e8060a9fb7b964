/**
 * The keys of a list of selectable rows: arrows (and Home, End) move the focus
 * between the rows' checkboxes, Ctrl/Cmd+A selects every row, Escape empties
 * the selection. They only move the focus and change the selection; what the
 * list does with them is the caller's (selectAll, clear).
 */

/** The checkbox each row marks as its own. */
const CHECK = '[data-row-check]'
const ROW = '[data-download-id]'

export function useRowKeys(options: { list: () => HTMLElement | null; hasSelection: () => boolean; selectAll(): void; clear(): void }): (event: KeyboardEvent) => void {
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
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return
    const row = target.closest(ROW)
    const list = options.list()
    if (!row || !list) return
    const checks = [...list.querySelectorAll<HTMLElement>(CHECK)]
    const here = checks.indexOf(row.querySelector<HTMLElement>(CHECK)!)
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? checks.length - 1 : here + (event.key === 'ArrowDown' ? 1 : -1)
    const destination = checks[Math.max(0, Math.min(checks.length - 1, next))]
    if (destination) {
      event.preventDefault()
      destination.focus()
      destination.scrollIntoView({ block: 'nearest' })
    }
  }
}
