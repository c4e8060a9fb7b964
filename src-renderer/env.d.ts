/// <reference types="vite/client" />

import type { PreloadApi } from '../src-preload/api'

declare global {
  interface Window {
    /** The preload's API; absent when the page runs in a plain browser. */
    readonly api?: PreloadApi
  }
}
