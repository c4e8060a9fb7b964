/** What queuing uploads would take, told before anything is queued: for "Download all (1.2 GB)". */
import type { DownloadEstimate } from '../shared/types'
import type { FreeSpace } from '../files/disk-space'
import type { PlannedUploads } from './plan'

/**
 * The bytes still to download (uploads already there count nothing), the space free after the
 * reserve, and whether they fit.
 */
export async function estimateOf({ root, plans, bytes }: PlannedUploads, reserveBytes: number, freeSpace: FreeSpace): Promise<DownloadEstimate> {
  const freeBytes = Math.max(0, (await freeSpace(root)) - reserveBytes)
  return { files: plans.filter((plan) => plan.kind !== 'existing').length, bytes, freeBytes, fits: bytes <= freeBytes }
}
