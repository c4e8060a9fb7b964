import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { contentSecurityPolicy } from './src-main/core/shared/content-security'

const root = import.meta.dirname

/** The page's Content-Security-Policy, one policy for the app and the web bridge (the dev server's differs only by its websocket). */
function contentSecurityPolicyMeta(): Plugin {
  let development = false
  return {
    name: 'tuneshelf-content-security-policy',
    configResolved(config) {
      development = config.command === 'serve'
    },
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy({ development }) }, injectTo: 'head' },
    ],
  }
}

export default defineConfig({
  main: {
    build: {
      // The main process, and the core's host that it starts as a utility process (core-host.js beside index.js).
      lib: { entry: { index: resolve(root, 'src-main/index.ts'), 'core-host': resolve(root, 'src-main/core-host.ts') } },
    },
  },
  preload: {
    build: {
      lib: { entry: resolve(root, 'src-preload/index.ts') },
      // A sandboxed preload can require only electron: everything else it uses (the contract, and
      // valibot, which the contract's schemas are made with) is bundled into it.
      externalizeDeps: false,
      rollupOptions: {
        // A sandboxed preload cannot be an ES module, so it stays CommonJS
        // (written as index.cjs because package.json says "type": "module").
        output: { format: 'cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    // The Node-free code the renderer shares with the core, by one name instead of ../../src-main climbs.
    resolve: { alias: { '@shared': resolve(root, 'src-main/core/shared') } },
    build: {
      rollupOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
    plugins: [vue(), contentSecurityPolicyMeta()],
  },
})
