import { defineConfig } from '@playwright/test'

// The system Chromium, never a downloaded browser (`playwright install` is not used).
const executablePath = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium'

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env['CI']),
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  use: {
    headless: true,
    viewport: { width: 1200, height: 800 },
    colorScheme: 'light',
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
    { name: 'renderer', testDir: 'test/e2e' },
    // The Electron app itself; skips when the Electron binary is not installed.
    { name: 'electron', testDir: 'test/e2e-electron' },
  ],
})
