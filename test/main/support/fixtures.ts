/**
 * The shared set-up of the core's tests as vitest fixtures: temporary folders
 * (removed after the file), the demo catalogue service on loopback (one per
 * file), a library over a real cache in a temporary folder, and small disks.
 *
 *   const test = catalogueTest({ artists: 40, seed: 12, maxFileMb: 3 }).extend('smallDisk', smallDiskFixture)
 *   test('...', async ({ demo, tempDir, openLibrary, smallDisk }) => { ... })
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base } from 'vitest'
import { createCatalogueClient, type CatalogueClient } from '../../../src-main/core/api/index'
import { startCatalogueService, type CatalogueServiceOptions, type RunningCatalogueService } from '../../../src-main/demo/index'
import { openLibrary, type Library, type LibraryOptions } from '../../../src-main/core/library/library'
import { mountSmallDisk, type SmallDisk } from './mounts'

/** Makes a fresh temporary folder; all of a file's folders are removed after it. */
export type TempDir = () => string

/** Opens a library whose client retries quickly; every library opened is disposed after the test. */
export type OpenLibrary = (options?: Partial<LibraryOptions>) => Library

/** Quick retries, so the fault tests do not wait for real back-offs. */
export const QUICK_RETRIES = { backoffMs: 5, maxDelayMs: 40, retries: 4 } as const

export const test = base.extend('tempDir', { scope: 'file' }, async ({}, { onCleanup }): Promise<TempDir> => {
  const dirs: string[] = []
  onCleanup(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-'))
    dirs.push(dir)
    return dir
  }
})

/** The test API with the demo catalogue of these options running for the file, and a library opener per test. */
export function catalogueTest(options: Partial<CatalogueServiceOptions>) {
  return test
    .extend('demo', { scope: 'file' }, async ({}, { onCleanup }): Promise<RunningCatalogueService> => {
      const service = await startCatalogueService(options)
      onCleanup(() => service.close())
      return service
    })
    .extend('openLibrary', async ({ demo, tempDir }, { onCleanup }): Promise<OpenLibrary> => {
      const opened: Library[] = []
      onCleanup(async () => {
        for (const library of opened) await library.dispose()
      })
      return (extra = {}) => {
        const library = openLibrary({
          dataDir: tempDir(),
          baseUrl: demo.baseUrl,
          client: QUICK_RETRIES,
          downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
          ...extra,
        })
        opened.push(library)
        return library
      }
    })
}

/** A client of the demo with quick retries, for tests of the client itself. */
export function testClient(baseUrl: string): CatalogueClient {
  return createCatalogueClient({ baseUrl, ...QUICK_RETRIES })
}

/**
 * A fixture for `.extend('smallDisk', smallDiskFixture)` on any test API with a
 * tempDir: `smallDisk(sizeKb)` mounts a real tmpfs of that size (undefined where
 * mounting is not allowed), unmounted after the test.
 */
export async function smallDiskFixture(
  { tempDir }: { tempDir: TempDir },
  { onCleanup }: { onCleanup: (cleanup: () => void) => void },
): Promise<(sizeKb: number) => SmallDisk | undefined> {
  const mounted: SmallDisk[] = []
  // The test's libraries on a disk may still be open (their own fixture closes them just after this
  // one): such a mount is detached, and goes once they have closed their files.
  onCleanup(() => {
    for (const disk of mounted) disk.unmount()
  })
  return (sizeKb) => {
    const disk = mountSmallDisk(tempDir(), sizeKb)
    if (disk) mounted.push(disk)
    return disk
  }
}
