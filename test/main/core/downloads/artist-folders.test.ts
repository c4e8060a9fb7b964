/**
 * Artists with the same display name (five demo artists are "Ａｅｓｔｈｅｔｉｃ") get folders of their
 * own, "<display name> (<username>)", so their files never mix; an artist whose name no other artist
 * has keeps the plain folder; and a download already made keeps the target it was given, in the
 * shared folder of an older version, queued again or not.
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { registerSqlFunctions } from '../../../../src-main/core/db/functions'
import { describe, expect } from 'vitest'
import { artistFolderName } from '../../../../src-main/core/downloads/file-names'
import type { Library } from '../../../../src-main/core/library/library'
import { queueTest } from './queue-fixtures'

const test = queueTest({ artists: 40, seed: 12, maxFileMb: 1 })

function withCache(library: Library, work: (db: Database.Database) => void): void {
  const db = new Database(library.cacheFile)
  try {
    db.pragma('busy_timeout = 5000')
    // The triggers of a change of artists keep the search text: the cache's own functions.
    registerSqlFunctions(db)
    work(db)
  } finally {
    db.close()
  }
}

const SAME = 'Ａｅｓｔｈｅｔｉｃ'

describe('the folders of artists with the same name', () => {
  test('each gets "<name> (<username>)"; a download already made keeps its folder', async ({ demo, syncedLibrary, tempDir }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const folder = fs.realpathSync(tempDir())
    // Two artists with two small tracks each, and a third whose name no one else has.
    const artists = demo.catalogue.artists
      .filter((artist) => !artist.removed && artist.pfName.trim() !== '')
      .map((artist) => ({ artist, tracks: demo.catalogue.tracksOf(artist).filter((track) => track.bytes < 300_000) }))
      .filter(({ tracks }) => tracks.length >= 2)
    const [one, two, other] = artists as [(typeof artists)[0], (typeof artists)[0], (typeof artists)[0]]
    withCache(library, (db) => db.prepare('UPDATE artists SET pf_name = ? WHERE username IN (?, ?)').run(SAME, one.artist.username, two.artist.username))
    downloads.start()

    // What an older version did: the first artist's track in the shared folder "Ａｅｓｔｈｅｔｉｃ".
    const [old] = (await downloads.enqueue({ uploadIds: [one.tracks[0]!.uploadId], folder })).downloads
    await downloads.whenIdle()
    const shared = path.join(folder, SAME, path.basename(downloads.get(old!.id).targetPath))
    fs.mkdirSync(path.dirname(shared), { recursive: true })
    fs.renameSync(downloads.get(old!.id).targetPath, shared)
    withCache(library, (db) => db.prepare('UPDATE downloads SET target_path = ? WHERE id = ?').run(shared, old!.id))

    const { downloads: queued } = await downloads.enqueue({
      uploadIds: [one.tracks[0]!.uploadId, one.tracks[1]!.uploadId, two.tracks[0]!.uploadId, other.tracks[0]!.uploadId],
      folder,
    })
    await downloads.whenIdle()
    const folderOf = (id: number): string => path.relative(folder, path.dirname(downloads.get(id).targetPath))
    // Complete in its old folder: left there, not downloaded again.
    expect(queued[0]!.id).toBe(old!.id)
    expect(folderOf(old!.id)).toBe(SAME)
    expect(folderOf(queued[1]!.id)).toBe(`${SAME} (${one.artist.username})`)
    expect(folderOf(queued[2]!.id)).toBe(`${SAME} (${two.artist.username})`)
    expect(folderOf(queued[3]!.id)).toBe(artistFolderName(other.artist.pfName, other.artist.username))
    expect(folderOf(queued[3]!.id)).not.toContain(`(${other.artist.username})`)
    for (const download of queued) expect(downloads.get(download.id).state).toBe('completed')

    // Its file deleted, downloaded again: into the target it was given, the old folder.
    fs.rmSync(shared)
    const [again] = (await downloads.enqueue({ uploadIds: [one.tracks[0]!.uploadId], folder })).downloads
    await downloads.whenIdle()
    expect(again!.id).toBe(old!.id)
    expect(downloads.get(old!.id)).toMatchObject({ state: 'completed', targetPath: shared })
    expect(fs.existsSync(shared)).toBe(true)
  })

  test('the lookup is one index search, not a pass over every artist', ({ syncedLibrary }) => {
    const library = syncedLibrary()
    withCache(library, (db) => {
      const plan = JSON.stringify(
        db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT username, pf_name AS name FROM artists WHERE trim(pf_name) = trim(?) COLLATE NOCASE
             UNION SELECT username, pf_name AS name FROM artists WHERE username_key = ? AND trim(pf_name) = ''`,
          )
          .all('x', 'x'),
      )
      expect(plan).toContain('artists_by_name')
      expect(plan).not.toMatch(/SCAN artists/)
    })
  })
})

describe('artistFolderName', () => {
  const artist = (name: string, username: string) => ({ name, username })
  test('the display name alone while no other artist would have the same folder', () => {
    expect(artistFolderName('Hungry Lucy', 'Hungry_Lucy', [artist('Hungry Lucy', 'Hungry_Lucy')])).toBe('Hungry Lucy')
    expect(artistFolderName('  ', 'dj-sad')).toBe('dj-sad')
    expect(artistFolderName('AC/DC', 'acdc')).toBe('AC_DC')
  })

  test('"<name> (<username>)" when another would: the same name, another case, a blank name that is its username', () => {
    expect(artistFolderName(SAME, 'aes1', [artist(SAME, 'aes1'), artist(SAME, 'aes2')])).toBe(`${SAME} (aes1)`)
    expect(artistFolderName('Blue Horizon', 'blue1', [artist('blue horizon ', 'blue2')])).toBe('Blue Horizon (blue1)')
    expect(artistFolderName('', 'Spaced', [artist('spaced', 'someone')])).toBe('Spaced (Spaced)')
    // A long name is cut to leave the username whole, within 255 bytes.
    const long = artistFolderName('ü'.repeat(200), 'the_username', [artist('ü'.repeat(200), 'other')])
    expect(long.endsWith(' (the_username)')).toBe(true)
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255)
  })
})
