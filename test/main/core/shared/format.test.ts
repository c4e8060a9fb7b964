import { describe, expect, it } from 'vitest'
import { formatBytes, formatDate } from '../../../../src-main/core/shared/format'

describe('formatBytes', () => {
  it('uses binary units with one decimal from KB up', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1023 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(4096 * 1024 * 1024)).toBe('4.0 GB')
  })

  it('shows a dash for what is not a size', () => {
    for (const value of [null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatBytes(value)).toBe('—')
  })
})

describe('formatDate', () => {
  it('keeps the calendar date of the timestamp as written', () => {
    expect(formatDate('2014-03-07T23:32:05.000-05:00')).toBe('2014-03-07')
    expect(formatDate(null)).toBe('—')
    expect(formatDate('yesterday')).toBe('yesterday')
  })
})

describe('the screens\' formats', () => {
  it('speeds, durations and ages read naturally', async () => {
    const { formatAge, formatDuration, formatSpeed } = await import('../../../../src-main/core/shared/format')
    expect(formatSpeed(1536)).toBe('1.5 KB/s')
    expect(formatSpeed(0)).toBe('—')
    expect(formatDuration(0.2)).toBe('1 s')
    expect(formatDuration(45)).toBe('45 s')
    expect(formatDuration(150)).toBe('3 min')
    expect(formatDuration(3600)).toBe('1 h')
    expect(formatDuration(4800)).toBe('1 h 20 min')
    expect(formatDuration(null)).toBe('—')
    const now = Date.UTC(2026, 10, 23, 12)
    expect(formatAge(now - 10_000, now)).toBe('just now')
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 minutes ago')
    expect(formatAge(now - 60 * 60_000, now)).toBe('1 hour ago')
    expect(formatAge(now - 3 * 24 * 3600_000, now)).toBe('3 days ago')
  })

  it('access-level units are decimal, as the service gives them', async () => {
    const { formatGigabytes, formatMegabytes } = await import('../../../../src-main/core/shared/format')
    expect(formatMegabytes(100)).toBe('100 MB')
    expect(formatMegabytes(4096)).toBe('4,096 MB')
    expect(formatMegabytes(4000)).toBe('4 GB')
    expect(formatGigabytes(30)).toBe('30 GB')
    expect(formatGigabytes(1000)).toBe('1 TB')
  })

  it('a track date is shown in the local calendar', async () => {
    const { formatLocalDate } = await import('../../../../src-main/core/shared/format')
    expect(formatLocalDate('2014-03-07T12:00:00.000+00:00', 'en-US')).toBe('Mar 7, 2014')
    expect(formatLocalDate(null)).toBe('—')
  })
})
