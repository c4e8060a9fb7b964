/**
 * Space plays and pauses from anywhere in the window, as in any music player,
 * except where Space means something itself: typing in a field, pressing a
 * button, a checkbox, a select, a slider, a menu item, or anything editable.
 * While nothing is in the player, Space is left alone (it scrolls the page).
 * The system's media keys reach the player through MediaSession instead
 * (stores/player-media-session.ts).
 */
import { onBeforeUnmount, onMounted } from 'vue'
import { usePlayerStore } from '../stores/player'

/** Elements Space acts on by itself. */
const USES_SPACE = [
  'input', 'textarea', 'select', 'button', 'summary', 'audio', 'video', '[contenteditable]:not([contenteditable="false"])',
  ...['button', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'textbox', 'combobox', 'treeitem', 'gridcell']
    .map((role) => `[role="${role}"]`),
].join(', ')

/** Whether Space pressed here is the element's own (a control that uses it). */
export function spaceIsTaken(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(USES_SPACE) !== null
}

export function usePlayerKeys(): void {
  const player = usePlayerStore()

  // Bubbling, on the window: a control that handled the key (and said so) keeps it.
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.key !== ' ' || event.defaultPrevented || event.isComposing) return
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    if (!player.current || spaceIsTaken(event.target)) return
    event.preventDefault()
    // Held down, the key repeats: one toggle per press.
    if (!event.repeat) void player.toggle()
  }
  onMounted(() => window.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))
}
