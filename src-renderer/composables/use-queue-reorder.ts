/**
 * Reordering the queued downloads on the downloads screen: by dragging a row
 * (HTML5 drag and drop: dropped on a row's upper half it goes before that row,
 * on its lower half after it) or from the keyboard (Alt+ArrowUp / Alt+ArrowDown
 * move the focused row one place; the focus stays on it). The move itself is the
 * caller's (the store's), the rows take their places when the core's event comes.
 *
 * Key presses come faster than the core answers: each one counts from the order the presses
 * before it make (applied here at once, not yet shown), and the moves go to the core one at a
 * time, each once the one before shows (or WAIT_MS passed), so N presses move the row N places.
 */
import { nextTick, ref, watch } from 'vue'
import type { QueuePlace } from '@shared/types'

const ROW = '[data-download-id]'
const TYPE = 'application/x-tuneshelf-download'
/** How long a key move waits for the shown order to change before the next one goes anyway (a refused move). */
const WAIT_MS = 2000

function idOf(target: EventTarget | null): number | null {
  const row = target instanceof Element ? target.closest<HTMLElement>(ROW) : null
  return row ? Number(row.dataset.downloadId) : null
}

export function useQueueReorder(options: {
  /** The queued rows at hand, in order, with no gap (a list that holds only the rows in view holds a run of them). */
  ids: () => readonly number[]
  /** Whether those rows reach the end of the queue: only then is "after the last of them" the bottom. */
  toEnd?: () => boolean
  move: (ids: number[], place: QueuePlace) => Promise<unknown>
}) {
  const toEnd = options.toEnd ?? (() => true)
  const dragging = ref<number | null>(null)
  /** Where a drop would put the dragged row: before this id, or at the bottom ('end'). */
  const dropBefore = ref<number | 'end' | null>(null)
  /** The row the keyboard moved: it gets the focus back once it is in its new place. */
  let refocus: number | null = null

  /** The order the key presses made, ahead of the shown one; null when nothing is on its way. */
  let ahead: number[] | null = null
  /** Key moves not yet sent, and whether one sent is waiting for the order to show it. */
  const outbox: { id: number; place: QueuePlace }[] = []
  let waiting: ReturnType<typeof setTimeout> | null = null
  /** The shown order when the last key move went: the move shows once it differs. */
  let sentFrom = ''

  /** The order a key press counts from: the presses' order, with the rows that came or left since. */
  function order(): number[] {
    const shown = options.ids()
    if (!ahead) return [...shown]
    const present = new Set(shown)
    const kept = ahead.filter((id) => present.has(id))
    const known = new Set(kept)
    return [...kept, ...shown.filter((id) => !known.has(id))]
  }

  function sendNext(): void {
    if (waiting !== null) clearTimeout(waiting)
    waiting = null
    const next = outbox.shift()
    if (!next) {
      ahead = null
      return
    }
    waiting = setTimeout(sendNext, WAIT_MS)
    sentFrom = options.ids().join()
    void options.move([next.id], next.place)
  }

  watch(options.ids, async (ids) => {
    // The order changed: the move sent shows (or something else moved); the next one may go.
    if (waiting !== null && ids.join() !== sentFrom) sendNext()
    if (refocus === null || !ids.includes(refocus)) return
    const id = refocus
    if (waiting === null) refocus = null
    await nextTick()
    const active = document.activeElement
    // Only a focus the move dropped (or still in the row) is put back: the user may have gone on.
    if (active && active !== document.body && document.contains(active) && !active.closest(`[data-download-id="${id}"]`)) return
    document.querySelector<HTMLElement>(`${ROW}[data-download-id="${id}"] [data-row-check]`)?.focus()
  })

  /** The place for a move of id before `before` (or to the bottom) in ids; null when it would not move (or where is not known). */
  function placeOf(id: number, before: number | 'end' | null, ids: readonly number[] = options.ids()): QueuePlace | null {
    const at = ids.indexOf(id)
    if (before === null) return null
    if (before === 'end') return at === ids.length - 1 ? null : { to: 'bottom' }
    if (before === id || ids[at + 1] === before) return null
    return { before }
  }

  function onDragStart(event: DragEvent): void {
    const id = idOf(event.target)
    // A drag that starts on a link or a button inside the row is theirs.
    if (id === null || !(event.target as Element).matches(ROW)) return
    dragging.value = id
    event.dataTransfer?.setData(TYPE, String(id))
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
  }

  function onDragOver(event: DragEvent): void {
    if (dragging.value === null) return
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>(ROW) : null
    if (!row) return
    event.preventDefault()
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move'
    const ids = options.ids()
    const id = Number(row.dataset.downloadId)
    const box = row.getBoundingClientRect()
    const lower = event.clientY > box.top + box.height / 2
    const after = ids[ids.indexOf(id) + 1] ?? (toEnd() ? 'end' : null)
    // Below the last row at hand, when more rows follow that are not: no place to drop yet.
    if (lower && after === null) {
      dropBefore.value = null
      return
    }
    dropBefore.value = lower ? after : id
  }

  function onDrop(event: DragEvent): void {
    const id = dragging.value
    const before = dropBefore.value
    reset()
    if (id === null || before === null) return
    event.preventDefault()
    const place = placeOf(id, before)
    if (place) void options.move([id], place)
  }

  function reset(): void {
    dragging.value = null
    dropBefore.value = null
  }

  function onKeydown(event: KeyboardEvent): void {
    if (!event.altKey || event.ctrlKey || event.metaKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    const id = idOf(event.target)
    if (id === null) return
    // Alt+arrows are the reordering keys here: the list's plain arrows must not move the focus too.
    event.preventDefault()
    event.stopPropagation()
    const ids = order()
    const at = ids.indexOf(id)
    if (at < 0) return
    const up = event.key === 'ArrowUp'
    const place = up ? (at > 0 ? placeOf(id, ids[at - 1]!, ids) : null) : at < ids.length - 1 ? placeOf(id, ids[at + 2] ?? (toEnd() ? 'end' : null), ids) : null
    if (!place) return
    refocus = id
    // The next press counts from here, before the core's answer shows it.
    ids.splice(at, 1)
    ids.splice(up ? at - 1 : at + 1, 0, id)
    ahead = ids
    outbox.push({ id, place })
    if (waiting === null) sendNext()
  }

  return { dragging, dropBefore, onDragStart, onDragOver, onDrop, onDragEnd: reset, onKeydown }
}
