/**
 * The context menu of the downloads screen's rows, listened for on the list (one
 * menu for every row): a row's own actions, or, on a row of a selection of several,
 * the selection bar's, acting on the selection (format/download-menu.ts).
 */
import { ref } from 'vue'
import type { DownloadView } from '@shared/types'
import { downloadMenuEntries, type DownloadCommand } from '../format/download-menu'
import { describeDownloads } from '../format/download-messages'
import { useContextMenu, type ContextMenuItem } from './use-context-menu'

const ROW = '[data-download-id]'

export function useDownloadMenu(options: {
  byId: (id: number) => DownloadView | undefined
  selection: () => readonly DownloadView[]
  desktop: () => boolean
  run: (command: DownloadCommand, rows: DownloadView[]) => unknown
}) {
  const menu = useContextMenu()
  /** The open menu's accessible name. */
  const label = ref('Download actions')

  function rowOf(target: EventTarget | null): HTMLElement | null {
    return target instanceof Element ? target.closest<HTMLElement>(ROW) : null
  }

  function itemsFor(row: HTMLElement): ContextMenuItem[] {
    const download = options.byId(Number(row.dataset.downloadId))
    if (!download) return []
    const selection = options.selection()
    const rows = selection.length > 1 && selection.some((selected) => selected.id === download.id) ? [...selection] : [download]
    label.value = rows.length > 1 ? `Actions for ${rows.length.toLocaleString()} selected downloads` : `Actions for ${describeDownloads(rows)}`
    return downloadMenuEntries(rows, options.desktop()).map((entry) => ({
      key: entry.key,
      label: entry.label,
      disabled: entry.disabled,
      danger: entry.danger,
      separator: entry.separator,
      run: () => options.run(entry.command, rows),
    }))
  }

  function onContextMenu(event: MouseEvent): void {
    const row = rowOf(event.target)
    if (row) menu.onContextMenu(event, () => itemsFor(row), row)
  }

  function onKeydown(event: KeyboardEvent): void {
    const row = rowOf(event.target)
    if (row) menu.onKeydown(event, () => itemsFor(row), row)
  }

  return { menu, label, onContextMenu, onKeydown }
}
