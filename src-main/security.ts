/**
 * The app's security rules in one place: which pages are the app's own, the
 * Content-Security-Policy, the media protocol's privileges, and the hardening
 * of every web contents (no navigation, no new windows, no webviews, no
 * permissions). Electron's security checklist, point by point, lives here.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Session, WebContents } from 'electron'

/** The scheme that serves cached avatars and downloaded files to the window (never file://). */
export const MEDIA_SCHEME = 'tuneshelf-media'

/** What the window may load: its own scripts and styles, local images and media, nothing remote, no eval. */
export function contentSecurityPolicy(options: { development: boolean }): string {
  const media = `${MEDIA_SCHEME}:`
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Vue sets style properties at run time; no script can come in through a style.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${media}`,
    `media-src 'self' ${media}`,
    // The dev server pushes module updates over a websocket; the built app connects nowhere.
    options.development ? "connect-src 'self' ws://localhost:* ws://127.0.0.1:*" : "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    // frame-ancestors is honoured only as a header (the web bridge sends one); in a meta element Chromium ignores it.
  ].join('; ')
}

/** A test for "is this the app's own page": the built index.html, or the dev server in development. */
export function appUrlTest(options: { rendererFile: string; rendererUrl?: string | undefined }): (url: string) => boolean {
  const file = pathToFileURL(path.resolve(options.rendererFile)).href
  const devOrigin = options.rendererUrl ? new URL(options.rendererUrl).origin : undefined
  return (url) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return false
    }
    if (devOrigin !== undefined) return parsed.origin === devOrigin
    parsed.hash = ''
    parsed.search = ''
    return parsed.href === file
  }
}

/** Every permission (camera, notifications, geolocation, ...) refused: the window needs none. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

/**
 * The window stays on the app's page: navigation away is blocked, new windows
 * are denied, webviews cannot be attached. Links open through the contract
 * (app:openLink), which builds and checks their addresses in main.
 */
export function hardenWebContents(contents: WebContents, isAppUrl: (url: string) => boolean): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/** True only for the addresses the app hands to the user's browser: http and https. */
export function isWebAddress(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}
