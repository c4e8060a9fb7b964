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
