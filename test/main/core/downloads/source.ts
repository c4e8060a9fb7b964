/** What the demo service holds, for comparing downloads with: the SHA-256 of an upload's bytes. */
import { createHash } from 'node:crypto'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { UploadFile } from '../../../../src-main/demo/files'
import type { TrackRecord } from '../../../../src-main/demo/catalogue'

export function sourceSha256(service: RunningCatalogueService, uploadId: string): string {
  const { track } = service.catalogue.findUpload(uploadId)!
  const file = new UploadFile(service.catalogue.options.seed, track)
  const hash = createHash('sha256')
  const chunk = Buffer.alloc(1024 * 1024)
  for (let offset = 0; offset < file.size; offset += chunk.length) {
    const slice = chunk.subarray(0, Math.min(chunk.length, file.size - offset))
    file.fill(slice, offset)
    hash.update(slice)
  }
  return hash.digest('hex')
}

export function hotlink(service: RunningCatalogueService, track: TrackRecord): string {
  return `${service.baseUrl}/hotlink/${track.uploadId}.${track.ext}`
}
