/**
 * Attack 19: a CLI `download` killed with SIGKILL and run again at once was refused under load
 * ("another Tuneshelf process (pid N) is running this catalogue's downloads"): the killed process
 * had not been reaped yet, and a zombie still answers kill(pid, 0). A zombie holds nothing and never
 * runs again: its lock is free. The zombie here is a real one: a child killed under a parent that
 * never waits for it (`sh -c 'sleep & exec sleep'`: after the exec, sleep is the parent, and sleep
 * reaps nobody).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import { describe, expect, onTestFinished } from 'vitest'
import { openCache } from '../../../src-main/core/db/connection'
import { LockLease, processExists } from '../../../src-main/core/db/locks'
import { test } from '../support/fixtures'

/** A process that is a zombie until the test ends (then its parent is killed and init reaps it). */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] })
  onTestFinished(() => void parent.kill('SIGKILL'))
  const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
  // Killed while the shell is still the parent, the child would be reaped by the shell: wait for its exec.
  for (let tries = 0; tries < 500 && fs.readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() !== 'sleep'; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  process.kill(pid, 'SIGKILL')
  // Until the kill lands, /proc says S; it never says anything but Z after (its parent does not wait).
  for (let tries = 0; tries < 200 && !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return pid
}

describe.runIf(process.platform === 'linux')('attack 19: a lock held by a killed process not yet reaped', () => {
  test('a zombie is not a live process, though kill(pid, 0) answers for it', async () => {
    const pid = await zombie()
    expect(() => process.kill(pid, 0)).not.toThrow()
    expect(processExists(pid)).toBe(false)
    expect(processExists(process.pid)).toBe(true)
  })

  test('its lock is taken at once by the next run', async ({ tempDir }) => {
    const pid = await zombie()
    const cache = openCache(tempDir(), 'http://127.0.0.1:5')
    onTestFinished(() => cache.close())
    const now = Date.now()
    cache.db
      .prepare('INSERT INTO locks (name, token, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run('downloads', 'killed-cli', pid, os.hostname(), now, now)
    const lease = new LockLease(cache.db, { name: 'downloads', heartbeatMs: 2_000, staleAfterMs: 15_000, onLost: () => {} })
    onTestFinished(() => lease.release())
    expect(lease.acquire()).toBeUndefined()
  })
})
