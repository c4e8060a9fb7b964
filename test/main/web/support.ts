/** What the web bridge's tests share: raw HTTP requests (any Host, Origin or path), an event-stream reader, a built renderer to serve, and the bridge as a process. */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { SessionEvent, SessionSnapshot } from '../../../src-main/core/shared/types'

export interface Reply {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  text: string
}

export interface RequestOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** The Host header (default 127.0.0.1:port). */
  host?: string
}

/** One request as written, path and headers untouched (no URL normalising, no forbidden headers). */
export function request(port: number, target: string, options: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}`, ...options.headers },
        agent: false,
        timeout: 20_000,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.once('end', () => {
          const body = Buffer.concat(chunks)
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') })
        })
        response.once('error', reject)
      },
    )
    outgoing.once('timeout', () => outgoing.destroy(new Error(`${target}: no answer in 20 s`)))
    outgoing.once('error', reject)
    outgoing.end(options.body)
  })
}

/** A call of one channel with the token in its header; the tagged result and the reply. */
export async function call(port: number, token: string, channel: string, args: unknown[] = []): Promise<{ ok: boolean; value?: unknown; error?: { name: string; code: string; message: string } }> {
  const reply = await request(port, `/api/${channel}`, {
    method: 'POST',
    headers: { 'x-tuneshelf-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  })
  if (reply.status !== 200) throw new Error(`${channel}: HTTP ${reply.status} ${reply.text}`)
  return JSON.parse(reply.text) as { ok: boolean; value?: unknown; error?: { name: string; code: string; message: string } }
}

/** An open event stream: its messages (each a list of events) and comment lines, as they arrive. */
export interface EventStream {
  status: number
  headers: http.IncomingHttpHeaders
  /** The session's state the stream starts with (and starts with again after a reconnect). */
  snapshots: SessionSnapshot[]
  batches: SessionEvent[][]
  comments: string[]
  /** Resolves once test holds for what has arrived; rejects after timeoutMs. */
  until(test: (stream: EventStream) => boolean, timeoutMs?: number): Promise<void>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  close(): void
}

export function openEvents(port: number, target: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const outgoing = http.get({ host: '127.0.0.1', port, path: target, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false })
    outgoing.once('error', reject)
    outgoing.once('response', (response) => {
      let buffer = ''
      const waiters = new Set<() => void>()
      let endStream!: () => void
      const stream: EventStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        snapshots: [],
        batches: [],
        comments: [],
        ended: new Promise((resolveEnd) => (endStream = resolveEnd)),
        until: (test, timeoutMs = 15_000) =>
          new Promise<void>((resolveWait, rejectWait) => {
            if (test(stream)) return resolveWait()
            const check = (): void => {
              if (!test(stream)) return
              clearTimeout(timer)
              waiters.delete(check)
              resolveWait()
            }
            const timer = setTimeout(() => {
              waiters.delete(check)
              rejectWait(new Error(`the event stream did not get there in ${timeoutMs} ms; got ${JSON.stringify(stream.batches).slice(0, 2000)}`))
            }, timeoutMs)
            waiters.add(check)
          }),
        close: () => outgoing.destroy(),
      }
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        buffer += chunk
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim())
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart())
          }
          if (data.length > 0) {
            const message = JSON.parse(data.join('\n')) as SessionEvent[] | { snapshot: SessionSnapshot }
            if (Array.isArray(message)) stream.batches.push(message)
            else stream.snapshots.push(message.snapshot)
          }
        }
        for (const waiter of [...waiters]) waiter()
      })
      response.once('end', () => endStream())
      response.once('close', () => endStream())
      response.once('error', () => endStream())
      resolve(stream)
    })
  })
}

/** The Content-Security-Policy of the fixture page, as the build writes it (entities and all). */
export const FIXTURE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'"

/**
 * A built renderer in dir: index.html with its CSP meta, assets, a nested folder,
 * and beside it a secret file and a link from inside to it, which must never be served.
 */
export function writeRenderer(dir: string): { root: string; secret: string } {
  const root = path.join(dir, 'renderer')
  fs.mkdirSync(path.join(root, 'assets', 'nested'), { recursive: true })
  const policy = FIXTURE_POLICY.replaceAll("'", '&#39;')
  fs.writeFileSync(
    path.join(root, 'index.html'),
    `<!doctype html>\n<html><head><meta charset="UTF-8" />\n<meta http-equiv="Content-Security-Policy" content="${policy}">\n<title>Tuneshelf</title><script type="module" src="./assets/app.js"></script></head><body><div id="app"></div></body></html>\n`,
  )
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log("tuneshelf")\n')
  fs.writeFileSync(path.join(root, 'assets', 'style.css'), 'body { color: red }\n')
  fs.writeFileSync(path.join(root, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n')
  fs.writeFileSync(path.join(root, 'assets', 'nested', 'data.bin'), Buffer.from([0, 1, 2, 3]))
  const secret = path.join(dir, 'secret.txt')
  fs.writeFileSync(secret, 'not for the web\n')
  fs.symlinkSync(secret, path.join(root, 'assets', 'link-out.txt'))
  return { root, secret }
}

// ---- The bridge as a process, as `npm run web` runs it

export const WEB_MAIN = fileURLToPath(new URL('../../../src-main/web/main.ts', import.meta.url))

/** tsx's loader by absolute address, so the entry runs from any working folder. */
const TSX = (() => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  const exports = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, string> }).exports
  return pathToFileURL(path.join(path.dirname(manifest), exports['.']!)).href
})()

export interface WebProcess {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** The exit code or signal, once the process ended. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves with the first stdout line; rejects if the process ends first or after timeoutMs. */
  firstLine(timeoutMs?: number): Promise<string>
}

/** Starts `node --import tsx src-main/web/main.ts ...args`; the test kills it if it is still running at the end. */
export function spawnWeb(args: string[], env: NodeJS.ProcessEnv = {}): WebProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env }
  if (env['INIT_CWD'] === undefined) delete childEnv['INIT_CWD']
  const child = spawn(process.execPath, ['--import', TSX, WEB_MAIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  )
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    firstLine: (timeoutMs = 30_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line on stdout in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs)
        const check = (): void => {
          const end = stdout.indexOf('\n')
          if (end === -1) return
          clearTimeout(timer)
          resolve(stdout.slice(0, end))
        }
        child.stdout!.on('data', check)
        void exit.then(({ code, signal }) => {
          clearTimeout(timer)
          reject(new Error(`the bridge ended (${signal ?? code}) before printing a line; stderr: ${stderr}`))
        })
        check()
      }),
  }
}
