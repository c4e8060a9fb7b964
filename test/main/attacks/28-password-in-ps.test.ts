/**
 * Attack 28: `cli sync --base-url 'http://user:pass@…'` left the password in the process list (ps,
 * /proc/PID/cmdline: readable by every user of the computer) for the whole run. The CLI now rewrites
 * its own command line with the password as ***, says so on stderr with the safer way (the user
 * alone in the address, the password in TUNESHELF_PASSWORD), and --help says it too. What npm's own
 * process shows is beyond it: the warning names the way around it.
 */
import fs from 'node:fs'
import { describe, expect, onTestFinished } from 'vitest'
import { cli, exited, spawnCli } from '../support/cli'
import { test } from '../support/fixtures'
import { startRawServer } from '../core/api/helpers'

const PASSWORD = 'hunter2-s3cret'

describe.runIf(process.platform === 'linux')('attack 28: a password in --base-url', () => {
  test('is not in the process list while the sync runs, and the CLI says how to keep it out', async ({ tempDir }) => {
    // A service that takes the request and never answers: the sync runs until the test stops it.
    const service = await startRawServer(() => undefined)
    onTestFinished(() => service.close())
    const address = service.url.replace('http://', `http://ann:${PASSWORD}@`)
    const child = spawnCli(['sync', '--base-url', address, '--data-dir', tempDir()])
    onTestFinished(() => void child.kill('SIGKILL'))
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    // Once the service has been asked, the CLI has long passed the point where it hides the password.
    for (let tries = 0; tries < 300 && service.requests.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(service.requests.length).toBeGreaterThan(0)
    const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
    expect(cmdline).not.toContain(PASSWORD)
    expect(cmdline).toContain('ann:***@127.0.0.1')
    expect(stderr).toMatch(/password in --base-url can be read by other users .* TUNESHELF_PASSWORD/)
    child.kill('SIGINT')
    await exited(child)
  })

  test('--help says the flag is visible, and to use TUNESHELF_PASSWORD', async () => {
    const help = await cli(['sync', '--help'])
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/takes the password from TUNESHELF_PASSWORD: one in --base-url shows in ps to other users/)
  })
})
