// The renderer's one way to reach the main process. Components and stores
// import from here, never from `window.api` directly, so a test replaces one module.
import type { PreloadApi } from '../src-preload/api'

/** The preload API, or undefined when the page is open in a plain browser. */
export const api: PreloadApi | undefined = window.api
