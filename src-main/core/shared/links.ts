/**
 * The web addresses of an artist's links, built from what the catalogue gives
 * (handles and a website that may lack a scheme). Only https and http come out:
 * a catalogue cannot make the app open `javascript:`, `file:` or a custom scheme.
 * Shared with the renderer, so it imports neither Node nor Electron.
 */

export const LINK_KINDS = Object.freeze(['facebook', 'twitter', 'website'] as const)
export type LinkKind = (typeof LINK_KINDS)[number]

/** The address of a link, or undefined when the value cannot make a safe one. */
export function linkAddress(kind: LinkKind, value: string | null | undefined): string | undefined {
  const text = (value ?? '').trim()
  if (text === '') return undefined
  if (kind === 'website') return websiteAddress(text)
  // A handle may come as a whole profile address; only its last path segment is the handle.
  const handle = /^https?:\/\//i.test(text) ? lastSegment(text) : text.replace(/^@/, '')
  if (handle === undefined) return undefined
  if (kind === 'twitter') return /^[A-Za-z0-9_]{1,15}$/.test(handle) ? `https://twitter.com/${handle}` : undefined
  // Letters, digits and dots, with at least one letter or digit: `.` and `..` are paths, not handles.
  return /^[A-Za-z0-9.]{1,50}$/.test(handle) && /[A-Za-z0-9]/.test(handle) ? `https://www.facebook.com/${handle}` : undefined
}

function websiteAddress(text: string): string | undefined {
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text)
  // "example.com:8080" reads as a scheme to URL; a host with a port is not one.
  const candidate = hasScheme && !/^[^/:]+\.[^/:]+:\d+/.test(text) ? text : `https://${text.replace(/^\/+/, '')}`
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.username !== '' || url.password !== '' || !url.hostname.includes('.')) return undefined
  return url.href
}

function lastSegment(address: string): string | undefined {
  try {
    return new URL(address).pathname.split('/').filter(Boolean).at(-1)?.replace(/^@/, '')
  } catch {
    return undefined
  }
}
