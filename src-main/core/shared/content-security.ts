/**
 * Every Content-Security-Policy the app sends, built in one place: the
 * window's own (the build writes it into index.html; the app:// protocol and
 * the web bridge send it as a header too), and the one of media, which are
 * what strangers uploaded. Node-free and Electron-free, so the build, main,
 * and the web bridge (which has no Electron) all take it from here.
 */

/** The scheme that serves cached avatars and downloaded files to the app's window (never file://). */
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
    // frame-ancestors is honoured only as a header (headerPolicy adds it); in a meta element Chromium ignores it.
  ].join('; ')
}

/**
 * A page's policy as a response header: the page's own (that of its
 * `<meta http-equiv>`, or the app's when it has none), which as a header can
 * also forbid framing; its own origin stays reachable for the calls it makes.
 */
export function headerPolicy(meta: string | undefined): string {
  const directives = (meta ?? contentSecurityPolicy({ development: false }))
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '')
  const connect = directives.findIndex((directive) => /^connect-src\s/i.test(directive))
  if (connect === -1) directives.push("connect-src 'self'")
  else if (!directives[connect]!.split(/\s+/).includes("'self'")) directives[connect] += " 'self'"
  if (!directives.some((directive) => /^frame-ancestors\s/i.test(directive))) directives.push("frame-ancestors 'none'")
  return directives.join('; ')
}

/** Media are what strangers uploaded: opened as a page (an SVG, say), they never run anything. */
export const MEDIA_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
