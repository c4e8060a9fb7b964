// The words beside "Download all" and "Download all new": the free-space check, and for What's
// new, nothing to do once no track is missing, whatever an older estimate still says.
import { describe, expect, it } from 'vitest'
import { downloadNewVerdict, downloadVerdict } from '../../src-renderer/format/download-all'

const FITS = { files: 2, bytes: 3_000_000, freeBytes: 10_000_000_000, fits: true }

describe('downloadNewVerdict', () => {
  it('is done with nothing missing, even with an estimate that has files left', () => {
    expect(downloadNewVerdict(0, FITS, 3_000_000)).toEqual({ fits: true, done: true, text: 'Everything new is downloaded or queued' })
  })

  it('is the artist screen check while tracks are missing', () => {
    expect(downloadNewVerdict(2, FITS, 3_000_000)).toEqual(downloadVerdict(FITS, 3_000_000))
    expect(downloadNewVerdict(2, null, 3_000_000)).toEqual({ fits: true, done: false, text: '3 MB in all' })
    expect(downloadNewVerdict(2, { ...FITS, fits: false }, 3_000_000).fits).toBe(false)
  })
})
