/**
 * The app's security rules in one place: which page is the app's own, the
 * privileged schemes (the window's app://, the media protocol), and the
 * hardening of every web contents (no navigation, no new windows, no
 * webviews, no permissions). Electron's security checklist, point by point,
 * lives here; the Content-Security-Policy is built in core/shared/content-security.ts.
 */
import type { CustomScheme, Session, WebContents } from 'electron'
import { MEDIA_SCHEME } from '../core/shared/content-security'
import { isHttpUrl, parseUrl } from '../core/shared/urls'

export { MEDIA_SCHEME }

/**
 * The window's own scheme (Electron's checklist, item 18): under file:// the CSP's 'self' is any
 * local file, the download folder included; app://tuneshelf is the built renderer folder alone.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'tuneshelf'
/** The one page the window loads in the built app. */
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Registered before the app is ready: standard (an origin of its own, relative addresses, storage),
 * secure, fetch; the media protocol also streams. Neither bypasses the CSP or opens itself to CORS.
 */
export const PRIVILEGED_SCHEMES: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
]

/** A test for "is this the app's own page": app://tuneshelf/index.html, or the dev server in development. */
export function appUrlTest(options: { rendererUrl?: string | undefined }): (url: string) => boolean {
  const devOrigin = options.rendererUrl ? new URL(options.rendererUrl).origin : undefined
  return (url) => {
    const parsed = parseUrl(url)
    if (parsed === undefined) return false
    if (devOrigin !== undefined) return parsed.origin === devOrigin
    // Node gives a non-special scheme no origin ('null'), so its parts are compared one by one.
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '' && parsed.pathname === '/index.html'
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
  const parsed = parseUrl(url)
  return parsed !== undefined && isHttpUrl(parsed)
}
