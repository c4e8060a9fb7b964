/**
 * The system's media keys and its "now playing" panel (MediaSession), where the
 * browser offers them: the track's names, whether it plays, where it is, and
 * the actions the keys and the panel send back to the player. Electron's
 * Chromium routes the keyboard's media keys here, so they work whatever has the
 * focus, even with the window in the background.
 */

export interface MediaActions {
  play: () => void
  pause: () => void
  previous: () => void
  next: () => void
  /** Moves to a time in seconds. */
  seekTo: (seconds: number) => void
  /** Moves by seconds, back (negative) or forward. */
  seekBy: (seconds: number) => void
}

export interface MediaSessionLink {
  metadata: (track: { title: string; artist: string } | null) => void
  state: (playing: boolean | null) => void
  position: (position: number, duration: number, rate: number) => void
  /** Takes the handlers off (the element is gone). */
  unbind: () => void
}

/** What a seek key moves by when the system does not say (seconds). */
const SEEK_STEP = 10

const NOTHING: MediaSessionLink = { metadata: () => {}, state: () => {}, position: () => {}, unbind: () => {} }

export function bindMediaSession(actions: MediaActions): MediaSessionLink {
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return NOTHING
  const session = navigator.mediaSession
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => actions.play()],
    ['pause', () => actions.pause()],
    ['previoustrack', () => actions.previous()],
    ['nexttrack', () => actions.next()],
    ['seekto', (details) => details.seekTime !== undefined && actions.seekTo(details.seekTime)],
    ['seekbackward', (details) => actions.seekBy(-(details.seekOffset ?? SEEK_STEP))],
    ['seekforward', (details) => actions.seekBy(details.seekOffset ?? SEEK_STEP)],
  ]
  const set = (handler: (action: MediaSessionAction) => MediaSessionActionHandler | null): void => {
    for (const [action] of handlers) {
      try {
        session.setActionHandler(action, handler(action))
      } catch {
        // An action this browser does not know: the bar's own buttons still do it.
      }
    }
  }
  set((action) => handlers.find(([name]) => name === action)![1])

  return {
    metadata(track) {
      session.metadata = track && typeof MediaMetadata !== 'undefined' ? new MediaMetadata({ title: track.title, artist: track.artist }) : null
    },
    state(playing) {
      session.playbackState = playing === null ? 'none' : playing ? 'playing' : 'paused'
    },
    position(position, duration, rate) {
      if (!(duration > 0) || !session.setPositionState) return
      try {
        session.setPositionState({ duration, position: Math.min(Math.max(0, position), duration), playbackRate: rate || 1 })
      } catch {
        // A state the browser refuses (a rate it does not take): the panel only shows less.
      }
    },
    unbind() {
      set(() => null)
      session.metadata = null
      session.playbackState = 'none'
    },
  }
}
