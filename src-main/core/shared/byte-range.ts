/**
 * The one reading of a Range request header (RFC 9110, section 14), for
 * everything that serves files by byte ranges: the window's media (main-process/media.ts,
 * in the app and the web bridge) and the demo catalogue's files. Node-free.
 */

/** One byte range, both ends included. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * A Range header against a file of `size` bytes: one range, or 'unsatisfiable'
 * (answer 416 with `Content-Range: bytes *\/size`), or undefined for the whole
 * file. The whole file is also the answer to several ranges, another unit, a
 * range whose end is before its start, or a header that does not parse: a
 * server may ignore a Range it does not want to serve, and one range is all a
 * player asks for. Numbers too large to be exact are past any file's end.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === null || header === undefined) return undefined
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return undefined
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return undefined
  if (first === '') {
    // A suffix: the last n bytes (all of them when n is larger than the file).
    const length = Number(last)
    if (length === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? Infinity : Number(last)
  if (end < start) return undefined // Invalid, not unsatisfiable: ignored.
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}
