/**
 * Back and Forward without the browser's buttons (the desktop window has none):
 *
 * - Alt+Left and Alt+Right, anywhere;
 * - the mouse's back and forward buttons (buttons 3 and 4);
 * - Backspace and Escape on a screen one level down (an artist: `meta.up` names
 *   the screen above), outside text fields; Escape only when nothing else took
 *   it (a dialog, a menu, a selection being cleared).
 *
 * Back with no screen of this app behind it (an artist opened from its address)
 * goes up instead, to the screen above.
 */
import { onBeforeUnmount, onMounted } from 'vue'
import { useRouter, type Router } from 'vue-router'

/** Whether the page has an entry of this app behind (or ahead of) it: vue-router keeps them in history.state. */
function hasEntry(direction: 'back' | 'forward'): boolean {
  return typeof (window.history.state as Record<string, unknown> | null)?.[direction] === 'string'
}

/** Where typing happens: keys there are the field's. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(target.type)
}

export function goBack(router: Router): void {
  if (hasEntry('back')) {
    router.back()
    return
  }
  const up = router.currentRoute.value.meta.up
  if (up) void router.push(up)
}

export function goForward(router: Router): void {
  if (hasEntry('forward')) router.forward()
}

export function useHistoryKeys(): void {
  const router = useRouter()

  // Bubbling, on the window: whatever handled the key on the way (and said so) keeps it.
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.isComposing) return
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey
    if (event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault()
      if (event.key === 'ArrowLeft') goBack(router)
      else goForward(router)
      return
    }
    if (!plain || (event.key !== 'Backspace' && event.key !== 'Escape')) return
    if (!router.currentRoute.value.meta.up || isTextField(event.target)) return
    // An open dialog takes Escape (and closes) even when it does not say so.
    if (document.querySelector('dialog[open]')) return
    event.preventDefault()
    goBack(router)
  }

  // The browser would go back or forward itself on these buttons (Chromium lets the page take them).
  const onMouseUp = (event: MouseEvent): void => {
    if (event.button !== 3 && event.button !== 4) return
    event.preventDefault()
    if (event.button === 3) goBack(router)
    else goForward(router)
  }

  onMounted(() => {
    window.addEventListener('keydown', onKeydown)
    window.addEventListener('mouseup', onMouseUp)
  })
  onBeforeUnmount(() => {
    window.removeEventListener('keydown', onKeydown)
    window.removeEventListener('mouseup', onMouseUp)
  })
}
