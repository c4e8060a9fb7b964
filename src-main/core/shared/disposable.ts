/**
 * The one way to let go of something across the app, the core, the bridge and
 * the window alike (VS Code's idiom): a subscription `onDid…(listener)`
 * returns a Disposable, and so does anything else that must be stopped.
 * Here, in the shared code, so the preload and the renderer use it too.
 */

/** Something to let go of: a subscription, a timer, a whole service. */
export interface Disposable {
  dispose(): void
}
