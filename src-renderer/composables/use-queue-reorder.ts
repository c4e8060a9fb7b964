/**
 * Reordering the queued downloads on the downloads screen: by dragging a row
 * (HTML5 drag and drop: dropped on a row's upper half it goes before that row,
 * on its lower half after it) or from the keyboard (Alt+ArrowUp / Alt+ArrowDown
 * move the focused row one place; the focus stays on it). The move itself is the
 * caller's (the store's), the rows take their places when the core's event comes.
 */
import { nextTick, ref, watch } from 'vue'
import type { QueuePlace } from '@shared/types'

const ROW = '[data-download-id]'
const TYPE = 'application/x-tuneshelf-download'

function idOf(target: EventTarget | null): number | null {
  const row = target instanceof Element ? target.closest<HTMLElement>(ROW) : null
  return row ? Number(row.dataset.downloadId) : null
}

export function useQueueReorder(options: { ids: () => readonly number[]; move: (ids: number[], place: QueuePlace) => Promise<unknown> }) {
  const dragging = ref<number | null>(null)
  /** Where a drop would put the dragged row: before this id, or at the bottom ('end'). */
  const dropBefore = ref<number | 'end' | null>(null)
  /** The row the keyboard moved: it gets the focus back once it is in its new place. */
  let refocus: number | null = null

  watch(options.ids, async (ids) => {
    if (refocus === null || !ids.includes(refocus)) return
    const id = refocus
    refocus = null
    await nextTick()
    document.querySelector<HTMLElement>(`${ROW}[data-download-id="${id}"] [data-row-check]`)?.focus()
  })

  /** The place for a move of id before `before` (or to the bottom); null when it would not move. */
  function placeOf(id: number, before: number | 'end'): QueuePlace | null {
    const ids = options.ids()
    const at = ids.indexOf(id)
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
    dropBefore.value = lower ? (ids[ids.indexOf(id) + 1] ?? 'end') : id
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
    const ids = options.ids()
    const at = ids.indexOf(id)
    const place = event.key === 'ArrowUp' ? (at > 0 ? placeOf(id, ids[at - 1]!) : null) : at < ids.length - 1 ? placeOf(id, ids[at + 2] ?? 'end') : null
    if (!place) return
    refocus = id
    void options.move([id], place)
  }

  return { dragging, dropBefore, onDragStart, onDragOver, onDrop, onDragEnd: reset, onKeydown }
}
