import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startCatalogueService } from '../../../src-main/demo/index'

const CLI = fileURLToPath(new URL('../../../src-main/demo/cli.ts', import.meta.url))

interface Running {
  baseUrl: Promise<string>
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>
  signal(name: NodeJS.Signals): void
}

function runCli(args: string[]): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let announce: (url: string) => void
  const baseUrl = new Promise<string>((resolve) => (announce = resolve))
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)
    if (match) announce(match[1]!)
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  )
  return { baseUrl, exited, signal: (name) => child.kill(name) }
}

describe('npm run catalogue', () => {
  it('prints exactly one line once it listens, serves, and stops cleanly on SIGTERM', async () => {
    const cli = runCli(['--port', '0', '--artists', '80', '--seed', '4', '--max-file-mb', '8'])
    const baseUrl = await cli.baseUrl
    const response = await fetch(`${baseUrl}/api/v1/artists?per_page=10`)
    expect(response.status).toBe(200)
    cli.signal('SIGTERM')
    const { code, stdout } = await cli.exited
    expect(code).toBe(0)
    expect(stdout).toBe(`listening on ${baseUrl}\n`)
  })

  it('delays every answer by --latency-ms and says on stop how many requests it answered, by kind', async () => {
    const cli = runCli(['--port', '0', '--artists', '30', '--latency-ms', '150'])
    const baseUrl = await cli.baseUrl
    for (const path of ['/api/v1/artists?per_page=10', '/api/v1/artists?page=2', '/api/v1/access_levels', '/nothing']) {
      const started = performance.now()
      await (await fetch(baseUrl + path)).arrayBuffer()
      expect(performance.now() - started).toBeGreaterThanOrEqual(145)
    }
    cli.signal('SIGTERM')
    const { code, stderr } = await cli.exited
    expect(code).toBe(0)
    expect(stderr).toMatch(/^pid \d+: kill -USR2 \d+ publishes new uploads\nanswered 4 requests: 2 list, 0 artist, 1 levels, 0 avatar, 0 file, 1 other\n$/)
  })

  it('stops cleanly on SIGINT', async () => {
    const cli = runCli(['--port', '0', '--artists', '20'])
    await cli.baseUrl
    cli.signal('SIGINT')
    expect((await cli.exited).code).toBe(0)
  })

  it('answers byte for byte like the in-process service with the same arguments', async () => {
    const cli = runCli(['--port', '0', '--artists', '60', '--seed', '12', '--max-file-mb', '8'])
    const inProcess = await startCatalogueService({ artists: 60, seed: 12, maxFileMb: 8 })
    try {
      const cliUrl = await cli.baseUrl
      for (const path of ['/api/v1/artists?include_blank=1&per_page=50&page=2', '/api/v1/access_levels']) {
        // Addresses in the bodies name each server's own port; everything else must match.
        const fromCli = (await (await fetch(cliUrl + path)).text()).replaceAll(new URL(cliUrl).host, 'HOST')
        const local = (await (await fetch(inProcess.baseUrl + path)).text()).replaceAll(new URL(inProcess.baseUrl).host, 'HOST')
        expect(fromCli).toBe(local)
      }
      const artist = inProcess.catalogue.artists.find((a) => a.numTracks > 0)!
      const upload = inProcess.catalogue.tracksOf(artist)[0]!
      const path = `/hotlink/${upload.uploadId}.${upload.ext}`
      const a = Buffer.from(await (await fetch(cliUrl + path)).arrayBuffer())
      const b = Buffer.from(await (await fetch(inProcess.baseUrl + path)).arrayBuffer())
      expect(a.equals(b)).toBe(true)
    } finally {
      cli.signal('SIGTERM')
      await cli.exited
      await inProcess.close()
    }
  })

  it.each([
    [['--artists', '0']],
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--max-file-mb', '1.5']],
    [['--latency-ms', '-1']],
    [['--latency-ms', '60001']],
    [['--colour', 'blue']],
    [['stray']],
  ])('refuses %j with usage and exit code 2', async (args) => {
    const { code, stdout, stderr } = await runCli(args).exited
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/usage: catalogue/)
  })

  it('--help says what it is and every flag, on stdout, and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await runCli([flag]).exited
      expect(code, flag).toBe(0)
      expect(stderr, flag).toBe('')
      expect(stdout, flag).toMatch(/^usage: catalogue /)
      for (const option of ['--port', '--artists', '--seed', '--max-file-mb', '--latency-ms', '--new-uploads-every', '--new-uploads-for']) expect(stdout, flag).toContain(`  ${option} `)
    }
  })

  it('a mistyped flag or one without its value is said in a line of its own words', async () => {
    const unknown = await runCli(['--colour', 'blue']).exited
    expect(unknown.stderr.split('\n')[0]).toBe('unknown option --colour')
    const missing = await runCli(['--port']).exited
    expect(missing.code).toBe(2)
    expect(missing.stderr.split('\n')[0]).toBe('--port needs a value')
  })

  it('a port in use is said as such, with what to do, and exits 2', async () => {
    const taken = await startCatalogueService({ port: 0, artists: 5 })
    try {
      const { code, stdout, stderr } = await runCli(['--port', new URL(taken.baseUrl).port, '--artists', '5']).exited
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toBe(`catalogue: port ${new URL(taken.baseUrl).port} on 127.0.0.1 is in use (another demo, or another program): pick another with --port N, or --port 0 for any free one\n`)
    } finally {
      await taken.close()
    }
  })
})
