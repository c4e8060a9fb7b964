/**
 * The context menu of an artist's track rows: what the row's buttons offer for the
 * track's download as it is now (Download; Pause, Resume, Cancel; Retry; Download
 * again; Play, Open, Show in folder), doing exactly what they do. Listened for on the
 * list: a right click opens it at the pointer, the context-menu key or Shift+F10
 * under the focused row, and the focus goes back to the row after.
 */
import { ref } from 'vue'
import type { ArtistWithTracks, Track } from '@shared/types'
import { unavailableHere } from '../format/download-actions'
import { trackTitle } from '../format/titles'
import { useDownloadsStore } from '../stores/downloads'
import { usePlayerStore } from '../stores/player'
import { useContextMenu, type ContextMenuItem } from './use-context-menu'

const ROW = 'li[data-index]'

export function useTrackMenu(artist: () => ArtistWithTracks) {
  const downloads = useDownloadsStore()
  const player = usePlayerStore()
  const menu = useContextMenu()
  const label = ref('Track actions')

  function trackOf(row: HTMLElement): Track | undefined {
    return artist().tracks[Number(row.dataset.index)]
  }

  function itemsFor(track: Track): ContextMenuItem[] {
    const title = trackTitle(track.title)
    label.value = `Actions for ${title}`
    const download = downloads.byUpload.get(track.uploadId)
    const state = download?.state ?? 'none'
    const act = (action: 'pause' | 'resume' | 'cancel' | 'retry' | 'redownload' | 'open' | 'reveal') => () => downloads.run(action, [download!.id])
    if (!download || state === 'cancelled') {
      const downloadable = track.hotlinkPath !== null && track.bytes !== null
      return [
        {
          key: 'download',
          label: 'Download',
          disabled: downloadable ? null : 'The catalogue gives no file for this track',
          run: () => downloads.act(`Could not download "${title}"`, () => downloads.enqueue({ uploadIds: [track.uploadId] })),
        },
      ]
    }
    if (state === 'queued' || state === 'downloading') return [{ key: 'pause', label: 'Pause', run: act('pause') }, { key: 'cancel', label: 'Cancel', danger: true, run: act('cancel') }]
    if (state === 'paused') return [{ key: 'resume', label: 'Resume', run: act('resume') }, { key: 'cancel', label: 'Cancel', danger: true, run: act('cancel') }]
    if (state === 'failed') return [{ key: 'retry', label: 'Retry', run: act('retry') }]
    if (download.fileMissing) return [{ key: 'redownload', label: 'Download again', run: act('redownload') }]
    const playing = player.current?.downloadId === download.id && player.playing
    const files = unavailableHere('open', downloads.desktop)
    return [
      {
        key: playing ? 'pause-playback' : 'play',
        label: playing ? 'Pause' : 'Play',
        run: () => (playing ? player.pause() : player.current?.downloadId === download.id ? player.toggle() : player.play(download, artist())),
      },
      { key: 'open', label: 'Open', disabled: files, separator: true, run: act('open') },
      { key: 'reveal', label: 'Show in folder', disabled: files, run: act('reveal') },
    ]
  }

  function rowOf(target: EventTarget | null): HTMLElement | null {
    return target instanceof Element ? target.closest<HTMLElement>(ROW) : null
  }

  function onContextMenu(event: MouseEvent): void {
    const row = rowOf(event.target)
    const track = row ? trackOf(row) : undefined
    if (row && track) menu.onContextMenu(event, () => itemsFor(track), row, row)
  }

  function onKeydown(event: KeyboardEvent): void {
    const row = rowOf(event.target)
    const track = row ? trackOf(row) : undefined
    if (row && track) menu.onKeydown(event, () => itemsFor(track), row)
  }

  return { menu, label, onContextMenu, onKeydown }
}
