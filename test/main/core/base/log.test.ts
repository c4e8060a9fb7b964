/**
 * The app's log: JSON lines, rotation at a size cap keeping `keep` older files,
 * nothing secret ever written, readable by the user alone, and never a failure
 * of the app when it cannot be written.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, onTestFinished } from 'vitest'
import { createLog } from '../../../../src-main/core/base/log'
import { test } from '../../support/fixtures'
import { mountReadOnly, readOnlyMountRefusal, readOnlyMountSkipNote } from '../../support/mounts'

const readLines = (file: string): Record<string, unknown>[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)

/** Every byte of every file in folder, as text. */
const everything = (folder: string): string =>
  fs
    .readdirSync(folder)
    .map((name) => fs.readFileSync(path.join(folder, name), 'utf8'))
    .join('\n')

describe('the log', () => {
  test('writes one JSON line per entry with its time and level', ({ tempDir }) => {
    const file = path.join(tempDir(), 'tuneshelf.log')
    const times = [new Date('2026-03-01T10:00:00.000Z'), new Date('2026-03-01T10:00:01.000Z'), new Date('2026-03-01T10:00:02.000Z')]
    const log = createLog(file, { now: () => times.shift()! })
    expect(log.file).toBe(file)
    log.info('sync started', { service: 'http://127.0.0.1:5', artists: 3 })
    log.warn('slow', { ok: false, nothing: null, skipped: undefined })
    log.error('download failed', { code: 'network', detail: { attempts: [1, 2] } })
    expect(readLines(file)).toEqual([
      { time: '2026-03-01T10:00:00.000Z', level: 'info', message: 'sync started', service: 'http://127.0.0.1:5', artists: 3 },
      { time: '2026-03-01T10:00:01.000Z', level: 'warn', message: 'slow', ok: false, nothing: null },
      { time: '2026-03-01T10:00:02.000Z', level: 'error', message: 'download failed', code: 'network', detail: { attempts: [1, 2] } },
    ])
  })

  test('is readable by the user alone', ({ tempDir }) => {
    const file = path.join(tempDir(), 'tuneshelf.log')
    const log = createLog(file, { maxBytes: 200, keep: 1 })
    log.info('first')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    // A file made by a rotation too.
    for (let i = 0; i < 5; i++) log.info(`entry ${i}`)
    expect(fs.existsSync(`${file}.1`)).toBe(true)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(`${file}.1`).mode & 0o777).toBe(0o600)
  })

  test('rotates before a line would take the file over the cap, keeping `keep` older files', ({ tempDir }) => {
    const folder = tempDir()
    const file = path.join(folder, 'tuneshelf.log')
    const maxBytes = 400
    const log = createLog(file, { maxBytes, keep: 2, now: () => new Date(0) })
    const written: string[] = []
    for (let i = 0; i < 40; i++) {
      const message = `entry ${String(i).padStart(3, '0')} ${'x'.repeat(40)}`
      written.push(message)
      log.info(message)
      for (const name of fs.readdirSync(folder)) expect(fs.statSync(path.join(folder, name)).size, name).toBeLessThanOrEqual(maxBytes)
    }
    expect(fs.readdirSync(folder).sort()).toEqual(['tuneshelf.log', 'tuneshelf.log.1', 'tuneshelf.log.2'])
    // Newest last in each file; .1 is newer than .2; together they end with the last entries, none lost between them.
    const kept = [...readLines(`${file}.2`), ...readLines(`${file}.1`), ...readLines(file)].map((line) => line.message)
    expect(kept).toEqual(written.slice(written.length - kept.length))
    // Each file but the newest was filled as far as the cap allows (another line would not have fitted).
    const lineBytes = Buffer.byteLength(`${JSON.stringify({ time: new Date(0).toISOString(), level: 'info', message: written[0] })}\n`)
    expect(kept.length).toBeGreaterThan(2 * Math.floor(maxBytes / lineBytes))
    for (const older of [`${file}.1`, `${file}.2`]) expect(fs.statSync(older).size).toBeGreaterThan(maxBytes - lineBytes)
  })

  test('counts the cap in bytes, not characters', ({ tempDir }) => {
    const folder = tempDir()
    const file = path.join(folder, 'tuneshelf.log')
    const maxBytes = 300
    const log = createLog(file, { maxBytes, keep: 3 })
    for (let i = 0; i < 12; i++) {
      log.info(`Björk — Sigur Rós — 坂本龍一 ${i}`)
      for (const name of fs.readdirSync(folder)) expect(fs.statSync(path.join(folder, name)).size, name).toBeLessThanOrEqual(maxBytes)
    }
  })

  test('picks up an existing file where it is, and rotates it when it is already full', ({ tempDir }) => {
    const file = path.join(tempDir(), 'tuneshelf.log')
    fs.writeFileSync(file, `${JSON.stringify({ message: 'last run' })}\n`.padStart(180, ' '))
    const log = createLog(file, { maxBytes: 200, keep: 1 })
    log.info('this run')
    expect(readLines(`${file}.1`).map((line) => line.message)).toEqual(['last run'])
    expect(readLines(file).map((line) => line.message)).toEqual(['this run'])
  })

  test('never writes a password of an address, nor a field named like a secret', ({ tempDir }) => {
    const folder = tempDir()
    const file = path.join(folder, 'tuneshelf.log')
    const log = createLog(file, { maxBytes: 1000, keep: 5 })
    const secrets = ['Pw-in-message-1', 'Pw-in-field-2', 'Pw-nested-3', 'Tok-4', 'Pass-5', 'Auth-6', 'Cookie-7', 'Sec-8', 'Nested-Tok-9', 'Array-Pw-10']
    log.info(`syncing http://ann:${secrets[0]}@127.0.0.1:5/catalogue`)
    log.error('sync failed', {
      service: `https://bob:${secrets[1]}@example.com/api`,
      detail: { url: `http://carl:${secrets[2]}@example.com`, token: secrets[8], list: [{ password: secrets[9] }] },
      token: secrets[3],
      password: secrets[4],
      Authorization: `Bearer ${secrets[5]}`,
      cookie: secrets[6],
      clientSecret: secrets[7],
      code: 'network',
    })
    const [started, failure] = readLines(file)
    expect(started!.message).toBe('syncing http://ann:***@127.0.0.1:5/catalogue')
    expect(failure).toMatchObject({ service: 'https://bob:***@example.com/api', code: 'network', detail: { url: 'http://carl:***@example.com', list: [{}] } })
    for (const key of ['token', 'password', 'Authorization', 'cookie', 'clientSecret']) expect(failure).not.toHaveProperty(key)
    // Rotations too: what moved to older files was just as clean.
    for (let i = 0; i < 20; i++) log.warn(`retry ${i} of http://dan:${secrets[0]}@example.com/`, { apiToken: secrets[3] })
    expect(fs.existsSync(`${file}.1`)).toBe(true)
    const text = everything(folder)
    for (const secret of secrets) expect(text, secret).not.toContain(secret)
    expect(text).toContain('retry 19 of http://dan:***@example.com/')
  })

  test('keeps what is not secret of a nested field', ({ tempDir }) => {
    const file = path.join(tempDir(), 'tuneshelf.log')
    const log = createLog(file)
    log.error('download failed', { request: { url: 'http://eve:pw@example.com/x', headers: { authorization: 'Bearer abc', accept: '*/*' } } })
    const [line] = readLines(file)
    expect(line).toMatchObject({ request: { url: 'http://eve:***@example.com/x', headers: { accept: '*/*' } } })
    expect(JSON.stringify(line)).not.toContain('abc')
  })

  test('never throws when it cannot write: a missing folder, a path through a file, a name the system refuses', ({ tempDir }) => {
    const folder = tempDir()
    const aFile = path.join(folder, 'plain')
    fs.writeFileSync(aFile, '')
    const loop = path.join(folder, 'loop.log')
    fs.symlinkSync(loop, loop)
    for (const file of [path.join(folder, 'missing', 'deeper', 'tuneshelf.log'), path.join(aFile, 'tuneshelf.log'), loop, path.join(folder, 'x'.repeat(300))]) {
      const log = createLog(file, { maxBytes: 100, keep: 2 })
      for (let i = 0; i < 5; i++) log.error('still going', { i })
    }
    expect(fs.readdirSync(folder).sort()).toEqual(['loop.log', 'plain'])
  })

  test.skipIf(mountRefused !== undefined)(`never throws in a read-only folder, and writes nothing there${skipNote}`, ({ tempDir }) => {
    const source = tempDir()
    fs.writeFileSync(path.join(source, 'tuneshelf.log'), `${JSON.stringify({ message: 'before' })}\n`)
    const readOnly = tempDir()
    onTestFinished(mountReadOnly(source, readOnly))
    const file = path.join(readOnly, 'tuneshelf.log')
    expect(() => fs.appendFileSync(file, 'x')).toThrow(/EROFS/)
    const log = createLog(file, { maxBytes: 60, keep: 2 })
    for (let i = 0; i < 5; i++) log.info('cannot be written', { i })
    expect(fs.readdirSync(source)).toEqual(['tuneshelf.log'])
    expect(readLines(file)).toEqual([{ message: 'before' }])
  })
})

const mountRefused = readOnlyMountRefusal()
const skipNote = readOnlyMountSkipNote()
