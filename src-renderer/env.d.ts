/// <reference types="vite/client" />

import type { BridgeApi } from '../src-preload/api'

declare global {
  interface Window {
    /** The preload's bridge; absent when the page runs in a plain browser. */
    readonly api?: BridgeApi
  }
}
