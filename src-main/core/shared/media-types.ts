/**
 * The audio and video types the app plays, by file extension, with their
 * content types: the one list that decides which extension a downloaded file
 * may keep (any other becomes `.bin`, core/downloads/file-names.ts), which
 * content type its bytes are served with (main-process/media.ts, the demo service),
 * and which files "Open" may hand to the system (main-process/window-handlers.ts).
 *
 * The catalogue names the extension, and a stranger writes the catalogue: a
 * name the system would run (`.exe`, `.desktop`, `.sh`, `.js`) must never
 * reach the disk or the system's "open". Node-free: the renderer may use it.
 */

/** What <audio> plays in Chromium (and so in Electron), keyed by lower-case extension. */
export const PLAYABLE_TYPES: Readonly<Record<string, string>> = Object.freeze({
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  // Video containers: <audio> plays their sound, and the system opens them with a player.
  mp4: 'video/mp4',
  webm: 'video/webm',
})

/** The content type of bytes that are no type the app plays: never sniffed, never run. */
export const OPAQUE_TYPE = 'application/octet-stream'

/** The extension of a file name or path, lower-case, without its dot ('' when it has none). */
export function extensionOf(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase()
}

/** Whether an extension (any case, no dot) is one the app plays; an own key only, never `constructor` and the like. */
export function isPlayableExtension(extension: string): boolean {
  return Object.hasOwn(PLAYABLE_TYPES, extension.toLowerCase())
}

/** Whether a file's name ends in an extension the app plays. */
export function isPlayable(file: string): boolean {
  const extension = extensionOf(file)
  return extension !== '' && isPlayableExtension(extension)
}

/** The content type a file is served with: its playable type, else opaque bytes. */
export function mediaTypeOf(file: string): string {
  return isPlayable(file) ? PLAYABLE_TYPES[extensionOf(file)]! : OPAQUE_TYPE
}
