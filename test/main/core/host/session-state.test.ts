/**
 * The session's state has one owner: the writer's session is its source, each change an event that
 * carries it, and the host holds the state made of the snapshot taken once and those events. Here
 * the host's state is held against the session's own after each kind of change (downloads and their
 * progress, a pause, settings, a sync, a switch of service and back), a window that subscribes
 * midway ends with the same state from its snapshot and the events after it, and the writer sends
 * no whole state after it opened: only events, answers, and the reader's few extra facts.
 */
import { describe, expect, onTestFinished, vi } from 'vitest'
import { CoreClient } from '../../../../src-main/main-process/core-client'
import { subscribeWindow } from '../../../../src-main/main-process/event-stream'
import { runHost } from '../../../../src-main/core/host/host'
import type { HostMessage, HostRequest, LaunchHost, WriterMessage, WriterRequest } from '../../../../src-main/core/host/messages'
import { portPair, type Port } from '../../../../src-main/core/host/port'
import { runWriter } from '../../../../src-main/core/host/writer'
import type { AppSession } from '../../../../src-main/core/session/session'
import { applySessionEvent } from '../../../../src-main/core/shared/session-state'
import type { SessionEvent, SessionSnapshot } from '../../../../src-main/core/shared/types'
import { QUICK_DOWNLOADS, syncedDataDir } from '../../support/core'
import { catalogueTest, QUICK_RETRIES } from '../../support/fixtures'

const test = catalogueTest({ artists: 30, seed: 43, maxFileMb: 1 })

/** The host and writer in this thread, with every message the writer sends kept by type. */
function recordingHost(dataDir: string, baseUrl: string): { launch: LaunchHost; sent: WriterMessage['type'][]; session: () => AppSession } {
  const sent: WriterMessage['type'][] = []
  let session!: AppSession
  const launch: LaunchHost = () => {
    const [mainEnd, hostEnd] = portPair<HostMessage, HostRequest>()
    const [hostWriterEnd, writerEnd] = portPair<WriterMessage, WriterRequest>()
    const recorded: Port<WriterRequest, WriterMessage> = {
      post: (message) => {
        sent.push(message.type)
        writerEnd.post(message)
      },
      onDidReceiveMessage: writerEnd.onDidReceiveMessage,
    }
    let ended!: (how: string) => void
    const exited = new Promise<string>((resolve) => (ended = resolve))
    void Promise.all([
      runHost(hostEnd, hostWriterEnd),
      runWriter(recorded, {
        dataDir,
        startDemo: async () => ({ baseUrl, close: async () => undefined }),
        session: { library: { client: QUICK_RETRIES, downloads: QUICK_DOWNLOADS } },
        onSession: (opened) => (session = opened),
      }),
    ]).then(() => setTimeout(() => ended('exit code 0'), 10))
    return { port: mainEnd, exited, kill: () => undefined, pid: undefined, lastWords: () => '' }
  }
  return { launch, sent, session: () => session }
}

/** The state the host holds, once what the session said has reached it. */
async function heldState(core: CoreClient, session: AppSession): Promise<void> {
  await vi.waitFor(async () => expect((await core.snapshot()).snapshot).toEqual(session.snapshot()), { timeout: 10_000 })
}

describe("the session's state", () => {
  test('the host holds the session\'s own state through every kind of change, from events alone', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const host = recordingHost(dataDir, demo.baseUrl)
    const core = await CoreClient.start({ launch: host.launch })
    onTestFinished(() => core.close())
    const session = host.session()
    await heldState(core, session)

    // A window that subscribes now: its snapshot, then the events after it, make the same state.
    let windowState: SessionSnapshot | undefined
    const pending: SessionEvent[] = []
    const subscription = await subscribeWindow(core, (events) => pending.push(...events), 20)
    onTestFinished(() => subscription.dispose())
    windowState = subscription.snapshot

    // Downloads, their progress and completion; a pause; settings; the queue's concurrency.
    const tracks = (await core.call('catalogue:list', [{ perPage: 50 }])).artists.filter((artist) => artist.numTracks > 0).slice(0, 4)
    const uploadIds = (await Promise.all(tracks.map((artist) => core.call('catalogue:artist', [artist.username])))).flatMap((artist) => artist.tracks.map((track) => track.uploadId)).slice(0, 8)
    const { downloads } = await core.call('downloads:enqueue', [{ uploadIds }])
    await core.call('downloads:pause', [[downloads.at(-1)!.id]])
    await core.call('settings:set', [{ theme: 'dark', downloadConcurrency: 2 }])
    await heldState(core, session)
    await vi.waitFor(async () => expect((await core.call('downloads:list', ['completed'])).length).toBe(downloads.length - 1), { timeout: 20_000 })
    await heldState(core, session)
    expect((await core.call('downloads:state', [])).concurrency).toBe(2)

    // A sync, and a switch of service and back: each service's own sync and queue states.
    await core.call('sync:start', [{ skipAvatars: true }])
    await heldState(core, session)
    await core.call('settings:set', [{ baseUrl: null }])
    await heldState(core, session)
    await core.call('settings:set', [{ baseUrl: demo.baseUrl }])
    await heldState(core, session)

    // The window, applying what it was sent to its snapshot, holds the same.
    await vi.waitFor(() => {
      for (const event of pending.splice(0)) windowState = applySessionEvent(windowState!, event)
      expect(windowState).toEqual(session.snapshot())
    })

    // After it opened, the writer sent the host events, answers and the reader's facts: never the whole state again.
    expect(host.sent.filter((type) => type === 'ready')).toHaveLength(1)
    expect(new Set(host.sent)).toEqual(new Set(['opened', 'interrupted', 'ready', 'event', 'reply', 'switching']))
  }, 60_000)
})
