/**
 * Attack 20: calls that carried the token and were cut off mid-body (a client that went away, or
 * one that floods the log) each logged a full stack trace: 250 lines for 50 aborted calls. A client
 * that went away is no failure of the bridge: nothing is logged for it, and the bridge keeps
 * answering.
 */
import net from 'node:net'
import { describe, expect, onTestFinished } from 'vitest'
import { startInProcessCore } from '../support/core'
import { startWebBridge } from '../../../src-main/web/server'
import { catalogueTest } from '../support/fixtures'
import { call, writeRenderer } from '../web/support'

const test = catalogueTest({ artists: 5, seed: 20, maxFileMb: 1 })

/** A call with the token whose body is cut off half-way: the socket is destroyed after 10 of 1,000 bytes. */
function abortedCall(port: number, token: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/catalogue:list HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-tuneshelf-token: ${token}\r\n` +
          'content-type: application/json\r\ncontent-length: 1000\r\n\r\n[{"offset"',
      )
      setTimeout(() => socket.destroy(), 20)
    })
    socket.once('close', () => resolve())
    socket.once('error', () => undefined)
  })
}

describe('attack 20: calls cut off mid-body', () => {
  test('log nothing (the client went away), and the bridge goes on answering', async ({ demo, tempDir }) => {
    const { core } = await startInProcessCore({ dataDir: tempDir(), baseUrl: demo.baseUrl })
    onTestFinished(() => core.close())
    const logged: string[] = []
    const bridge = await startWebBridge({ core, dataDir: tempDir(), rendererDir: writeRenderer(tempDir()).root, log: (line) => logged.push(line) })
    onTestFinished(() => bridge.close())

    for (let each = 0; each < 50; each++) await abortedCall(bridge.port, bridge.token)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const lines = logged.flatMap((entry) => entry.split('\n'))
    expect(lines, lines.slice(0, 8).join('\n')).toEqual([])
    expect(await call(bridge.port, bridge.token, 'app:info')).toMatchObject({ ok: true })
  })
})
