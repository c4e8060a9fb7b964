/**
 * Electronegativity over the built app (out/) and the sources that matter, offline.
 *
 *   npm run test:security            # after a build: npm test runs it last, on the build its tests used
 *   tsx test/security/electronegativity.ts [--root DIR] [PATH...]
 *
 * Fails (exit 1, listing them) on any finding of medium severity or higher, unless an
 * `eng-disable` comment on the finding's own line names the check and gives the reason:
 *
 *   void shell.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK -- only http(s) addresses from webAddress()
 *   <meta ...> <!-- eng-disable CSP_HTML_CHECK the reason in plain words -->
 *
 * (In HTML the reason may hold only letters, digits and spaces: Electronegativity ignores the
 * comment otherwise.) File-wide `eng-disable` comments are refused, and so are comments that
 * name an unknown check or no longer hide anything.
 *
 * How it runs Electronegativity: one pass over every file, then its global checks over all the
 * findings together, so that a handler in the main process counts for the page it protects.
 * AvailableSecurityFixesGlobalCheck is left out (it asks the network), and so is the fetch of
 * translations that Electronegativity's CLI makes on start: this file loads the English
 * messages shipped in the package. A window that turns Node integration on counts as HIGH
 * (Electronegativity rates it INFORMATIONAL: see SEVERITY_OVERRIDES). Vue single-file
 * components are not parsed by Electronegativity; the renderer is scanned as built.
 *
 * The build strips comments, so an `eng-disable` comment never reaches out/. A finding in
 * out/main or out/preload is therefore matched to the source module the bundle names above it
 * (`// src-main/electron/bootstrap.ts`): when that source has the same finding, it is reported (or
 * justified) there, once. A finding of the build with no counterpart in its source is reported
 * against the build.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/** The project root: two folders up from this file. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** What the app's scan reads: the build, and the sources that go into it (and package.json). */
export const APP_INPUTS = ['out', 'src-main', 'src-preload', 'src-renderer', 'package.json']

/** Global checks left out, with the reason. */
export const EXCLUDED_GLOBAL_CHECKS: Record<string, string> = {
  AvailableSecurityFixesGlobalCheck: 'it fetches the list of Electron releases from the network',
}

/** Findings at or above this severity fail the scan. */
const FAILING_SEVERITY = 2 // MEDIUM

/**
 * Severities raised above Electronegativity's own. It rates a window that turns Node
 * integration on as INFORMATIONAL, since the default has been off since Electron 5; this app
 * never turns it on (it reports nothing when the window is sandboxed, which switches Node off).
 */
export const SEVERITY_OVERRIDES: Record<string, { value: number; name: string }> = {
  NODE_INTEGRATION_JS_CHECK: { value: 3, name: 'HIGH' },
  NODE_INTEGRATION_HTML_CHECK: { value: 3, name: 'HIGH' },
}

// ---------------------------------------------------------------------------------------------
// Electronegativity's internals (the package has no exports map; these are its dist modules).

interface Level {
  value: number
  name: string
}

interface RawIssue {
  file: string
  sample?: string
  location: { line: number; column: number }
  id: string
  description: string
  severity: Level
  confidence: Level
  manualReview: boolean
  shortenedURL: string
  constructorName?: string
  visibility?: { inlineDisabled: boolean; globalCheckDisabled: boolean; excludesGlobal: string[] }
}

interface ParserInstance {
  parse(filename: string, content: string): [number | undefined, unknown, string, { message: string }[] | undefined]
}
interface FinderInstance {
  _enabled_checks: unknown[]
  find(file: string, data: unknown, type: number, content: string, only: null, electronVersion: string): Promise<RawIssue[]>
}
interface GlobalChecksInstance {
  _enabled_checks: unknown[]
  getResults(issues: RawIssue[]): Promise<RawIssue[]>
}
interface CheckClass {
  new (): { id: string }
  name: string
}
interface Electronegativity {
  version: string
  Parser: new (babelFirst: boolean, typescriptBabelFirst: boolean) => ParserInstance
  Finder: new (customScan: string[], exclude: string[], upgrade: undefined) => FinderInstance
  GlobalChecks: new (customScan: string[], exclude: string[], upgrade: undefined) => GlobalChecksInstance
  atomicChecks: CheckClass[]
  globalChecks: CheckClass[]
}

let loaded: Electronegativity | undefined

/** Loads Electronegativity with its English messages, never touching the network. */
function electronegativity(): Electronegativity {
  if (loaded) return loaded
  const packageJson = require.resolve('@doyensec/electronegativity/package.json')
  const dist = path.join(path.dirname(packageJson), 'dist')
  const fromPackage = createRequire(path.join(dist, 'index.js'))
  // Its checks call a global `__` for their messages; its own start-up also fetches
  // translations from the network, which is what this replaces.
  const i18n = fromPackage('i18n') as {
    configure(options: object): void
    setLocale(locale: string): void
  }
  i18n.configure({
    locales: ['en-US'],
    defaultLocale: 'en-US',
    directory: path.join(dist, 'locales'),
    updateFiles: false,
    objectNotation: true,
    retryInDefaultLocale: true,
    register: globalThis,
  })
  i18n.setLocale('en-US')
  const finder = fromPackage('./finder/index.js') as Pick<Electronegativity, 'Finder' | 'GlobalChecks'>
  const parser = fromPackage('./parser/parser.js') as Pick<Electronegativity, 'Parser'>
  const atomic = fromPackage('./finder/checks/AtomicChecks/index.js') as { CHECKS: CheckClass[] }
  const global = fromPackage('./finder/checks/GlobalChecks/index.js') as { GLOBAL_CHECKS: CheckClass[] }
  for (const [name, value] of Object.entries({ Parser: parser.Parser, Finder: finder.Finder, GlobalChecks: finder.GlobalChecks })) {
    if (typeof value !== 'function') throw new Error(`@doyensec/electronegativity changed: ${name} is not where this scan expects it`)
  }
  if (!Array.isArray(atomic.CHECKS) || !Array.isArray(global.GLOBAL_CHECKS)) {
    throw new Error('@doyensec/electronegativity changed: its lists of checks are not where this scan expects them')
  }
  loaded = {
    version: (require(packageJson) as { version: string }).version,
    Parser: parser.Parser,
    Finder: finder.Finder,
    GlobalChecks: finder.GlobalChecks,
    atomicChecks: atomic.CHECKS,
    globalChecks: global.GLOBAL_CHECKS,
  }
  return loaded
}

// ---------------------------------------------------------------------------------------------
// The scan.

export interface Finding {
  id: string
  severity: string
  confidence: string
  /** Relative to the scan's root, with forward slashes; `N/A` for a finding about the whole app. */
  file: string
  line: number
  column: number
  sample: string
  description: string
  manualReview: boolean
  url: string
  /** Why a finding fails: empty for a plain finding. */
  problem?: string
  /** The reason its `eng-disable` comment gives (justified findings). */
  reason?: string
  /** For a finding in a bundle: the source module the bundle names above it. */
  module?: string
}

export interface CommentProblem {
  file: string
  line: number
  text: string
  problem: string
}

export interface ScanResult {
  electronegativityVersion: string
  electronVersion: string
  files: number
  /** Fail the scan: medium or higher, not justified on their line. */
  failures: Finding[]
  /** Medium or higher, with an `eng-disable` comment and its reason on their line. */
  justified: Finding[]
  /** Below medium: shown, never failing. */
  lower: Finding[]
  /** Findings of the build reported through their source module. */
  matchedInSource: number
  /** `eng-disable` comments that are wrong in themselves. */
  commentProblems: CommentProblem[]
  /** Files Electronegativity could not parse: the scan is blind to them, so they fail it. */
  parseErrors: { file: string; message: string }[]
}

export interface ScanOptions {
  /** Folder the inputs and the reported paths are relative to. */
  root: string
  /** Files and folders to scan, relative to the root. */
  inputs: string[]
  /** The Electron version the checks assume (their defaults depend on it). */
  electronVersion?: string
}

const SOURCE_EXTENSIONS = new Set(['.js', '.jsx', '.ts', '.tsx', '.cjs', '.mjs', '.cts', '.mts', '.html', '.htm'])

function toPosix(file: string): string {
  return file.split(path.sep).join('/')
}

/** The files Electronegativity reads: scripts, pages, and package.json files; never node_modules. */
function listFiles(root: string, inputs: string[]): string[] {
  const files: string[] = []
  const visit = (absolute: string): void => {
    const stat = fs.statSync(absolute)
    if (stat.isDirectory()) {
      if (path.basename(absolute) === 'node_modules') return
      for (const entry of fs.readdirSync(absolute).sort()) visit(path.join(absolute, entry))
    } else if (SOURCE_EXTENSIONS.has(path.extname(absolute)) || path.basename(absolute) === 'package.json') {
      files.push(absolute)
    }
  }
  for (const input of inputs) {
    const absolute = path.resolve(root, input)
    if (!fs.existsSync(absolute)) throw new Error(`nothing to scan at ${input}`)
    visit(absolute)
  }
  return [...new Set(files)]
}

/** The name Electronegativity's parser should see: it knows .js and .ts, not their module variants. */
function parserName(file: string): string {
  return file.replace(/\.[cm]js$/, '.js').replace(/\.[cm]ts$/, '.ts')
}

/** The Electron version installed, else the lowest the package.json range allows. */
export function installedElectronVersion(root: string): string {
  try {
    const fromRoot = createRequire(path.join(root, 'package.json'))
    return (fromRoot('electron/package.json') as { version: string }).version
  } catch {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      devDependencies?: Record<string, string>
    }
    const range = manifest.devDependencies?.['electron'] ?? manifest.dependencies?.['electron']
    const version = range ? /\d+\.\d+\.\d+/.exec(range)?.[0] : undefined
    if (!version) throw new Error('cannot tell which Electron version the app uses: electron is neither installed nor in package.json')
    return version
  }
}

// --- eng-disable comments ---------------------------------------------------------------------

/** The check names a comment may use: each check's id and its class name. */
function knownCheckNames(engine: Electronegativity): Map<string, string> {
  const names = new Map<string, string>() // lower-case name → id
  for (const Check of [...engine.atomicChecks, ...engine.globalChecks]) {
    const id = new Check().id
    names.set(id.toLowerCase(), id)
    names.set(Check.name.toLowerCase(), id)
  }
  return names
}

/** Electronegativity's own patterns (src/util/exceptions.js): what it reads from a line. */
const ENGINE_PATTERN = {
  script: /(?:\/\*|\/\/)[ \t]*eng-disable[ \t]+([\w \t]+)/is,
  page: /<!--[ \t]*eng-disable[ \t]+([\w \t]+)-->/is,
}
const CHECK_NAME = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_CHECK|[a-z][A-Za-z0-9]*Check)$/

interface DisableComment {
  line: number
  text: string
  /** Check ids it names, as Electronegativity reads them. */
  ids: string[]
  reason: string
  problems: string[]
}

function isPage(file: string): boolean {
  return /\.html?$/i.test(file)
}

/** Every `eng-disable` comment of a file, with what is wrong with it. */
function disableComments(file: string, content: string, known: Map<string, string>): DisableComment[] {
  const comments: DisableComment[] = []
  const lines = content.split('\n')
  lines.forEach((raw, index) => {
    const text = raw.trim()
    if (!/eng-disable/i.test(text)) return
    const problems: string[] = []
    const engineMatch = (isPage(file) ? ENGINE_PATTERN.page : ENGINE_PATTERN.script).exec(text)
    const words = engineMatch ? engineMatch[1]!.trim().split(/[\s,]+/).filter(Boolean) : []
    const names: string[] = []
    for (const word of words) {
      if (!CHECK_NAME.test(word)) break
      names.push(word)
    }
    const ids: string[] = []
    for (const name of names) {
      const id = known.get(name.toLowerCase())
      if (id) ids.push(id)
      else problems.push(`names an unknown check "${name}"`)
    }
    if (!engineMatch || names.length === 0) {
      problems.push(
        isPage(file)
          ? 'Electronegativity cannot read it: write <!-- eng-disable CHECK_ID the reason in plain words -->'
          : 'Electronegativity cannot read it: write // eng-disable CHECK_ID -- the reason',
      )
    }
    // The reason: what the comment says after the check names.
    const start = engineMatch ? text.indexOf(engineMatch[0]) : text.search(/eng-disable/i)
    let rest = text.slice(start).replace(/^(?:\/\*|\/\/|<!--)[ \t]*eng-disable/i, '')
    for (const name of names) rest = rest.replace(new RegExp(`^[\\s,]*${name}`), '')
    const reason = rest
      .replace(/(\*\/|-->)[\s\S]*$/, '')
      .replace(/^[\s,:;\-–—]+/, '')
      .trim()
    if ((reason.match(/[\p{L}\p{N}]/gu) ?? []).length < 10) {
      problems.push('gives no reason: say why the finding is safe after the check names')
    }
    const code = text
      .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
      .replace(/\/\/.*$/, '')
      .replace(/<!--[\s\S]*?(-->|$)/g, '')
      .trim()
    if (index === 0) {
      problems.push('is on the first line, where Electronegativity applies it to the whole file: put it on the line of the finding')
    } else if (code === '') {
      problems.push('stands on a line of its own, where it hides nothing: put it at the end of the line of the finding')
    }
    comments.push({ line: index + 1, text, ids, reason, problems })
  })
  return comments
}

// --- built output ------------------------------------------------------------------------------

const MODULE_MARKER = /^\/\/ (\S+\.(?:[cm]?[jt]sx?|vue))$/

/** The source module a bundle line comes from, as the bundle's `// path` marker above it says. */
function moduleAt(lines: string[], line: number): string | undefined {
  for (let index = Math.min(line, lines.length) - 1; index >= 0; index -= 1) {
    const marker = MODULE_MARKER.exec(lines[index]!.trim())
    if (marker) return marker[1]
  }
  return undefined
}

function isBundle(file: string): boolean {
  return /^out\/(main|preload)\/.*\.[cm]?js$/.test(file)
}

// --- the scan itself ---------------------------------------------------------------------------

function toFinding(issue: RawIssue, root: string): Finding {
  const file = issue.file === 'N/A' ? 'N/A' : toPosix(path.relative(root, issue.file))
  return {
    id: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file,
    line: issue.location.line,
    column: issue.location.column,
    sample: (issue.sample ?? '').trim(),
    description: issue.description,
    manualReview: issue.manualReview,
    url: issue.shortenedURL,
  }
}

export async function scan(options: ScanOptions): Promise<ScanResult> {
  const engine = electronegativity()
  const root = path.resolve(options.root)
  const electronVersion = options.electronVersion ?? installedElectronVersion(root)
  const known = knownCheckNames(engine)
  const excludedGlobal = Object.keys(EXCLUDED_GLOBAL_CHECKS).map((name) => name.toLowerCase())
  const finder = new engine.Finder([], [], undefined)
  const globalChecks = new engine.GlobalChecks([], excludedGlobal, undefined)
  if (finder._enabled_checks.length === 0 || globalChecks._enabled_checks.length === 0) {
    throw new Error('Electronegativity loaded no checks')
  }
  const parser = new engine.Parser(false, true)

  const files = listFiles(root, options.inputs)
  const contents = new Map<string, string>()
  const parseErrors: ScanResult['parseErrors'] = []
  let issues: RawIssue[] = []
  for (const file of files) {
    const content = fs.readFileSync(file, 'utf8')
    contents.set(file, content)
    try {
      const [type, data, text] = parser.parse(parserName(file), content)
      if (data === null || type === undefined) continue
      issues.push(...(await finder.find(file, data, type, text, null, electronVersion)))
    } catch (error) {
      parseErrors.push({ file: toPosix(path.relative(root, file)), message: (error as Error).message })
    }
  }
  // Which comments hide something: read before the global checks, which replace the findings
  // they depend on (a CSP meta tag's, say) with their own.
  const hidden = issues.filter((issue) => issue.visibility?.inlineDisabled)
  // The second pass: the global checks weigh the findings of every file together.
  issues = await globalChecks.getResults(issues)
  for (const issue of issues) {
    const raised = SEVERITY_OVERRIDES[issue.id]
    if (raised && raised.value > issue.severity.value) issue.severity = raised
  }

  const comments = new Map<string, DisableComment[]>()
  for (const [file, content] of contents) comments.set(file, disableComments(file, content, known))
  const commentAt = (file: string, line: number): DisableComment | undefined =>
    comments.get(file)?.find((comment) => comment.line === line)

  const failures: Finding[] = []
  const justified: Finding[] = []
  const lower: Finding[] = []
  const used = new Set<DisableComment>()
  for (const issue of hidden) {
    const comment = commentAt(issue.file, issue.location.line)
    if (comment?.ids.includes(issue.id)) used.add(comment)
  }
  const built: { issue: RawIssue; finding: Finding }[] = []
  /** `file:CHECK_ID` of every finding in a source file, justified or not: what a bundle's finding may be matched to. */
  const inSources = new Set<string>()

  for (const issue of issues) {
    // A global check that found what it needs elsewhere hides the atomic finding: not a suppression.
    if (issue.visibility?.globalCheckDisabled) continue
    const finding = toFinding(issue, root)
    if (!isBundle(finding.file) && finding.file !== 'N/A') inSources.add(`${finding.file}:${finding.id}`)
    const comment = issue.file === 'N/A' ? undefined : commentAt(issue.file, issue.location.line)
    if (issue.visibility?.inlineDisabled) {
      if (issue.severity.value < FAILING_SEVERITY) continue
      if (!comment || !comment.ids.includes(issue.id)) {
        finding.problem = 'hidden by a file-wide eng-disable on line 1, which this scan does not accept'
      } else if (comment.problems.length > 0) {
        finding.problem = `its eng-disable comment ${comment.problems.join('; ')}`
      } else {
        finding.reason = comment.reason
      }
    }
    if (isBundle(finding.file)) {
      built.push({ issue, finding })
      continue
    }
    if (issue.severity.value < FAILING_SEVERITY) lower.push(finding)
    else if (finding.reason !== undefined) justified.push(finding)
    else failures.push(finding)
  }

  // Findings in bundles: reported through their source module when it has the same finding.
  let matchedInSource = 0
  for (const { issue, finding } of built) {
    const lines = (contents.get(issue.file) ?? '').split('\n')
    const module = moduleAt(lines, issue.location.line)
    if (module) finding.module = module
    if (module && inSources.has(`${module}:${finding.id}`)) {
      matchedInSource += 1
      continue
    }
    if (issue.severity.value < FAILING_SEVERITY) {
      lower.push(finding)
      continue
    }
    finding.problem = module
      ? `found in the build of ${module} but not in that source: comments do not survive the build, so fix it where it comes from`
      : 'found in the build: comments do not survive the build, so fix it where it comes from'
    failures.push(finding)
  }

  // Comments that are wrong in themselves, or hide nothing any more.
  const commentProblems: CommentProblem[] = []
  for (const [file, list] of comments) {
    for (const comment of list) {
      const problems = [...comment.problems]
      const atomicIds = comment.ids.filter((id) => !id.endsWith('_GLOBAL_CHECK'))
      if (problems.length === 0 && atomicIds.length > 0 && !used.has(comment)) {
        problems.push('hides no finding on its line: remove it')
      }
      if (problems.length > 0) {
        commentProblems.push({ file: toPosix(path.relative(root, file)), line: comment.line, text: comment.text, problem: problems.join('; ') })
      }
    }
  }

  const order = (a: Finding, b: Finding): number => a.file.localeCompare(b.file) || a.line - b.line || a.id.localeCompare(b.id)
  return {
    electronegativityVersion: engine.version,
    electronVersion,
    files: files.length,
    failures: failures.sort(order),
    justified: justified.sort(order),
    lower: lower.sort(order),
    matchedInSource,
    commentProblems,
    parseErrors,
  }
}

/** True when the scan passes. */
export function passes(result: ScanResult): boolean {
  return result.failures.length === 0 && result.commentProblems.length === 0 && result.parseErrors.length === 0
}

// ---------------------------------------------------------------------------------------------
// The command line.

function where(finding: Finding): string {
  return finding.file === 'N/A' ? '(the whole app)' : `${finding.file}:${finding.line}:${finding.column}`
}

export function report(result: ScanResult): string {
  const out: string[] = []
  out.push(
    `Electronegativity ${result.electronegativityVersion}, Electron ${result.electronVersion}: ${result.files} files; ` +
      `left out: ${Object.entries(EXCLUDED_GLOBAL_CHECKS).map(([name, why]) => `${name} (${why})`).join(', ')}`,
  )
  for (const finding of result.failures) {
    out.push(`FAIL ${where(finding)}  ${finding.id}  ${finding.severity}/${finding.confidence}${finding.manualReview ? ', review' : ''}`)
    if (finding.module) out.push(`     from ${finding.module}`)
    if (finding.sample) out.push(`     ${finding.sample}`)
    out.push(`     ${finding.description} ${finding.url}`)
    if (finding.problem) out.push(`     ${finding.problem}`)
  }
  for (const problem of result.commentProblems) {
    out.push(`FAIL ${problem.file}:${problem.line}  eng-disable comment ${problem.problem}`)
    out.push(`     ${problem.text}`)
  }
  for (const error of result.parseErrors) out.push(`FAIL ${error.file}  cannot be parsed: ${error.message}`)
  for (const finding of result.justified) {
    out.push(`ok   ${where(finding)}  ${finding.id}  ${finding.severity}, justified: ${finding.reason}`)
  }
  for (const finding of result.lower) {
    out.push(`low  ${where(finding)}  ${finding.id}  ${finding.severity}/${finding.confidence}: ${finding.description}`)
  }
  const failed = result.failures.length + result.commentProblems.length + result.parseErrors.length
  out.push(
    failed === 0
      ? `passed: nothing of medium severity or higher (${result.justified.length} justified, ${result.lower.length} lower, ` +
          `${result.matchedInSource} findings of the build reported through their sources)`
      : `failed: ${result.failures.length} findings of medium severity or higher, ${result.commentProblems.length} eng-disable ` +
          `comments to fix, ${result.parseErrors.length} files not parsed`,
  )
  return out.join('\n')
}

/** The newest source file, when it is newer than the oldest file of the build. */
export function staleBuild(root: string): string | undefined {
  const newest = (dir: string, pick: (a: number, b: number) => boolean): { file: string; time: number } | undefined => {
    let best: { file: string; time: number } | undefined
    const visit = (absolute: string): void => {
      if (!fs.existsSync(absolute)) return
      const stat = fs.statSync(absolute)
      if (stat.isDirectory()) {
        for (const entry of fs.readdirSync(absolute)) visit(path.join(absolute, entry))
      } else if (!best || pick(stat.mtimeMs, best.time)) {
        best = { file: absolute, time: stat.mtimeMs }
      }
    }
    visit(path.join(root, dir))
    return best
  }
  const oldestBuilt = newest('out', (a, b) => a < b)
  if (!oldestBuilt) return 'out/ is missing'
  for (const dir of ['src-main', 'src-preload', 'src-renderer']) {
    const source = newest(dir, (a, b) => a > b)
    if (source && source.time > oldestBuilt.time) {
      return `out/ is older than ${toPosix(path.relative(root, source.file))}`
    }
  }
  return undefined
}

async function main(argv: string[]): Promise<number> {
  let root = PROJECT_ROOT
  const inputs: string[] = []
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!
    if (arg === '--root') root = path.resolve(argv[++index] ?? '')
    else if (arg === '-h' || arg === '--help') {
      console.log('usage: tsx test/security/electronegativity.ts [--root DIR] [PATH...]')
      return 0
    } else inputs.push(arg)
  }
  if (inputs.length === 0) {
    inputs.push(...APP_INPUTS.filter((input) => input === 'out' || fs.existsSync(path.join(root, input))))
    const stale = staleBuild(root)
    if (stale) {
      console.error(`${stale}: build first (npx electron-vite build); npm test builds before the unit tests, before this scan`)
      return 1
    }
  }
  const result = await scan({ root, inputs })
  const text = report(result)
  if (passes(result)) console.log(text)
  else console.error(text)
  return passes(result) ? 0 : 1
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error)
      process.exitCode = 1
    },
  )
}
