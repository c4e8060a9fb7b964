/**
 * The context menu of the artists list's rows: Open, Follow or Unfollow, and Download all,
 * as the row and the artist page offer them. Listened for on the list (a listbox whose
 * keyboard row is its aria-activedescendant): a right click opens it at the pointer, the
 * context-menu key or Shift+F10 under the keyboard's row, the focus back on the list after.
 */
import { ref } from 'vue'
import { useRouter } from 'vue-router'
import type { ArtistSummary } from '@shared/types'
import { artistTitle } from '../format/titles'
import { useDownloadsStore } from '../stores/downloads'
import { useFollowsStore } from '../stores/follows'
import { useSessionStore } from '../stores/session'
import { isContextMenuKey, useContextMenu, type ContextMenuItem } from './use-context-menu'

const ROW = '[data-username]'

export function useArtistMenu(rowAt: (index: number) => ArtistSummary | undefined) {
  const router = useRouter()
  const follows = useFollowsStore()
  const downloads = useDownloadsStore()
  const session = useSessionStore()
  const menu = useContextMenu()
  const label = ref('Artist actions')

  function artistOf(row: HTMLElement): ArtistSummary | undefined {
    const index = Number(row.getAttribute('aria-posinset')) - 1
    const artist = index >= 0 ? rowAt(index) : undefined
    return artist?.username === row.dataset.username ? artist : undefined
  }

  function itemsFor(row: HTMLElement): ContextMenuItem[] {
    const artist = artistOf(row)
    if (!artist) return []
    const title = artistTitle(artist)
    label.value = `Actions for ${title}`
    const readOnly = session.service?.readOnly ? 'This catalogue is read-only here: it cannot be changed' : null
    const followed = follows.isFollowed(artist.username)
    return [
      { key: 'open', label: 'Open', run: () => router.push(`/artists/${encodeURIComponent(artist.username)}`) },
      {
        key: followed ? 'unfollow' : 'follow',
        label: followed ? 'Unfollow' : 'Follow',
        disabled: readOnly,
        run: () => follows.toggle(artist.username),
      },
      {
        key: 'download-all',
        label: 'Download all',
        disabled: readOnly ?? (artist.numTracks === 0 ? 'This artist has no tracks to download' : null),
        separator: true,
        run: () => downloads.queueArtist(artist.username, title),
      },
    ]
  }

  function onContextMenu(event: MouseEvent): void {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>(ROW) : null
    const list = event.currentTarget instanceof HTMLElement ? event.currentTarget : null
    if (!row) {
      // The one the context-menu key fires on the list itself, after the key opened the menu.
      if (menu.state.value) event.preventDefault()
      return
    }
    // The list keeps the focus (its rows are not focusable): Escape brings it back there.
    menu.onContextMenu(event, () => itemsFor(row), row, list)
  }

  function onKeydown(event: KeyboardEvent): void {
    if (!isContextMenuKey(event)) return
    const list = event.currentTarget instanceof HTMLElement ? event.currentTarget : null
    const active = list?.getAttribute('aria-activedescendant')
    const row = active ? document.getElementById(active) : null
    if (!list || !row) return
    if (itemsFor(row).length === 0) return
    event.preventDefault()
    event.stopPropagation()
    menu.openAt(row, () => itemsFor(row), list)
  }

  return { menu, label, onContextMenu, onKeydown }
}
