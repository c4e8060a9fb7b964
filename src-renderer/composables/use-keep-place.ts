/**
 * Keeps the user's place in a grouped list whose rows move between groups
 * when acted on (the downloads: Cancel moves a queued row to Cancelled, maybe
 * thousands of pixels away). The focus does not follow the row there: it goes
 * to the next row of the same group (the previous one at its end), on the
 * button of the same action where it has one, and the scroll stays where it
 * was. Only a row that leaves a group with nothing else in it is followed.
 * A selection's button that goes away with the state it applied to hands the
 * focus to the selection bar, else to a row, else to the heading. The same holds
 * for a row that moves by itself (a download completes) while it has the focus.
 */
import { watch, type WatchSource } from 'vue'

/** Attributes the list marks its parts with. */
const ROW = 'data-download-id'
const GROUP = 'data-group'

interface Place {
  /** Whether the focus was in the row (else in the selection bar). */
  inRow: boolean
  /** The row acted on, and the group it was in. */
  id: string
  group: string | null
  /** The row after it in that group (or before it, at the end), to go on from. */
  next: string | null
  /** The label of the button pressed, to land on the same one. */
  label: string | null
  until: number
}

/** How long after an action a lost focus is put back: the row moves at once, or when the core answers. */
const WITHIN_MS = 5000

/** Focuses element (scrolled to only when asked: keeping the place means not scrolling); false when there is none. */
function focusOn(element: HTMLElement | null | undefined, scroll: boolean): boolean {
  if (!element) return false
  element.focus({ preventScroll: !scroll })
  if (scroll) element.scrollIntoView({ block: 'nearest' })
  return true
}

/** Whether the focus was dropped on the page (its element left the document). */
function focusLost(): boolean {
  const active = document.activeElement
  return !active || active === document.body || !document.contains(active)
}

export function useKeepPlace(root: () => HTMLElement | null, rows: WatchSource<unknown>): { keepPlace(id: number): void } {
  let place: Place | undefined

  /** Call before acting on row `id`: remembers where the user is, if the focus is in the list. */
  function keepPlace(id: number): void {
    const container = root()
    const active = document.activeElement
    if (!container || !(active instanceof HTMLElement) || !container.contains(active)) return
    const row = container.querySelector<HTMLElement>(`[${ROW}="${id}"]`)
    const group = row?.closest<HTMLElement>(`[${GROUP}]`) ?? null
    const siblings = group ? [...group.querySelectorAll<HTMLElement>(`[${ROW}]`)] : []
    const at = row ? siblings.indexOf(row) : -1
    const next = at >= 0 ? (siblings[at + 1] ?? siblings[at - 1]) : undefined
    place = {
      inRow: row?.contains(active) ?? false,
      id: String(id),
      group: group?.getAttribute(GROUP) ?? null,
      next: next?.getAttribute(ROW) ?? null,
      label: row?.contains(active) && active.tagName === 'BUTTON' ? (active.textContent?.trim() ?? null) : null,
      until: Date.now() + WITHIN_MS,
    }
  }

  function buttonOf(row: HTMLElement | null, label: string | null): HTMLElement | null {
    if (!row) return null
    const buttons = [...row.querySelectorAll<HTMLElement>('.actions button')]
    return buttons.find((button) => button.textContent?.trim() === label) ?? row.querySelector<HTMLElement>('[data-row-check]')
  }

  // Before each redraw, where the focus is: a row may also move with no action of the user's (a
  // download completes while one of its buttons has the focus), and the redraw would drop it on the page.
  watch(
    rows,
    () => {
      const container = root()
      const active = document.activeElement
      if (!container || !(active instanceof HTMLElement) || !container.contains(active)) return
      const row = active.closest<HTMLElement>(`[${ROW}]`)
      if (row) keepPlace(Number(row.getAttribute(ROW)))
    },
    { flush: 'pre' },
  )

  watch(
    rows,
    () => {
      const container = root()
      if (!place || !container) return
      if (Date.now() > place.until) {
        place = undefined
        return
      }
      if (!focusLost()) return
      const { inRow, id, group, next, label } = place
      const row = container.querySelector<HTMLElement>(`[${ROW}="${id}"]`)
      const stayed = inRow && row?.closest(`[${GROUP}]`)?.getAttribute(GROUP) === group
      const nextRow = inRow && next ? container.querySelector<HTMLElement>(`[${GROUP}="${group}"] [${ROW}="${next}"]`) : null
      // In this order: the row itself if it stayed, the next one of its group, the row followed to its new group
      // when nothing is left where it was; for a selection, its bar. The place is kept for a while after landing:
      // the row's state may change again (the core's answer, a completion), taking away the focused button.
      const candidates = [
        // A row that moved within its group (Move to top) is followed into view: the focus is on it.
        () => stayed && focusOn(buttonOf(row, label), true),
        () => focusOn(buttonOf(nextRow, label), false),
        () => inRow && focusOn(row?.querySelector<HTMLElement>('.actions button'), true),
        () => focusOn(container.querySelector<HTMLElement>('[data-selection-bar] button'), false),
        () => focusOn(container.querySelector<HTMLElement>('[data-row-check]'), false),
        () => focusOn(document.querySelector<HTMLElement>('h1'), false),
      ]
      candidates.some((land) => land())
    },
    { flush: 'post' },
  )

  return { keepPlace }
}

/**
 * Keeps the focus across a redraw that takes away the control holding it, where no row moves: a
 * button swapped for another (Follow for Unfollow, a track's Download for its Pause and Cancel), a
 * bar or a group that goes away. `source` is what changes with it. Just before the redraw, `holds()`
 * says whether the focus is in the part that changes (and may note where); just after it, a focus the
 * redraw dropped on the page goes to what `land()` gives, if anything. Focus elsewhere is left alone.
 */
export function useKeepFocus(source: WatchSource<unknown>, holds: () => boolean, land: () => HTMLElement | null | undefined): void {
  let held = false
  watch(source, () => (held = holds()), { flush: 'pre' })
  watch(
    source,
    () => {
      if (!held) return
      held = false
      if (focusLost()) focusOn(land(), false)
    },
    { flush: 'post' },
  )
}

/** Whether the focus is inside element. */
export function holdsFocus(element: HTMLElement | null | undefined): boolean {
  const active = document.activeElement
  return element instanceof HTMLElement && active instanceof HTMLElement && element.contains(active)
}
