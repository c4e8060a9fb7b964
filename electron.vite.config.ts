import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

const root = import.meta.dirname

export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve(root, 'src-main/index.ts') },
    },
  },
  preload: {
    build: {
      lib: { entry: resolve(root, 'src-preload/index.ts') },
      rollupOptions: {
        // A sandboxed preload cannot be an ES module, so it stays CommonJS
        // (written as index.cjs because package.json says "type": "module").
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    build: {
      rollupOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
    plugins: [vue()],
  },
})
