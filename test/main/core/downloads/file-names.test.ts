import fs from 'node:fs'
import path from 'node:path'
import { describe, expect } from 'vitest'
import { Catalogue } from '../../../../src-main/demo/catalogue'
import { HOSTILE_TITLES, UNKIND_NAMES } from '../../../../src-main/demo/words'
import {
  MAX_NAME_BYTES, defaultRelativePath, freePath, partPathOf, resolveInside, safeExtension, safeSegment, truncateUtf8,
} from '../../../../src-main/core/downloads/file-names'
import { UnsafePathError } from '../../../../src-main/core/shared/errors'
import { test } from '../../support/fixtures'

/** Valid as a file or folder name on Windows, macOS and Linux alike. */
function expectPortable(segment: string): void {
  expect(segment.length).toBeGreaterThan(0)
  expect(segment).not.toMatch(/^\.{1,2}$/)
  expect(segment).not.toMatch(/[<>:"/\\|?*\p{Cc}]/u)
  expect(segment).not.toMatch(/[. ]$/)
  expect(segment).not.toMatch(/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i)
  expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(MAX_NAME_BYTES)
  expect(Buffer.byteLength(`${segment}.part`)).toBeLessThanOrEqual(MAX_NAME_BYTES + 5)
}

describe('safe names', () => {
  test.each([...HOSTILE_TITLES])('makes %j a portable name', (title) => {
    const relative = defaultRelativePath('Artist', title, '1000001', 'mp3')
    for (const segment of relative.split(path.sep)) expectPortable(segment)
    expect(relative.split(path.sep)).toHaveLength(2)
    expect(relative).toMatch(/ \[1000001\]\.mp3$/)
    expect(Buffer.byteLength(path.basename(relative) + '.part (99)')).toBeLessThanOrEqual(MAX_NAME_BYTES + 5)
  })

  test.each([...UNKIND_NAMES, '', '..', 'CON', 'a/b', 'NUL.txt'])('makes the artist folder %j portable', (name) => {
    expectPortable(safeSegment(name, MAX_NAME_BYTES, 'unknown artist'))
  })

  test('keeps ordinary names as they are, in NFC', () => {
    expect(safeSegment('Björk — Jóga')).toBe('Björk — Jóga')
    expect(safeSegment('Bjo\u0308rk')).toBe('Björk')
    expect(safeSegment('日本語のタイトル')).toBe('日本語のタイトル')
  })

  test('replaces reserved characters and drops trailing dots and spaces', () => {
    expect(safeSegment('AC/DC Cover')).toBe('AC_DC Cover')
    expect(safeSegment('What? Why: "Because" <Now> | *Star*')).toBe('What_ Why_ _Because_ _Now_ _ _Star_')
    expect(safeSegment('Ends with dots...')).toBe('Ends with dots')
    expect(safeSegment('  spaced  ')).toBe('spaced')
    expect(safeSegment('aux.txt')).toBe('_aux.txt')
    expect(safeSegment('COM1')).toBe('_COM1')
    expect(safeSegment('..')).toBe('untitled')
    expect(safeSegment('\u202eevil\u202c.exe')).toBe('evil.exe')
  })

  test('cuts long names at 255 bytes of UTF-8 without splitting a character', () => {
    const long = '日本'.repeat(200)
    const cut = safeSegment(long)
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(255)
    expect(cut).toBe('日本'.repeat(42) + '日')
    expect(truncateUtf8('a😀b', 4)).toBe('a')
    expect(truncateUtf8('a😀b', 5)).toBe('a😀')
  })

  test('accepts only plain extensions of a type the app plays', () => {
    expect(safeExtension('MP3')).toBe('mp3')
    for (const ext of ['wav', 'ogg', 'm4a', 'flac', 'opus', 'webm', 'mp4']) expect(safeExtension(ext)).toBe(ext)
    expect(safeExtension('../exe')).toBe('bin')
    expect(safeExtension(null)).toBe('bin')
    // What the system would run or a browser would render: test/main/attacks/03-file-types.test.ts.
    for (const ext of ['exe', 'desktop', 'sh', 'js', 'bat', 'html', 'svg', 'lnk', 'MP3.exe', 'constructor', '__proto__', 'toString', '']) {
      expect(safeExtension(ext), ext).toBe('bin')
    }
  })

  test('gives every title of the demo catalogue a portable path inside the folder', ({ tempDir }) => {
    const folder = tempDir()
    const catalogue = new Catalogue({ artists: 400, seed: 1, maxFileMb: 8 })
    for (const artist of catalogue.artists) {
      for (const track of catalogue.tracksOf(artist)) {
        const relative = defaultRelativePath(artist.pfName, track.title, track.uploadId, track.ext)
        const target = resolveInside(folder, relative)
        expect(path.relative(fs.realpathSync(folder), target).startsWith('..')).toBe(false)
        for (const segment of relative.split(path.sep)) expectPortable(segment)
      }
    }
  })
})

describe('staying inside the folder', () => {
  test('refuses paths that climb out or are absolute', ({ tempDir }) => {
    const folder = tempDir()
    expect(() => resolveInside(folder, '../outside.mp3')).toThrow(UnsafePathError)
    expect(() => resolveInside(folder, 'a/../../outside.mp3')).toThrow(UnsafePathError)
    expect(() => resolveInside(folder, '/etc/passwd')).toThrow(UnsafePathError)
    expect(() => resolveInside(folder, '')).toThrow(UnsafePathError)
    expect(resolveInside(folder, 'a/b.mp3')).toBe(path.join(fs.realpathSync(folder), 'a', 'b.mp3'))
  })

  test('refuses a folder on the way that links outside', ({ tempDir }) => {
    const folder = tempDir()
    const elsewhere = tempDir()
    fs.symlinkSync(elsewhere, path.join(folder, 'Artist'))
    expect(() => resolveInside(folder, 'Artist/track.mp3')).toThrow(/outside the download folder/)
    expect(() => resolveInside(folder, 'Artist/track.mp3')).toThrow(UnsafePathError)
  })

  test('finds a free name beside a taken one', () => {
    const taken = new Set(['/d/a [1].mp3', '/d/a [1] (2).mp3'])
    expect(freePath('/d/a [1].mp3', (candidate) => !taken.has(candidate))).toBe('/d/a [1] (3).mp3')
    expect(freePath('/d/b.mp3', () => true)).toBe('/d/b.mp3')
    expect(() => freePath('/d/c.mp3', () => false)).toThrow(UnsafePathError)
  })

  test('keeps the partial file beside its target', () => {
    expect(partPathOf('/d/a [1].mp3')).toBe('/d/a [1].mp3.part')
  })
})
