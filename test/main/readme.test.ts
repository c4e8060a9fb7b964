/**
 * Every CLI example of the README works, word for word, against the demo
 * catalogue the README starts: the same arguments, its address and `~` swapped
 * for the test's. An example with `[optional parts]` runs without them, then with them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import { startCatalogueService } from '../../src-main/core/demo/index'
import { cli } from './support/cli'
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
        const run = await cli(resolved, { timeoutMs: 120_000 })
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
