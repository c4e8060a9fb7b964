import { defineConfig } from '@playwright/test'

// The system Chromium, never a downloaded browser (`playwright install` is not used).
const executablePath = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium'

// One worker unless PLAYWRIGHT_WORKERS says more. The specs do not share state across workers: each
// worker has its own demo service and `npm run web` (fixtures.ts), each startIsolatedApp() its own
// ports and data folder, and a file's tests stay in one worker, in order.
const workers = Number(process.env['PLAYWRIGHT_WORKERS'] || 1)
if (!Number.isInteger(workers) || workers < 1) throw new Error(`PLAYWRIGHT_WORKERS must be a whole number from 1, not ${JSON.stringify(process.env['PLAYWRIGHT_WORKERS'])}`)

/** The specs timed in the window (see the `timed` project). */
const TIMED = /downloads-large\.spec\.ts$/

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  workers,
  forbidOnly: Boolean(process.env['CI']),
  // In CI, a test that fails is run once more, and one that then passes is reported as flaky by
  // name (the list reporter's "flaky" section): read that as a bug report. CI judges a stop on one
  // run of a two-core machine, and the last four stops each lost their work to one timing under
  // load that passed alone. A test that fails twice still fails the run.
  retries: process.env['CI'] ? 1 : 0,
  reporter: 'list',
  timeout: 30_000,
  use: {
    headless: true,
    viewport: { width: 1200, height: 800 },
    colorScheme: 'light',
    // No infinite animations (the skeleton's pulse, an indeterminate progress bar): drawn in software
    // here, they cost Chromium a third of the processor time of the whole suite (renderer, browser and
    // GPU process at 119 % of a core against 77 % without them; three spec files 3.0 min → 2.3 min).
    // The app honours the setting (prefers-reduced-motion), so every screen and control is the same.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // The built renderer in Chromium, served over http by the test process.
    { name: 'renderer', testDir: 'test/e2e', testIgnore: TIMED },
    // Specs that hold the window's answer to a time budget run after all the others, alone on the
    // machine: beside another worker's Chromium, host and demo on two cores, a 40 ms answer took 110.
    { name: 'timed', testDir: 'test/e2e', testMatch: TIMED, dependencies: ['renderer'] },
    // The Electron app itself; skips when the Electron binary is not installed.
    { name: 'electron', testDir: 'test/e2e-electron' },
  ],
})
