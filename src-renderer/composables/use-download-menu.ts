/**
 * The context menu of the downloads screen's rows, listened for on the list (one
 * menu for every row): a row's own actions, or, on a row of a selection of several,
 * the selection bar's, acting on the selection, counted as the bar counts it (format/download-menu.ts).
 */
import { ref } from 'vue'
import type { DownloadView } from '@shared/types'
import { countsOfRows, downloadMenuEntries, type ActionCounts, type DownloadCommand } from '../format/download-menu'
import { describeDownloads } from '../format/download-messages'
import { useContextMenu, type ContextMenuItem } from './use-context-menu'

const ROW = '[data-download-id]'

export function useDownloadMenu(options: {
  /** The download a row shows. */
  rowOf: (id: number) => DownloadView | undefined
  /** The selection: whether a download is in it, and how many of it each action applies to. */
  selection: () => { has(row: DownloadView): boolean; counts: ActionCounts }
  desktop: () => boolean
  /** What an entry does, on one download or on the selection. */
  run: (command: DownloadCommand, target: DownloadView | 'selection') => unknown
}) {
  const menu = useContextMenu()
  /** The open menu's accessible name. */
  const label = ref('Download actions')

  function rowOf(target: EventTarget | null): HTMLElement | null {
    return target instanceof Element ? target.closest<HTMLElement>(ROW) : null
  }

  function itemsFor(row: HTMLElement): ContextMenuItem[] {
    const download = options.rowOf(Number(row.dataset.downloadId))
    if (!download) return []
    const selection = options.selection()
    const onSelection = selection.counts.total > 1 && selection.has(download)
    const counts = onSelection ? selection.counts : countsOfRows([download])
    label.value = onSelection ? `Actions for ${counts.total.toLocaleString()} selected downloads` : `Actions for ${describeDownloads([download])}`
    return downloadMenuEntries(counts, options.desktop()).map((entry) => ({
      key: entry.key,
      label: entry.label,
      disabled: entry.disabled,
      danger: entry.danger,
      separator: entry.separator,
      run: () => options.run(entry.command, onSelection ? 'selection' : download),
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
