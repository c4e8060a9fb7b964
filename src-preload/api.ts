// The object the preload exposes to the renderer as `window.api`. It imports
// neither Node nor Electron, so the renderer's type-check can read it too.

/** What the preload reads from its (sandboxed) process to build the API. */
export interface PreloadProcess {
  platform: string
  versions: Partial<Record<'electron' | 'chrome' | 'node', string>>
}

/** Builds the API object that the preload hands to contextBridge. */
export function createPreloadApi(source: PreloadProcess) {
  return {
    /** The operating system, as Node names it (`linux`, `darwin`, `win32`). */
    platform: source.platform,
    /** Versions of the runtime the app runs on, for the about line. */
    versions: {
      electron: source.versions.electron ?? '',
      chrome: source.versions.chrome ?? '',
      node: source.versions.node ?? '',
    },
  } as const
}

/** The type of `window.api`, derived from the object the preload exposes. */
export type PreloadApi = ReturnType<typeof createPreloadApi>
