/** Small HTTP helpers for tests that need to see exactly what the wire carries. */
import http from 'node:http'
import { createHash } from 'node:crypto'

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  /** Set when the connection ended before the body was complete. */
  aborted: boolean
}

/** GET (or another method) with node:http, collecting the body even if the connection drops. */
export function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      let aborted = false
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('aborted', () => (aborted = true))
      response.on('error', () => (aborted = true))
      response.on('close', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          aborted: aborted || !response.complete,
        }),
      )
    })
    request.on('error', reject)
    request.end()
  })
}

export async function getJson<T = unknown>(url: string): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(url)
  const text = await response.text()
  return { status: response.status, body: JSON.parse(text) as T, text }
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** SHA-256 of a whole response body, streamed, with its length. */
export function hashOfUrl(url: string, headers: Record<string, string> = {}): Promise<{ sha256: string; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const hash = createHash('sha256')
        let bytes = 0
        response.on('data', (chunk: Buffer) => {
          hash.update(chunk)
          bytes += chunk.length
        })
        response.on('end', () => resolve({ sha256: hash.digest('hex'), bytes, status: response.statusCode ?? 0 }))
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

/** The service's list-result shapes, as far as the tests read them. */
export interface ListArtist {
  username: string
  num_tracks: number
  pf_name: string
  pf_facebook: string | null
  pf_twitter: string | null
  pf_website: string | null
  pf_bio: string
  avatar: string
  avatar_thumb: string
  location: { id: number; name: string }
  user: { username: string }
  items: { item: { subtype: string; upload: { id: string } } }[]
}

export interface ListBody {
  pages: number
  artists: { artist: ListArtist }[]
}

export interface DetailItem {
  id: string
  title: string
  subtype: string
  upload: { id: string; created_at: string; bytes: number; downloads: number; hotlinks: number; ext: string; hotlink_path: string }
  artist: { username: string }
}

export interface DetailBody extends Omit<ListArtist, 'items' | 'location' | 'user'> {
  items: { item: DetailItem }[]
}
