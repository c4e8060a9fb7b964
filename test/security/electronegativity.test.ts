/**
 * The Electronegativity scan (test/security/electronegativity.ts) against small apps written
 * here: it passes a careful one, fails an insecure one, takes a reason on the finding's line
 * and nothing less, and matches findings of the build to their source.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { PROJECT_ROOT, scan, staleBuild, type ScanResult } from './electronegativity'

const TSX = path.join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')
const SCANNER = path.join(PROJECT_ROOT, 'test', 'security', 'electronegativity.ts')

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** Writes the files into a fresh temporary folder: an app to scan. */
function app(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-eng-'))
  dirs.push(root)
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    fs.writeFileSync(path.join(root, name), content)
  }
  return root
}

/** Runs the scanner as `npm run test:security` does, in the app's folder. */
function runScanner(root: string, inputs: string[] = []): { code: number; output: string } {
  try {
    const stdout = execFileSync(process.execPath, [TSX, SCANNER, '--root', root, ...inputs], { encoding: 'utf8', stdio: 'pipe' })
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string }
    return { code: failed.status, output: failed.stdout + failed.stderr }
  }
}

const MANIFEST = JSON.stringify({ name: 'fixture', private: true, devDependencies: { electron: '45.4.1' } })

const PAGE = `<!doctype html>
<html>
  <head>
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'" />
    <title>Fixture</title>
  </head>
  <body></body>
</html>
`

/** A careful main process; `openLine` is the line that opens links in the browser. */
function mainProcess(openLine: string, { firstLine = "import { app, BrowserWindow, session, shell } from 'electron'" } = {}): string {
  return `${firstLine}

app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  const window = new BrowserWindow({
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true, disableBlinkFeatures: 'Auxclick' },
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.setWindowOpenHandler(({ url }) => {
${openLine}
    return { action: 'deny' }
  })
  void window.loadFile('index.html')
})
`
}

const JUSTIFIED_OPEN = "    if (url.startsWith('https:')) void shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK -- only https addresses reach the browser"

/** The same main process as the build leaves it: comments gone, a marker naming the module. */
function bundle(source: string, module = 'src-main/index.ts'): string {
  const [imports, ...rest] = source.split('\n')
  const code = rest.join('\n').replace(/ *\/\/ eng-disable.*$/gm, '')
  return `${imports}\n// ${module}\n${code}`
}

function ids(findings: ScanResult['failures']): string[] {
  return findings.map((finding) => finding.id)
}

describe('the Electronegativity scan', () => {
  test('passes a careful app, with its one finding justified on its line', async () => {
    const main = mainProcess(JUSTIFIED_OPEN)
    const root = app({ 'package.json': MANIFEST, 'src-main/index.ts': main, 'src-renderer/index.html': PAGE, 'out/main/index.js': bundle(main) })
    const result = await scan({ root, inputs: ['out', 'src-main', 'src-renderer', 'package.json'] })
    expect(result.failures, JSON.stringify(result.failures, null, 2)).toEqual([])
    expect(result.commentProblems).toEqual([])
    expect(result.parseErrors).toEqual([])
    expect(result.justified).toMatchObject([
      { id: 'OPEN_EXTERNAL_JS_CHECK', file: 'src-main/index.ts', line: 10, reason: 'only https addresses reach the browser' },
    ])
    // The same call in the build, whose comment the build dropped, is reported through its source.
    expect(result.matchedInSource).toBeGreaterThanOrEqual(1)
    expect(result.electronVersion).toBe('45.4.1')

    const run = runScanner(root, ['out', 'src-main', 'src-renderer', 'package.json'])
    expect(run.code, run.output).toBe(0)
    expect(run.output).toMatch(/^passed: /m)
  }, 60_000)

  test('fails an app that gives the page Node and no isolation, listing each finding', async () => {
    const root = app({
      'package.json': MANIFEST,
      'src-renderer/index.html': PAGE,
      'src-main/index.js': `import { app, BrowserWindow } from 'electron'

app.whenReady().then(() => {
  const window = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } })
  window.loadURL('http://example.com/')
})
`,
    })
    const result = await scan({ root, inputs: ['src-main', 'src-renderer', 'package.json'] })
    expect(ids(result.failures)).toEqual(
      expect.arrayContaining([
        'NODE_INTEGRATION_JS_CHECK',
        'CONTEXT_ISOLATION_JS_CHECK',
        'SANDBOX_JS_CHECK',
        'HTTP_RESOURCES_WITH_NODE_INTEGRATION_GLOBAL_CHECK',
        'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
        'LIMIT_NAVIGATION_GLOBAL_CHECK',
      ]),
    )
    expect(result.failures.find((finding) => finding.id === 'NODE_INTEGRATION_JS_CHECK')).toMatchObject({ file: 'src-main/index.js', line: 4 })

    const run = runScanner(root, ['src-main', 'src-renderer', 'package.json'])
    expect(run.code).toBe(1)
    expect(run.output).toMatch(/^FAIL src-main\/index\.js:4:\d+ {2}NODE_INTEGRATION_JS_CHECK {2}/m)
    expect(run.output).toMatch(/^FAIL src-main\/index\.js:4:\d+ {2}CONTEXT_ISOLATION_JS_CHECK {2}/m)
    expect(run.output).toMatch(/^failed: /m)
  }, 60_000)

  test('an eng-disable comment without a reason does not hide the finding', async () => {
    const root = app({
      'package.json': MANIFEST,
      'src-renderer/index.html': PAGE,
      'src-main/index.ts': mainProcess('    void shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK'),
    })
    const result = await scan({ root, inputs: ['src-main', 'src-renderer', 'package.json'] })
    expect(result.failures).toMatchObject([{ id: 'OPEN_EXTERNAL_JS_CHECK', line: 10, problem: expect.stringMatching(/gives no reason/) }])
    expect(result.commentProblems).toMatchObject([{ file: 'src-main/index.ts', line: 10, problem: expect.stringMatching(/gives no reason/) }])
  }, 60_000)

  test('a file-wide eng-disable on the first line is refused', async () => {
    const root = app({
      'package.json': MANIFEST,
      'src-renderer/index.html': PAGE,
      'src-main/index.ts': mainProcess('    void shell.openExternal(url)', {
        firstLine: "import { app, BrowserWindow, session, shell } from 'electron' // eng-disable OPEN_EXTERNAL_JS_CHECK -- the whole file is fine",
      }),
    })
    const result = await scan({ root, inputs: ['src-main', 'src-renderer', 'package.json'] })
    expect(result.failures).toMatchObject([{ id: 'OPEN_EXTERNAL_JS_CHECK', line: 10, problem: expect.stringMatching(/file-wide/) }])
    expect(result.commentProblems).toMatchObject([{ line: 1, problem: expect.stringMatching(/first line/) }])
  }, 60_000)

  test('comments naming an unknown check, or hiding nothing, are refused', async () => {
    const root = app({
      'package.json': MANIFEST,
      'src-renderer/index.html': PAGE,
      'src-main/index.ts': mainProcess(
        `${JUSTIFIED_OPEN.replace('OPEN_EXTERNAL_JS_CHECK', 'OPEN_EXTERNAL_JS_CHECK OPEN_EXTRENAL_JS_CHECK')}\n    console.log(url) // eng-disable DANGEROUS_FUNCTIONS_JS_CHECK -- nothing dangerous here any more`,
      ),
    })
    const result = await scan({ root, inputs: ['src-main', 'src-renderer', 'package.json'] })
    expect(result.commentProblems).toMatchObject([
      { line: 10, problem: expect.stringMatching(/unknown check "OPEN_EXTRENAL_JS_CHECK"/) },
      { line: 11, problem: expect.stringMatching(/hides no finding/) },
    ])
  }, 60_000)

  test('a finding of the build with no counterpart in its source fails, against the build', async () => {
    const main = mainProcess(JUSTIFIED_OPEN)
    const library = "// node_modules/some-library/index.js\nfunction run(code) {\n  return eval('(' + code + ')')\n}\n"
    const root = app({
      'package.json': MANIFEST,
      'src-main/index.ts': main,
      'src-renderer/index.html': PAGE,
      'out/main/index.js': `${bundle(main)}${library}`,
    })
    const result = await scan({ root, inputs: ['out', 'src-main', 'src-renderer', 'package.json'] })
    expect(result.failures).toMatchObject([
      { id: 'DANGEROUS_FUNCTIONS_JS_CHECK', file: 'out/main/index.js', module: 'node_modules/some-library/index.js', problem: expect.stringMatching(/not in that source/) },
    ])
  }, 60_000)

  test('a build older than its sources is refused before scanning', () => {
    const root = app({ 'src-main/index.ts': 'export {}\n', 'out/main/index.js': 'export {}\n' })
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(path.join(root, 'out/main/index.js'), old, old)
    expect(staleBuild(root)).toBe('out/ is older than src-main/index.ts')
    fs.utimesSync(path.join(root, 'out/main/index.js'), new Date(), new Date())
    expect(staleBuild(root)).toBeUndefined()
    expect(staleBuild(app({ 'src-main/index.ts': '' }))).toBe('out/ is missing')
  })
})
