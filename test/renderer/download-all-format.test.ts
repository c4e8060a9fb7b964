// The words beside "Download all" and "Download all new": the free-space check, and for What's
// new, nothing to do once no track is missing, whatever an older estimate still says; on an
// artist's page, no verdict while it is worked out, and what was queued once it was.
import { describe, expect, it } from 'vitest'
import { artistDownloadVerdict, downloadNewVerdict, downloadVerdict } from '../../src-renderer/format/download-all'

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

describe('artistDownloadVerdict', () => {
  it('gives no verdict while the estimate is worked out: neither done nor refused', () => {
    const verdict = artistDownloadVerdict({ kind: 'working' }, 3_000_000)
    expect(verdict).toEqual({ fits: true, done: false, working: true, text: 'Working out what is left to download…' })
    expect(verdict.text).not.toMatch(/Everything|fits|free/)
  })

  it('says what was queued, and that nothing is left to queue', () => {
    expect(artistDownloadVerdict({ kind: 'queued', files: 600, bytes: 1_200_000_000 }, 1_200_000_000)).toEqual({
      fits: true,
      done: true,
      text: '600 files queued, 1.2 GB',
    })
    expect(artistDownloadVerdict({ kind: 'queued', files: 1, bytes: 3_000 }, 3_000).text).toBe('1 file queued, 3 kB')
    // Nothing new to queue: every track was downloaded or on its way already.
    expect(artistDownloadVerdict({ kind: 'queued', files: 0, bytes: 0 }, 3_000).text).toBe('Everything is downloaded or queued')
  })

  it('is the free-space check once the estimate is in', () => {
    expect(artistDownloadVerdict({ kind: 'estimate', estimate: FITS }, 3_000_000)).toEqual(downloadVerdict(FITS, 3_000_000))
    expect(artistDownloadVerdict({ kind: 'estimate', estimate: null }, 3_000_000).text).toBe('3 MB in all')
  })
})
