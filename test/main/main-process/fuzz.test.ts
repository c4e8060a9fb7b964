/**
 * Every channel fuzzed with fast-check: whatever a window sends, main answers
 * with a tagged result, a bad argument is an invalid_argument error, and it
 * changes nothing (no setting written, no download queued, no sync started, no
 * file opened or link followed).
 */
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import * as v from 'valibot'
import { expect } from 'vitest'
import { CHANNELS, CONTRACT } from '../../../src-main/core/shared/contract'
import { ERROR_CODES } from '../../../src-main/core/shared/errors'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
import { startInProcessCore } from '../support/core'
import { QUICK_RETRIES, catalogueTest } from '../support/fixtures'

const test = catalogueTest({ artists: 20, seed: 31, maxFileMb: 2 })

/** A platform that only records what it was asked to do. */
function recordingPlatform(calls: string[]): Platform {
  const record = (what: string) => async () => {
    calls.push(what)
    return undefined as never
  }
  return {
    transport: 'web',
    versions: { electron: '', chrome: '', node: process.versions.node },
    avatarBase: '/media/avatars/',
    logFile: null,
    playbackAddress: (id) => `/media/downloads/${id}`,
    openPath: record('openPath'),
    showInFolder: record('showInFolder'),
    openExternal: async () => {
      calls.push('openExternal')
      return false
    },
    pickFolder: async () => {
      calls.push('pickFolder')
      return null
    },
    openLog: record('openLog'),
  }
}

/** Keys the schemas know, so the fuzz also reaches inside their objects with wrong values. */
const KNOWN_KEYS = ['q', 'kind', 'sort', 'reverse', 'includeBlank', 'page', 'perPage', 'offset', 'limit', 'uploadIds', 'artist', 'folder', 'skipAvatars',
  'concurrency', 'baseUrl', 'downloadFolder', 'syncConcurrency', 'downloadConcurrency', 'theme', 'syncOnStart', 'kind', 'value', 'group', 'groups', 'except', 'ids']

const argumentsOf = fc.oneof(
  fc.anything(),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.tuple(fc.dictionary(fc.constantFrom(...KNOWN_KEYS), fc.anything(), { maxKeys: 4 })),
  fc.tuple(fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer()))),
  fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 2, maxLength: 4 }),
)

test('every channel answers any argument with a tagged result; a bad one is invalid_argument and changes nothing', async ({ demo, tempDir }) => {
  const dataDir = tempDir()
  const { core, session } = await startInProcessCore({ dataDir, baseUrl: demo.baseUrl, session: { library: { client: QUICK_RETRIES } } })
  try {
    // A synced catalogue and one completed download, so that valid-looking ids and names exist.
    await session.library.sync.start({ skipAvatars: true })
    const upload = session.library.catalogue.list({ perPage: 50 }).artists.flatMap((artist) => artist.listedItems)[0]!.upload.id
    await session.library.downloads.enqueue({ uploadIds: [upload] })
    await session.library.downloads.whenIdle()

    const calls: string[] = []
    const dispatch = createDispatch(core, windowHandlers(core, recordingPlatform(calls), dataDir))
    const state = (): string =>
      JSON.stringify({
        settings: fs.existsSync(path.join(dataDir, 'settings.json')) ? fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8') : '(none yet)',
        downloads: session.library.downloads.list(),
        sync: session.library.sync.state.status,
        catalogue: session.library.catalogue.status(),
        calls,
      })
    let tried = 0
    for (const channel of CHANNELS) {
      await fc.assert(
        fc.asyncProperty(argumentsOf, async (args) => {
          // Only bad arguments: a valid call may rightly change things.
          fc.pre(!v.safeParse(CONTRACT[channel].args, args).success)
          const before = state()
          tried++
          const result = await dispatch(channel, args)
          expect(result.ok, `${channel} ${JSON.stringify(args)}`).toBe(false)
          if (result.ok) return
          expect(ERROR_CODES).toContain(result.error.code)
          expect(result.error).toMatchObject({ code: 'invalid_argument', name: 'InvalidArgumentError' })
          expect(typeof result.error.message).toBe('string')
          expect(state(), `${channel} ${JSON.stringify(args)} changed something`).toBe(before)
        }),
        { numRuns: 100 },
      )
    }
    // Nearly every generated case was a bad call that ran (fast-check drops the valid ones).
    expect(tried).toBeGreaterThan(CHANNELS.length * 90)
    // Not a channel at all, or not a string: the same.
    for (const channel of ['nope', 'catalogue:drop', '__proto__', 42, null, 'constructor']) {
      expect(await dispatch(channel, [])).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    }
  } finally {
    await core.close()
  }
}, 120_000)
