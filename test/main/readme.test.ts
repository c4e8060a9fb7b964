/**
 * Every CLI example of the README works, word for word, against the demo
 * catalogue the README starts: the same arguments, its address and `~` swapped
 * for the test's. An example with `[optional parts]` runs without them, then with them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import { startCatalogueService } from '../../src-main/demo/index'
// In this process: the same main() and arguments as `npm run -s cli --`, without a tsx start per example (the
// spawned CLI's exit codes and signals are tested in test/main/cli).
import { cliInProcess as cli } from './support/cli'
import { test } from './support/fixtures'

const README = fs.readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8')
const README_BASE_URL = 'http://127.0.0.1:8787'

/** The lines of every ```sh block. */
function shellLines(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n')).map((line) => line.trim())
}

/** `npm run -s cli -- a [b c] d  # comment` as the argument lists to run: without and with the optional parts. */
function variants(line: string): string[][] {
  const command = line.replace(/^npm run -s cli -- /, '').replace(/\s+#.*$/, '')
  const without = command.replace(/\s*\[[^\]]*\]/g, '')
  const withAll = command.replace(/[[\]]/g, '')
  return [...new Set([without, withAll])].map((text) => text.split(/\s+/).filter(Boolean))
}

test('every CLI example of the README runs and answers', async ({ tempDir }) => {
  const lines = shellLines(README)
  const start = lines.find((line) => line.startsWith('npm run -s catalogue -- '))
  expect(start, 'the README starts the demo catalogue').toBeDefined()
  const flag = (name: string): number => Number(new RegExp(`--${name} (\\d+)`).exec(start!)![1])
  expect(`http://127.0.0.1:${flag('port')}`).toBe(README_BASE_URL)
  const demo = await startCatalogueService({ artists: flag('artists'), seed: flag('seed'), maxFileMb: flag('max-file-mb') })
  try {
    const home = tempDir()
    const examples = lines.filter((line) => line.startsWith('npm run -s cli -- '))
    expect(examples.length).toBeGreaterThanOrEqual(8)
    // sync comes first in the README, as a user would run it.
    expect(examples[0]).toMatch(/ sync /)
    for (const example of examples) {
      for (const args of variants(example)) {
        const resolved = args.map((arg) => arg.replaceAll(README_BASE_URL, demo.baseUrl).replace(/^~(?=\/|$)/, home))
        const run = await cli(resolved)
        expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0)
        const verb = args[0]!
        if (['artists', 'artist', 'levels', 'downloads'].includes(verb)) expect(run.stdout.trim(), `${args.join(' ')} prints an answer`).not.toBe('')
        if (verb === 'download') expect(run.stderr, args.join(' ')).toMatch(/(\d+) of \1 files complete and verified/)
      }
    }
    expect(fs.existsSync(path.join(home, 'Music', 'Tuneshelf')), 'the --to example downloaded into its folder').toBe(true)
  } finally {
    await demo.close()
  }
}, 300_000)

test('the scripts table names every script of package.json, and nothing else', () => {
  const scripts = Object.keys((JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { scripts: Record<string, string> }).scripts)
  const section = README.slice(README.indexOf('\n## Scripts\n'), README.indexOf('\n## ', README.indexOf('\n## Scripts\n') + 1))
  const rows = [...section.matchAll(/^\| `npm (?:run )?([\w:-]+)[^`]*` \|/gm)].map((row) => row[1]!)
  // `npm start` and `npm test` are npm's own short forms of `npm run start` and `npm run test`.
  expect(rows.sort()).toEqual(scripts.sort())
})

test('how to run one test file and one test by name, with vitest and Playwright', () => {
  const lines = shellLines(README)
  expect(lines).toContainEqual(expect.stringMatching(/^npx vitest run test\/\S+\.test\.ts\s/))
  expect(lines).toContainEqual(expect.stringMatching(/^npx vitest run test\/\S+\.test\.ts -t "[^"]+"/))
  expect(lines).toContainEqual(expect.stringMatching(/^npx playwright test test\/e2e\/\S+\.spec\.ts\s/))
  expect(lines).toContainEqual(expect.stringMatching(/^npx playwright test test\/e2e\/\S+\.spec\.ts .*-g "[^"]+"/))
  // Each example picks a test that is there: the file exists and holds a test of that name.
  for (const line of lines.filter((l) => / (-t|-g) "/.test(l))) {
    const [, file, name] = /^npx (?:vitest run|playwright test) (\S+) .*-[tg] "([^"]+)"/.exec(line)!
    const source = fs.readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8')
    expect(source, line).toMatch(new RegExp(`(?:test|it|describe)\\('[^']*${name}`))
  }
})
