/**
 * The downloads screen's selection, which may be all of a queue of 10,000 without naming
 * any of them: whole groups (Ctrl+A, a group's "select all") but the rows unchecked in
 * them, and rows checked one by one outside them. Selecting all is a few words, counting
 * it is the groups' figures, and an action sends it as it is (the core resolves it). A
 * selected group follows its group: a row that leaves it leaves the selection, one that
 * comes into it is selected. The rows named one by one are kept current by the downloads
 * store (by their uploads), and leave the selection when they leave the list.
 */
import { computed, onScopeDispose, shallowRef, watch } from 'vue'
import { DOWNLOAD_GROUPS, groupOfDownload, type DownloadGroup } from '@shared/download-groups'
import type { DownloadView } from '@shared/types'
import { allows, type DownloadAction } from '../format/download-actions'
import type { ActionCounts } from '../format/download-menu'
import { groupAllows, useDownloadsStore, type DownloadPick } from '../stores/downloads'

const OWNER = 'downloads-selection'

export function useDownloadSelection() {
  const downloads = useDownloadsStore()
  const groups = shallowRef<ReadonlySet<DownloadGroup>>(new Set())
  /** Rows unchecked in the selected groups. */
  const except = shallowRef<ReadonlyMap<number, DownloadView>>(new Map())
  /** Rows checked outside them. */
  const picked = shallowRef<ReadonlyMap<number, DownloadView>>(new Map())

  /** A named row as it is now: the store's latest; null once it left the list. */
  function now(row: DownloadView): DownloadView | null {
    const held = downloads.rowOf(row.id)
    if (held) return held
    const known = downloads.downloadOfUpload(row.uploadId)
    if (known === undefined) return row
    return known !== null && known.id === row.id ? known : null
  }
  const exceptNow = computed(() => [...except.value.values()].map(now))
  const pickedNow = computed(() => [...picked.value.values()].map(now))

  // The rows named one by one are followed by their uploads; those that left the list leave the selection.
  watch([except, picked], () => downloads.track(OWNER, [...except.value.values(), ...picked.value.values()].map((row) => row.uploadId)), { immediate: true })
  onScopeDispose(() => downloads.untrack(OWNER))
  watch([exceptNow, pickedNow], ([exceptRows, pickedRows]) => {
    if (exceptRows.includes(null)) except.value = new Map([...except.value].filter((_, at) => exceptRows[at] !== null))
    if (pickedRows.includes(null)) picked.value = new Map([...picked.value].filter((_, at) => pickedRows[at] !== null))
  })

  /** The rows excepted in a selected group, and those picked outside the selected groups, as they are now. */
  const exceptIn = computed(() => exceptNow.value.filter((row): row is DownloadView => row !== null && groups.value.has(groupOfDownload(row))))
  const pickedOut = computed(() => pickedNow.value.filter((row): row is DownloadView => row !== null && !groups.value.has(groupOfDownload(row))))

  function has(row: DownloadView): boolean {
    return groups.value.has(groupOfDownload(row)) ? !except.value.has(row.id) : picked.value.has(row.id)
  }

  function toggle(row: DownloadView, value: boolean): void {
    if (groups.value.has(groupOfDownload(row))) {
      const next = new Map(except.value)
      if (value) next.delete(row.id)
      else next.set(row.id, row)
      except.value = next
    } else {
      const next = new Map(picked.value)
      if (value) next.set(row.id, row)
      else next.delete(row.id)
      picked.value = next
    }
  }

  /** Selects (or unselects) a whole group: the rows of it named one by one are no longer named. */
  function setGroup(group: DownloadGroup, value: boolean): void {
    const next = new Set(groups.value)
    if (value) next.add(group)
    else next.delete(group)
    groups.value = next
    const outside = (current: DownloadView | null | undefined, row: DownloadView): boolean => groupOfDownload(current ?? row) !== group
    except.value = new Map([...except.value].filter(([, row], at) => outside(exceptNow.value[at], row)))
    picked.value = new Map([...picked.value].filter(([, row], at) => outside(pickedNow.value[at], row)))
  }

  /** Every download, whatever group it is in now or goes to. */
  function selectAll(): void {
    groups.value = new Set(DOWNLOAD_GROUPS)
    except.value = new Map()
    picked.value = new Map()
  }

  function clear(): void {
    groups.value = new Set()
    except.value = new Map()
    picked.value = new Map()
  }

  /** How many are selected in a group (for its "select all" box). */
  function countIn(group: DownloadGroup): number {
    if (groups.value.has(group)) return downloads.countOf(group) - exceptIn.value.filter((row) => groupOfDownload(row) === group).length
    return pickedOut.value.filter((row) => groupOfDownload(row) === group).length
  }

  const selectedGroups = computed(() => DOWNLOAD_GROUPS.filter((group) => groups.value.has(group)))
  const count = computed(() => selectedGroups.value.reduce((sum, group) => sum + downloads.countOf(group), 0) - exceptIn.value.length + pickedOut.value.length)
  const bytes = computed(() => {
    const summary = downloads.summary
    const ofGroups = selectedGroups.value.reduce((sum, group) => sum + (summary?.groups[group].bytes ?? 0), 0)
    return ofGroups - exceptIn.value.reduce((sum, row) => sum + row.bytesTotal, 0) + pickedOut.value.reduce((sum, row) => sum + row.bytesTotal, 0)
  })

  /**
   * The selection as an action on it takes it: whole groups but the rows excepted, and the rows named.
   * A selected group whose rows the action needs one by one (Open, Download again), small enough to be
   * held whole, is named row by row; a larger one is left out of such an action.
   */
  function pickFor(action: DownloadAction): DownloadPick {
    const named = [...pickedOut.value]
    const whole: DownloadGroup[] = []
    for (const group of selectedGroups.value) {
      if (groupAllows(group, action)) {
        whole.push(group)
        continue
      }
      const rows = downloads.heldGroup(group)
      if (rows) named.push(...rows.filter((row) => !except.value.has(row.id)))
    }
    return { groups: whole, except: exceptIn.value, rows: named }
  }

  /** The whole selection (for moves: the store keeps what is queued). */
  const pick = computed<DownloadPick>(() => ({ groups: selectedGroups.value, except: exceptIn.value, rows: pickedOut.value }))

  /** How many of the selection each action applies to, and how many are queued. */
  const counts = computed<ActionCounts>(() => {
    void downloads.version
    return {
      total: count.value,
      of: (action) => {
        const chosen = pickFor(action)
        const whole = chosen.groups.reduce((sum, group) => sum + downloads.countOf(group), 0) - chosen.except.filter((row) => chosen.groups.includes(groupOfDownload(row))).length
        return whole + chosen.rows.filter((row) => allows(row, action)).length
      },
      movable: countIn('queued'),
    }
  })

  return { groups, has, toggle, setGroup, selectAll, clear, countIn, count, bytes, counts, pick, pickFor }
}
