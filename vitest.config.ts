import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  // The renderer's modules name the shared core as the renderer's build does (electron.vite.config.ts).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./src-main/core/shared', import.meta.url)) } },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/e2e/**', 'test/e2e-electron/**'],
    testTimeout: 30_000,
    pool: 'forks',
    // Two at once even on two cores: most files wait on sockets, timers and child processes,
    // not on the processor (vitest's default here would be one: cores − 1).
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
  },
})
