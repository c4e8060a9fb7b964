/**
 * The core's host as Electron's utility process (src-main/electron/utility-host.ts) with the stand-in
 * of test/main/support/fake-electron.ts, which behaves as Electron's does where the app depends on it:
 * the host speaks through process.parentPort, its pid is known from 'spawn' on, kill() is SIGTERM,
 * the output streams lose their listeners at 'exit', and a fatal V8 error is an 'error' event.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { HostMessage, LaunchOptions } from '../../../src-main/core/host/messages'
import type { SessionEvent } from '../../../src-main/core/shared/types'
import { HOST_SCRIPT } from '../../../src-main/main-process/host-launch'

vi.mock('electron', async () => (await import('../support/fake-electron')).electron)
const { electron } = await import('../support/fake-electron')
const { utilityHost } = await import('../../../src-main/electron/utility-host')
const { CoreClient } = await import('../../../src-main/main-process/core-client')

type FakeUtilityProcess = { pid: number | undefined; fatalError(location?: string): void }

const tempDirs: string[] = []
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-utility-host-'))
  tempDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** The host on a small demo catalogue, in a data folder of its own. */
const launchOptions = (): LaunchOptions => ({ dataDir: tempDir(), demoPort: 0, demo: { artists: 5, seed: 3, maxFileMb: 1 } })

/** The utility processes forked so far, as the stand-in made them. */
const forked = (): FakeUtilityProcess[] => electron.utilityProcess.fork.mock.results.map((result) => result.value as FakeUtilityProcess)

beforeEach(() => {
  electron.reset()
  vi.clearAllMocks()
})

describe('the stand-in utility process', () => {
  it("gives the script Electron's process.parentPort ({ data } events, postMessage) and no process.send", async () => {
    const script = path.join(tempDir(), 'echo.mjs')
    fs.writeFileSync(
      script,
      "process.parentPort.once('message', ({ data }) => { process.parentPort.postMessage({ echo: data, send: typeof process.send }); setTimeout(() => process.exit(0), 20) })\n",
    )
    const child = electron.utilityProcess.fork(script, [], { stdio: 'pipe' }) as unknown as NodeJS.EventEmitter & { postMessage(message: unknown): void }
    const reply = new Promise((resolve) => child.once('message', resolve))
    child.postMessage({ hello: 1 })
    expect(await reply).toEqual({ echo: { hello: 1 }, send: 'undefined' })
  })
})

describe('the core host in a utility process', () => {
  it('speaks over parentPort, gives its pid once spawned, and a kill (SIGTERM) ends it', async () => {
    const host = utilityHost(HOST_SCRIPT, launchOptions(), () => undefined)()
    const ready = await new Promise<HostMessage>((resolve) => host.port.onDidReceiveMessage((message) => message.type === 'ready' && resolve(message)))
    expect(ready.type).toBe('ready')
    expect(host.pid).toEqual(expect.any(Number))
    expect(host.pid).toBe(forked()[0]!.pid)
    host.kill()
    expect(await host.exited).toBe('exit code 0')
  })

  it('says why it could not start with what the host wrote last, even when the exit overtakes its output', async () => {
    const script = path.join(tempDir(), 'no-start.mjs')
    fs.writeFileSync(script, "process.stderr.write('tuneshelf core: the cache is newer than this app\\n')\nprocess.exit(3)\n")
    const lines: string[] = []
    await expect(CoreClient.start({ launch: utilityHost(script, launchOptions(), (line) => lines.push(line)) })).rejects.toThrow(
      "Tuneshelf's core could not start (exit code 3): tuneshelf core: the cache is newer than this app",
    )
    expect(lines).toEqual(['tuneshelf core: the cache is newer than this app'])
  })

  it('takes a fatal V8 error in the host as the host failing: logged, and the host started again', async () => {
    const lines: string[] = []
    const core = await CoreClient.start({ launch: utilityHost(HOST_SCRIPT, launchOptions(), (line) => lines.push(line)) })
    const notices: string[] = []
    core.onDidEmit((event: SessionEvent) => event.type === 'notice' && notices.push(event.message))
    const first = core.pid
    expect(() => forked()[0]!.fatalError('v8::internal::Heap::FatalProcessOutOfMemory')).not.toThrow()
    await vi.waitFor(() => expect(notices).toEqual([expect.stringMatching(/FatalError at v8::internal::Heap::FatalProcessOutOfMemory.*it was restarted/)]), { timeout: 20_000 })
    expect(lines).toContainEqual(expect.stringMatching(/FatalError at v8::internal::Heap::FatalProcessOutOfMemory/))
    expect(electron.utilityProcess.fork).toHaveBeenCalledTimes(2)
    expect(core.pid).toEqual(expect.any(Number))
    expect(core.pid).not.toBe(first)
    await core.close()
  }, 60_000)
})
