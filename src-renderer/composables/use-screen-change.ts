/**
 * What a change of screen does to the one scroll container every screen shares
 * (main#content) and to the focus:
 *
 * - a new screen opens at its top; Back and Forward put it where it was left
 *   (the position of each history entry is kept as the user scrolls);
 * - the focus moves to the new screen's heading (h1, focusable by script only),
 *   so a screen reader says where the user is, and Tab goes on from there;
 *   unless the screen has put it somewhere itself (the artist list, back on
 *   its row).
 *
 * A change of the address's query alone (a filter, a pick on the same screen)
 * is no change of screen: nothing moves. The first screen leaves the focus
 * where the page starts it, so Tab reaches the skip link first.
 */
import { onBeforeUnmount, onMounted } from 'vue'
import { useRouter } from 'vue-router'

/** How long a screen may take to draw its heading (it may wait for its data). */
const HEADING_WITHIN_MS = 3000
/** How long a position given back is held while the screen draws itself (see whenDrawn). */
const RESTORE_WITHIN_MS = 1500

/**
 * The entry of the history the page is at: vue-router numbers them in history.state, with the path
 * (an address typed into the bar takes the number of the entry it replaces).
 */
function entryKey(path: string): string {
  const position = (window.history.state as { position?: unknown } | null)?.position
  return `${typeof position === 'number' ? position : 0} ${path}`
}

export function useScreenChange(content: () => HTMLElement | null): void {
  const router = useRouter()
  /** Where the content was scrolled to, by history entry. */
  const positions = new Map<string, number>()
  let current = entryKey(router.currentRoute.value.fullPath)
  /**
   * Set by the browser's Back and Forward (and a typed hash). Heard from the router's history itself,
   * in the same step as the router (a listener of the window's popstate after the router's would hear
   * it only once the navigation, all promises, has ended).
   */
  let popped = false
  let pending: (() => void) | undefined

  const onScroll = (): void => {
    const element = content()
    if (element) positions.set(current, element.scrollTop)
  }
  const stopListening = router.options.history.listen(() => {
    popped = true
  })

  const stopAfterEach = router.afterEach((to, from, failure) => {
    const restoring = popped
    popped = false
    if (failure) return
    current = entryKey(to.fullPath)
    if (from.matched.length === 0 || to.path === from.path) return
    const top = restoring ? (positions.get(current) ?? 0) : 0
    pending?.()
    pending = whenDrawn(content, top, restoring)
  })

  onMounted(() => content()?.addEventListener('scroll', onScroll, { passive: true }))
  onBeforeUnmount(() => {
    stopAfterEach()
    stopListening()
    pending?.()
    content()?.removeEventListener('scroll', onScroll)
  })
}

/**
 * Once the new screen is drawn: scrolls the content to top, and focuses its heading as soon as
 * there is one. A position given back (Back, Forward) is held for a moment: a screen still loading
 * cannot reach it yet, and one that sets itself up (a virtual list taking the content as its
 * scroller) may scroll back to its top once. The user acting meanwhile ends both. Returns the
 * cancel, for a newer change.
 */
function whenDrawn(content: () => HTMLElement | null, top: number, restoring: boolean): () => void {
  const started = performance.now()
  let holding = restoring && top > 0
  let scrolled = false
  let focused = false
  let frame = 0
  // The user acting meanwhile (scrolling, typing, clicking) has the last word.
  const letGo = (): void => {
    holding = false
    focused = true
  }
  const inputs = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const
  for (const type of inputs) window.addEventListener(type, letGo, { capture: true, passive: true })
  const cancel = (): void => {
    cancelAnimationFrame(frame)
    for (const type of inputs) window.removeEventListener(type, letGo, { capture: true })
  }
  const step = (): void => {
    const element = content()
    if (performance.now() - started > RESTORE_WITHIN_MS) holding = false
    if (element && (!scrolled || holding) && Math.abs(element.scrollTop - top) >= 1) element.scrollTop = top
    if (element) scrolled = true
    if (element && !focused) focused = focusHeading(element) || performance.now() - started > HEADING_WITHIN_MS
    if (holding || !scrolled || !focused) frame = requestAnimationFrame(step)
    else cancel()
  }
  frame = requestAnimationFrame(step)
  return cancel
}

/** Focuses the screen's heading; true once done (or once the screen has placed the focus itself). */
function focusHeading(content: HTMLElement): boolean {
  const active = document.activeElement
  if (active && active !== content && content.contains(active)) return true
  const heading = content.querySelector<HTMLElement>('h1')
  if (!heading) return false
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
  heading.focus({ preventScroll: true })
  return true
}
