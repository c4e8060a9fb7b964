import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const NOT_UNIT = [...configDefaults.exclude, 'test/e2e/**', 'test/e2e-electron/**']

/**
 * The test files that must have the module graph to themselves: the renderer's (its stores keep
 * their state in modules, and most replace the api module), and every other file that replaces a
 * module or a global (vi.mock and the like) or loads the fake Electron, which is mocked in.
 */
function filesThatNeedTheirOwnModules(): string[] {
  const replaces = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(|support\/fake-electron/
  return fs
    .readdirSync(path.join(ROOT, 'test/main'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && replaces.test(fs.readFileSync(path.join(ROOT, 'test/main', file), 'utf8')))
    .map((file) => `test/main/${file.split(path.sep).join('/')}`)
}
const OWN_MODULES = ['test/renderer/**/*.test.ts', ...filesThatNeedTheirOwnModules()]

export default defineConfig({
  // The renderer's modules name the shared core as the renderer's build does (electron.vite.config.ts).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./src-main/core/shared', import.meta.url)) } },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    // In CI a failed test runs once more (as Playwright's do): the reporter marks one that passed on
    // its retry, and a test that fails twice fails the run. Read a retry as a bug report.
    retry: process.env['CI'] ? 1 : 0,
    pool: 'forks',
    // Two at once even on two cores: most files wait on sockets, timers and child processes,
    // not on the processor (vitest's default here would be one: cores − 1).
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
    projects: [
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES, exclude: NOT_UNIT } },
      {
        // The rest share each worker's modules from one file to the next (the files' own state is in
        // their fixtures and temporary folders): importing the core again for every file took about a
        // third of the unit tests' processor time.
        extends: true,
        test: { name: 'shared-modules', include: ['test/**/*.test.ts'], exclude: [...NOT_UNIT, ...OWN_MODULES], isolate: false },
      },
    ],
    // `npm run coverage` (not part of npm test): what the unit tests run of the app's TypeScript,
    // in vitest's own processes only (not in the child processes some tests start: the CLI, the
    // core's host, npm run web). Every file counts, run or not. The renderer's components (.vue)
    // are left out: vitest cannot read them without the Vue plugin, and only Playwright runs them.
    coverage: {
      provider: 'v8',
      include: ['src-main/**/*.ts', 'src-renderer/**/*.ts'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
    },
  },
})
