/** The core's errors: one class per code, a plain-JSON form that crosses IPC intact, and the mapping of foreign errors. */
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import * as errors from '../../../../src-main/core/shared/errors'
import {
  BusyError,
  CancelledError,
  cancelledBy,
  CorruptCacheError,
  deserializeError,
  DiskFullError,
  ERROR_CODES,
  InternalError,
  IoError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ReadOnlyError,
  serializeError,
  toTuneshelfError,
  TuneshelfError,
  type ErrorCode,
} from '../../../../src-main/core/shared/errors'
import { test } from '../../support/fixtures'

type ErrorClass = new (message: string) => TuneshelfError

/** Every error class the module exports, found in its namespace rather than listed by hand. */
const classes: [string, ErrorClass][] = Object.entries(errors as Record<string, unknown>).filter(
  (entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && entry[1].prototype instanceof TuneshelfError,
)

/** The one class of each code. */
function classOf(code: ErrorCode): ErrorClass {
  const found = classes.filter(([, ErrorClass]) => new ErrorClass('probe').code === code)
  expect(found, `classes of ${code}`).toHaveLength(1)
  return found[0]![1]
}

/** A Node file-system error as fs throws it. */
function errnoError(code: string, syscall: string, target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${target}'`), { code, errno: -1, syscall, path: target })
}

describe('the error classes', () => {
  it('are found in the module', () => {
    // A sanity check of the collection itself, so the tests below cannot pass over an empty list.
    expect(classes.map(([name]) => name)).toEqual(expect.arrayContaining(['NotFoundError', 'CancelledError', 'InternalError']))
    expect(classes.length).toBeGreaterThanOrEqual(ERROR_CODES.length)
  })

  it('each have a distinct code from ERROR_CODES, and every code has exactly one class', () => {
    const codes = classes.map(([, ErrorClass]) => new ErrorClass('x').code)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(ERROR_CODES).toContain(code)
    expect([...codes].sort()).toEqual([...ERROR_CODES].sort())
  })

  it('are named as they are exported, are TuneshelfErrors and Errors, and keep a stack', () => {
    for (const [exported, ErrorClass] of classes) {
      const error = new ErrorClass('something failed')
      expect(error.name).toBe(exported)
      expect(error).toBeInstanceOf(TuneshelfError)
      expect(error).toBeInstanceOf(Error)
      expect(error.message).toBe('something failed')
      expect(error.stack).toContain('something failed')
    }
  })

  it('are retryable by default exactly for the failures that may pass by themselves', () => {
    const retryable = ERROR_CODES.filter((code) => new (classOf(code))('x').retryable)
    expect(retryable.sort()).toEqual(['busy', 'network', 'rate_limited', 'server'])
    expect(new NotFoundError('x', { retryable: true }).retryable).toBe(true)
    expect(new RateLimitedError('x', { retryable: false }).retryable).toBe(false)
  })

  it('keep their cause', () => {
    const cause = new Error('low level')
    expect(new IoError('high level', { cause }).cause).toBe(cause)
  })
})

describe('serialisation', () => {
  it.each(ERROR_CODES)('%s goes through plain JSON and back with the same name, code, message and retryable', (code) => {
    const ErrorClass = classOf(code)
    const error = new ErrorClass(`failed with ${code}: "quoted", ünïcødé, and a\nsecond line`)
    const json: unknown = JSON.parse(JSON.stringify(error))
    // Only these four cross: no URL, no stack, no cause.
    expect(json).toStrictEqual({ name: ErrorClass.name, code, message: error.message, retryable: error.retryable })
    expect(json).toStrictEqual(serializeError(error))
    const back = deserializeError(json as errors.SerializedError)
    expect(back).toBeInstanceOf(TuneshelfError)
    expect(back).toBeInstanceOf(Error)
    expect({ name: back.name, code: back.code, message: back.message, retryable: back.retryable }).toStrictEqual({
      name: error.name,
      code: error.code,
      message: error.message,
      retryable: error.retryable,
    })
    // And again: a second trip changes nothing.
    expect(JSON.parse(JSON.stringify(back))).toStrictEqual(json)
  })

  it('keeps a retryable that differs from the code default', () => {
    const error = new NotFoundError('gone for now', { retryable: true })
    expect(deserializeError(JSON.parse(JSON.stringify(error)) as errors.SerializedError).retryable).toBe(true)
  })

  it('does not carry the URL of a client error, which may hold a password', () => {
    const error = new NotFoundError('GET http://user:***@example.com/x: not found', { url: 'http://user:s3cret@example.com/x' })
    expect(JSON.stringify(error)).not.toContain('s3cret')
  })

  it('turns a code it does not know into internal, keeping name and message', () => {
    const back = deserializeError({ name: 'FutureError', code: 'from_the_future' as ErrorCode, message: 'newer peer', retryable: false })
    expect(back).toMatchObject({ name: 'FutureError', code: 'internal', message: 'newer peer', retryable: false })
  })
})

describe('toTuneshelfError', () => {
  test('maps a real SQLITE_BUSY to busy', ({ tempDir }) => {
    const file = path.join(tempDir(), 'busy.sqlite')
    const holder = new Database(file)
    const other = new Database(file)
    try {
      holder.exec('CREATE TABLE t (x INTEGER)')
      other.pragma('busy_timeout = 0')
      holder.exec('BEGIN IMMEDIATE')
      holder.exec('INSERT INTO t VALUES (1)')
      let thrown: unknown
      try {
        other.exec('INSERT INTO t VALUES (2)')
      } catch (error) {
        thrown = error
      }
      expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' })
      const mapped = toTuneshelfError(thrown, 'writing the catalogue cache')
      expect(mapped).toBeInstanceOf(BusyError)
      expect(mapped).toMatchObject({ name: 'BusyError', code: 'busy', retryable: true, cause: thrown })
      expect(mapped.message).toMatch(/^writing the catalogue cache: the catalogue cache is in use by another process/)
      holder.exec('COMMIT')
    } finally {
      holder.close()
      other.close()
    }
  })

  test('maps a real SQLITE_READONLY to read_only and a real SQLITE_NOTADB to corrupt_cache', ({ tempDir }) => {
    const dir = tempDir()
    const file = path.join(dir, 'cache.sqlite')
    new Database(file).exec('CREATE TABLE t (x INTEGER)').close()
    const readOnly = new Database(file, { readonly: true })
    let thrown: unknown
    try {
      readOnly.exec('INSERT INTO t VALUES (1)')
    } catch (error) {
      thrown = error
    } finally {
      readOnly.close()
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_READONLY' })
    expect(toTuneshelfError(thrown)).toBeInstanceOf(ReadOnlyError)

    const garbage = path.join(dir, 'garbage.sqlite')
    fs.writeFileSync(garbage, Buffer.alloc(4096, 'not a database '))
    const damaged = new Database(garbage)
    thrown = undefined
    try {
      damaged.prepare('SELECT * FROM sqlite_master').all()
    } catch (error) {
      thrown = error
    } finally {
      damaged.close()
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_NOTADB' })
    expect(toTuneshelfError(thrown)).toMatchObject({ name: 'CorruptCacheError', code: 'corrupt_cache' })
    expect(toTuneshelfError(thrown)).toBeInstanceOf(CorruptCacheError)
  })

  it.runIf(process.platform === 'linux')('maps a real ENOSPC (a write to /dev/full) to disk_full', () => {
    let thrown: unknown
    try {
      fs.writeFileSync('/dev/full', 'x')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'ENOSPC' })
    const mapped = toTuneshelfError(thrown, 'writing a track')
    expect(mapped).toBeInstanceOf(DiskFullError)
    expect(mapped).toMatchObject({ code: 'disk_full', retryable: false })
    expect(mapped.message).toMatch(/^writing a track: the disk is full \(ENOSPC/)
  })

  it.each([
    ['ENOSPC', DiskFullError, 'disk_full'],
    ['EDQUOT', DiskFullError, 'disk_full'],
    ['EACCES', ReadOnlyError, 'read_only'],
    ['EROFS', ReadOnlyError, 'read_only'],
    ['EPERM', ReadOnlyError, 'read_only'],
    ['EIO', IoError, 'io'],
  ] as const)('maps errno %s to %s', (errno, ErrorClass, code) => {
    const error = errnoError(errno, 'open', '/data/cache.sqlite')
    const mapped = toTuneshelfError(error, 'opening the cache')
    expect(mapped).toBeInstanceOf(ErrorClass)
    expect(mapped).toMatchObject({ code, cause: error })
    expect(mapped.message).toMatch(/^opening the cache: /)
    expect(mapped.message).toContain(errno)
  })

  test('maps a real socket error (a refused connection) to network', async () => {
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const refused = await new Promise<unknown>((resolve) => net.connect(port, '127.0.0.1').once('error', resolve))
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' })
    const mapped = toTuneshelfError(refused, 'fetching the catalogue')
    expect(mapped).toBeInstanceOf(NetworkError)
    expect(mapped).toMatchObject({ code: 'network', systemCode: 'ECONNREFUSED', retryable: true, cause: refused })
    expect(mapped.message).toMatch(/^fetching the catalogue: network error: connect ECONNREFUSED/)
    for (const errno of ['ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(toTuneshelfError(errnoError(errno, 'connect', 'example.com'))).toMatchObject({ code: 'network', systemCode: errno })
    }
  })

  it('maps an AbortError to cancelled', async () => {
    const abort = AbortSignal.abort().reason as Error
    expect(abort.name).toBe('AbortError')
    expect(toTuneshelfError(abort)).toBeInstanceOf(CancelledError)
    expect(toTuneshelfError(abort)).toMatchObject({ code: 'cancelled', retryable: false, cause: abort })

    // Node's own: an aborted file read rejects with an AbortError whose code is ABORT_ERR.
    const file = path.join(import.meta.dirname, 'errors.test.ts')
    const nodeAbort = await fs.promises.readFile(file, { signal: AbortSignal.abort() }).catch((error: unknown) => error)
    expect(nodeAbort).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' })
    expect(toTuneshelfError(nodeAbort)).toMatchObject({ name: 'CancelledError', code: 'cancelled' })
  })

  it('maps a plain Error, or anything else thrown, to internal', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')")
    const mapped = toTuneshelfError(bug, 'listing artists')
    expect(mapped).toBeInstanceOf(InternalError)
    expect(mapped).toMatchObject({ code: 'internal', retryable: false, cause: bug })
    expect(mapped.message).toBe("listing artists: Cannot read properties of undefined (reading 'x')")
    expect(toTuneshelfError('a string')).toMatchObject({ code: 'internal', message: 'a string' })
    expect(toTuneshelfError(undefined)).toMatchObject({ code: 'internal' })
    expect(toTuneshelfError(null)).toMatchObject({ code: 'internal' })
    expect(toTuneshelfError({ code: 42 })).toMatchObject({ code: 'internal' })
  })

  it('passes TuneshelfErrors through unchanged', () => {
    for (const code of ERROR_CODES) {
      const error = new (classOf(code))('already ours')
      expect(toTuneshelfError(error, 'doing something')).toBe(error)
      expect(error.message).toBe('already ours')
    }
    const base = new TuneshelfError('busy', 'the base class')
    expect(toTuneshelfError(base)).toBe(base)
  })
})

describe('cancelledBy', () => {
  it('gives a CancelledError that keeps the reason of a signal aborted without one of its own', () => {
    const signal = AbortSignal.abort()
    const error = cancelledBy(signal)
    expect(error).toBeInstanceOf(CancelledError)
    expect(error).toMatchObject({ name: 'CancelledError', code: 'cancelled', message: 'cancelled', retryable: false })
    expect(error.cause).toBe(signal.reason)
  })

  it('wraps any other reason', () => {
    const reason = new Error('user pressed Stop')
    const error = cancelledBy(AbortSignal.abort(reason))
    expect(error).toBeInstanceOf(CancelledError)
    expect(error.cause).toBe(reason)
  })

  it('passes a CancelledError reason through as it is', () => {
    const reason = new CancelledError('the app is closing')
    expect(cancelledBy(AbortSignal.abort(reason))).toBe(reason)
  })
})
