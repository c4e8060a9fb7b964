/**
 * A context menu for a row: opened by a right click (at the pointer) or by the
 * keyboard (the ContextMenu key or Shift+F10 on a focused row, under the row),
 * drawn by components/common/context-menu.vue. It is the window's own menu, not
 * the system's, so it works the same in Electron and in a browser (`npm run web`).
 *
 * Only one menu is open at a time in the whole window: opening one closes any other.
 *
 *   const menu = useContextMenu()
 *   <li @contextmenu="menu.onContextMenu($event, items)" @keydown="menu.onKeydown($event, items)">
 *   <ContextMenu :menu="menu" label="Actions for …" />
 */
import { shallowRef, type ShallowRef } from 'vue'

export interface ContextMenuItem {
  /** A stable key (also the item's `data-action`, for tests and styling). */
  key: string
  label: string
  /** Why the item cannot be used now (shown as its tooltip); null or absent when it can. */
  disabled?: string | null
  /** A destructive action (Cancel, Remove): drawn in the danger colour. */
  danger?: boolean
  /** A line above the item, to group it apart from the ones before. */
  separator?: boolean
  /** What choosing it does; the menu is closed (and the focus back on the row) before it runs. */
  run: () => unknown
}

export interface ContextMenuState {
  /**
   * The items, read again whenever what they read changes while the menu is open (a selection that
   * shrinks as another window removes a row, a follow made elsewhere): the labels and counts stay true.
   */
  items: () => readonly ContextMenuItem[]
  /** Where the menu's top left corner goes, in window coordinates, before it is kept inside the window. */
  x: number
  y: number
  /** Where the focus goes back to when the menu closes without moving it elsewhere. */
  returnTo: HTMLElement | null
  /**
   * The row the menu is for, and where it was in the window when the menu opened: the menu moves with it when the
   * list moves beneath (a download above it growing a line, a row above it leaving), and closes if the row goes.
   */
  anchor: MenuAnchor | null
}

/** The row a menu is for, where it was, and what is around it (kept up to date by the open menu, for the focus). */
export interface MenuAnchor {
  element: HTMLElement
  left: number
  top: number
  /** The rows after and before it, then its ancestors: where the focus goes if the row leaves the page. */
  around: HTMLElement[]
  /** What the row was for when the menu opened (identityOf). */
  identity: string
}

/** The attributes that name what a row is for: an artist, a download, an upload. */
const ROW_IDENTITIES = ['data-username', 'data-download-id', 'data-upload-id']

/**
 * What a row element is for, as its attributes say. A virtual list reuses a row's element for another
 * artist when the list changes under it (a sync sorting new artists in): the element is still there,
 * but the row the menu was for is not.
 */
export function identityOf(row: HTMLElement): string {
  return ROW_IDENTITIES.map((name) => row.getAttribute(name) ?? '').join('\u0000')
}

export interface ContextMenuController {
  state: ShallowRef<ContextMenuState | null>
  /**
   * A `contextmenu` event (right click, or the key where the browser turns it into one); anchor: the row, when
   * the listener is on a list; returnTo: where the focus goes back (by default the row's focused control, or the row).
   */
  onContextMenu(
    event: MouseEvent,
    items: readonly ContextMenuItem[] | (() => readonly ContextMenuItem[]),
    anchor?: HTMLElement | null,
    returnTo?: HTMLElement | null,
  ): void
  /** A keydown on the row: opens the menu on the ContextMenu key or Shift+F10; other keys are left alone. */
  onKeydown(event: KeyboardEvent, items: readonly ContextMenuItem[] | (() => readonly ContextMenuItem[]), anchor?: HTMLElement | null): void
  /** Opens the menu under an element (a row the keyboard is on), the focus to come back to returnTo. */
  openAt(anchor: HTMLElement, items: readonly ContextMenuItem[] | (() => readonly ContextMenuItem[]), returnTo?: HTMLElement | null): void
  /** Closes it; with restoreFocus the focus goes back to the row. */
  close(restoreFocus?: boolean): void
}

/** Whether a keydown asks for the context menu. */
export function isContextMenuKey(event: KeyboardEvent): boolean {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey)
}

/** The menu open in the window, if any: a new one closes it. */
let current: ContextMenuController | null = null

/** What a right click on an element should give the focus back to: the focused control of the row, or the row itself. */
function focusTargetOf(row: HTMLElement | null): HTMLElement | null {
  if (!row) return null
  const active = document.activeElement
  if (active instanceof HTMLElement && row.contains(active)) return active
  if (row.tabIndex >= 0 || row.hasAttribute('tabindex')) return row
  return row.querySelector<HTMLElement>('input, button, a[href], [tabindex]')
}

function anchorOf(row: HTMLElement | null): ContextMenuState['anchor'] {
  if (!row) return null
  const { left, top } = row.getBoundingClientRect()
  return { element: row, left, top, around: aroundOf(row), identity: identityOf(row) }
}

/** The rows after and before row, then its ancestors up to the page's body, nearest first. */
export function aroundOf(row: HTMLElement): HTMLElement[] {
  const around = [row.nextElementSibling, row.previousElementSibling]
  for (let parent = row.parentElement; parent && parent !== document.body; parent = parent.parentElement) around.push(parent)
  return around.filter((element): element is HTMLElement => element instanceof HTMLElement)
}

const FOCUSABLE = 'input:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'

/**
 * Where the focus goes back to: where it came from, or, when that row left the page while the menu was
 * open (its download went to another group), the row after it (else before it), as the row's own buttons do;
 * else the first control of the nearest part of the screen still there.
 */
function focusBackTo(was: ContextMenuState): HTMLElement | null {
  if (was.returnTo?.isConnected) return was.returnTo
  for (const near of was.anchor?.around ?? []) {
    if (!near.isConnected) continue
    const control = near.matches(FOCUSABLE) ? near : near.querySelector<HTMLElement>(FOCUSABLE)
    if (control) return control
  }
  return null
}

function resolve(items: readonly ContextMenuItem[] | (() => readonly ContextMenuItem[])): readonly ContextMenuItem[] {
  return typeof items === 'function' ? items() : items
}

function reader(items: readonly ContextMenuItem[] | (() => readonly ContextMenuItem[])): () => readonly ContextMenuItem[] {
  return typeof items === 'function' ? items : () => items
}

export function useContextMenu(): ContextMenuController {
  const state = shallowRef<ContextMenuState | null>(null)
  /** A keyboard open is followed, in some browsers, by a `contextmenu` event of the same key press: that one is not a second open. */
  let openedByKeyAt = 0

  const controller: ContextMenuController = {
    state,
    onContextMenu(event, items, anchor, returnTo) {
      const list = resolve(items)
      if (list.length === 0) return
      event.preventDefault()
      event.stopPropagation()
      if (Date.now() - openedByKeyAt < 300 && state.value) return
      const row = anchor ?? (event.currentTarget instanceof HTMLElement ? event.currentTarget : null)
      // A `contextmenu` that the keyboard fired has no pointer position: it goes under the row, as a key press does.
      const back = returnTo ?? focusTargetOf(row)
      if (event.clientX === 0 && event.clientY === 0 && row) {
        controller.openAt(row, items, back)
        return
      }
      open({ items: reader(items), x: event.clientX, y: event.clientY, returnTo: back, anchor: anchorOf(row) })
    },
    onKeydown(event, items, anchor) {
      if (!isContextMenuKey(event)) return
      const list = resolve(items)
      if (list.length === 0) return
      event.preventDefault()
      event.stopPropagation()
      const target = event.target instanceof HTMLElement ? event.target : null
      const row = anchor ?? (event.currentTarget instanceof HTMLElement ? event.currentTarget : target)
      if (!row) return
      controller.openAt(row, items, target)
    },
    openAt(anchor, items, returnTo = anchor) {
      openedByKeyAt = Date.now()
      // A row the keyboard is on may be scrolled out of view: brought in first, the menu goes under it.
      anchor.scrollIntoView({ block: 'nearest' })
      const box = anchor.getBoundingClientRect()
      // Under the row's start, a little in, as system menus open for the keyboard.
      open({ items: reader(items), x: box.left + Math.min(24, box.width / 4), y: box.bottom - Math.min(8, box.height / 4), returnTo: returnTo ?? null, anchor: anchorOf(anchor) })
    },
    close(restoreFocus = false) {
      const was = state.value
      if (!was) return
      state.value = null
      if (current === controller) current = null
      if (restoreFocus) focusBackTo(was)?.focus({ preventScroll: true })
    },
  }

  function open(next: ContextMenuState): void {
    if (current && current !== controller) current.close(false)
    current = controller
    state.value = next
  }

  return controller
}
