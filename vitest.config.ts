import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/e2e/**', 'test/e2e-electron/**'],
    testTimeout: 30_000,
    pool: 'forks',
  },
})
