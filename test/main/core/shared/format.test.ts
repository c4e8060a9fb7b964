import { describe, expect, it } from 'vitest'
import { formatBytes, formatDate } from '../../../../src-main/core/shared/format'

describe('formatBytes', () => {
  it('uses decimal units (1 kB = 1,000 bytes), as the service sells its levels', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(999)).toBe('999 B')
    expect(formatBytes(1000)).toBe('1 kB')
    expect(formatBytes(1500)).toBe('1.5 kB')
    expect(formatBytes(1_000_000)).toBe('1 MB')
    expect(formatBytes(2e9)).toBe('2 GB')
    expect(formatBytes(1e12)).toBe('1 TB')
  })

  it('gives three significant figures, without trailing zeros', () => {
    expect(formatBytes(108_000_000)).toBe('108 MB')
    // 4 GiB and 108 MiB, once "4.0 GB" and "108.0 MB" on Downloads but "4.29 GB" and "113 MB" on Tiers.
    expect(formatBytes(4096 * 1024 * 1024)).toBe('4.29 GB')
    expect(formatBytes(108 * 1024 * 1024)).toBe('113 MB')
    expect(formatBytes(12_345_678)).toBe('12.3 MB')
    expect(formatBytes(1_234_567)).toBe('1.23 MB')
  })

  it('moves to the next unit when a figure rounds to 1,000', () => {
    expect(formatBytes(999_999)).toBe('1 MB')
    expect(formatBytes(999_499)).toBe('999 kB')
    expect(formatBytes(999_600_000_000)).toBe('1 TB')
  })

  it('keeps a unit asked for from one of it up, so a figure reads against a limit in that unit', () => {
    expect(formatBytes(4096 * 1024 * 1024, { unit: 'MB' })).toBe('4,295 MB')
    expect(formatBytes(108_000_000, { unit: 'MB' })).toBe('108 MB')
    expect(formatBytes(12_345_678, { unit: 'MB' })).toBe('12.3 MB')
    // Under one of it, in its own unit.
    expect(formatBytes(500_000, { unit: 'MB' })).toBe('500 kB')
  })

  it('writes a limit exactly, in the largest unit it is a whole number of', () => {
    expect(formatBytes(100e6, { exact: true })).toBe('100 MB')
    expect(formatBytes(4096e6, { exact: true })).toBe('4,096 MB')
    expect(formatBytes(4000e6, { exact: true })).toBe('4 GB')
    expect(formatBytes(30e9, { exact: true })).toBe('30 GB')
    expect(formatBytes(1000e9, { exact: true })).toBe('1 TB')
    expect(formatBytes(1500, { exact: true })).toBe('1,500 B')
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
    expect(formatSpeed(1536)).toBe('1.54 kB/s')
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

  it('a track date is shown in the local calendar', async () => {
    const { formatLocalDate } = await import('../../../../src-main/core/shared/format')
    expect(formatLocalDate('2014-03-07T12:00:00.000+00:00', 'en-US')).toBe('Mar 7, 2014')
    expect(formatLocalDate(null)).toBe('—')
  })
})
