/**
 * Attack 7: a file server that declares Content-Length N, sends N/2 bytes and
 * closes, with no ETag or Last-Modified and no Range support. Every attempt
 * started again from zero, and reaching N/2 again counted as progress, so the
 * download retried forever (192 requests in 90 s). Now only bytes beyond the
 * best offset reached count as progress, and the attempts are bounded overall:
 * the download fails with a clear error after a few requests, and no final
 * file is left.
 */
import fs from 'node:fs'
import path from 'node:path'
import type http from 'node:http'
import { describe, expect, onTestFinished } from 'vitest'
import { openLibrary } from '../../../src-main/core/library/library'
import type { Download } from '../../../src-main/core/shared/types'
import { QUICK_DOWNLOADS } from '../support/core'
import { QUICK_RETRIES, test, type TempDir } from '../support/fixtures'
import { startRelativeCatalogue } from './relative-catalogue'

/** Past this many file requests the server answers 404, so a runaway retry loop cannot run the test forever. */
const SERVER_LIMIT = 60

interface ShortServer {
  /** File requests answered so far. */
  fileRequests: number
}

/**
 * A synced library of a catalogue whose files are answered by `answer` (the n-th
 * file request, 1-based, and the file's size), and the upload to download.
 */
async function libraryWithFiles(
  tempDir: TempDir,
  transferSettings: { retries?: number; maxAttempts?: number },
  answer: (response: http.ServerResponse, n: number, size: number) => void,
) {
  const server: ShortServer = { fileRequests: 0 }
  const service = await startRelativeCatalogue({ artists: 3, seed: 77, maxFileMb: 1 }, (request, response) => {
    const hotlink = /^\/hotlink\/(\d+)\./.exec(request.url ?? '')
    if (!hotlink) return false
    const n = ++server.fileRequests
    if (n > SERVER_LIMIT) {
      response.writeHead(404).end()
      return true
    }
    answer(response, n, service.catalogue.findUpload(hotlink[1]!)!.track.bytes)
    return true
  })
  onTestFinished(() => service.close())
  const library = openLibrary({
    dataDir: tempDir(),
    baseUrl: service.baseUrl,
    client: QUICK_RETRIES,
    downloads: { ...QUICK_DOWNLOADS, transferSettings: { ...QUICK_DOWNLOADS.transferSettings, ...transferSettings } },
  })
  onTestFinished(() => library.dispose())
  await library.sync.start({ skipAvatars: true })
  const track = service.catalogue.artists
    .flatMap((artist) => service.catalogue.tracksOf(artist))
    .find((candidate) => candidate.bytes >= 64 * 1024)!
  return { library, server, uploadId: track.uploadId }
}

/** Headers of a file without a validator and without Range support. */
function headersOf(size: number): http.OutgoingHttpHeaders {
  return { 'content-type': 'audio/mpeg', 'content-length': size }
}

/** Queues uploadId, runs the queue until idle and returns the download and how long it took. */
async function download(library: ReturnType<typeof openLibrary>, uploadId: string, folder: string): Promise<{ download: Download; ms: number }> {
  const started = performance.now()
  const [queued] = (await library.downloads.enqueue({ uploadIds: [uploadId], folder })).downloads
  library.downloads.start()
  await library.downloads.whenIdle()
  return { download: library.downloads.get(queued!.id), ms: performance.now() - started }
}

describe('a file server that cuts every body short, with no validator', () => {
  test('fails the download after a bounded number of requests, with a clear error and no final file', async ({ tempDir }) => {
    const retries = 4
    const { library, server, uploadId } = await libraryWithFiles(tempDir, { retries }, (response, _n, size) => {
      response.writeHead(200, headersOf(size))
      response.write(Buffer.alloc(Math.floor(size / 2), 1), () => response.destroy())
    })
    const folder = tempDir()
    const { download: result, ms } = await download(library, uploadId, folder)
    expect(result.state).toBe('failed')
    // The file's address, and that the server stopped short (a clean close, or one got calls an abort).
    expect(result.error).toMatch(/\/hotlink\/\d+\.\w+\b.*(ended after \d+ of \d+ bytes|server aborted)/)
    // The first request made progress; then `retries` more that only reached the same bytes again.
    expect(server.fileRequests).toBeLessThanOrEqual(retries + 1)
    expect(ms).toBeLessThan(5_000)
    // Nothing posing as the file: at most the partial file, as any failed download leaves it.
    expect(fs.existsSync(result.targetPath)).toBe(false)
    expect(fs.readdirSync(path.dirname(result.targetPath)).every((name) => name.endsWith('.part'))).toBe(true)
  })

  test('gives up after its attempts overall even when each one reaches a little further', async ({ tempDir }) => {
    const maxAttempts = 10
    const { library, server, uploadId } = await libraryWithFiles(tempDir, { retries: 4, maxAttempts }, (response, n, size) => {
      // A few more bytes each time: always a new best offset, never the whole file.
      response.writeHead(200, headersOf(size))
      response.write(Buffer.alloc(Math.min(size - 1, n * 100), 1), () => response.destroy())
    })
    const { download: result, ms } = await download(library, uploadId, tempDir())
    expect(result.state).toBe('failed')
    expect(result.error).toMatch(new RegExp(`${maxAttempts} attempts`))
    expect(server.fileRequests).toBe(maxAttempts)
    expect(ms).toBeLessThan(5_000)
    expect(fs.existsSync(result.targetPath)).toBe(false)
  })
})
