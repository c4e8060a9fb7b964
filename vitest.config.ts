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
  },
})
