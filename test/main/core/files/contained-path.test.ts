/**
 * The nearest existing part of a path (core/files/contained-path.ts), the one walk up the folders used by
 * the estimate of a folder not made yet, the space check of a transfer into an artist's new folder,
 * and resolveInside's check of the deepest existing part of a file about to be written.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect } from 'vitest'
import { nearestExisting } from '../../../../src-main/core/files/contained-path'
import { test } from '../../support/fixtures'

/** Whether something, a link even if dangling, has this name. */
const entryExists = (file: string): boolean => {
  try {
    fs.lstatSync(file)
    return true
  } catch {
    return false
  }
}

describe('the nearest existing part of a path', () => {
  test('is the path itself when it exists, folder or file', ({ tempDir }) => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'file.mp3'), 'x')
    expect(nearestExisting(dir)).toBe(dir)
    expect(nearestExisting(path.join(dir, 'file.mp3'))).toBe(path.join(dir, 'file.mp3'))
  })

  test('is the nearest folder above that exists, the root of the file system at worst', ({ tempDir }) => {
    const dir = tempDir()
    expect(nearestExisting(path.join(dir, 'artist', 'album', 'track.mp3'))).toBe(dir)
    expect(nearestExisting(path.join(path.parse(dir).root, 'tuneshelf-no-such-folder', 'a', 'b'))).toBe(path.parse(dir).root)
  })

  test('passes over a link that leads nowhere, unless asked to count it', ({ tempDir }) => {
    const dir = tempDir()
    const link = path.join(dir, 'dangling')
    fs.symlinkSync(path.join(dir, 'gone'), link)
    expect(nearestExisting(path.join(link, 'track.mp3'))).toBe(dir)
    expect(nearestExisting(path.join(link, 'track.mp3'), { exists: entryExists })).toBe(link)
  })

  test('stops at stopAt, even when that does not exist', ({ tempDir }) => {
    const dir = tempDir()
    const missingRoot = path.join(dir, 'not-made')
    expect(nearestExisting(path.join(missingRoot, 'a', 'b'), { stopAt: missingRoot })).toBe(missingRoot)
  })
})
