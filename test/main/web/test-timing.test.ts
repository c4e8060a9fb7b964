// The test-only timing of `npm run web` (TUNESHELF_WEB_TEST_TIMING): unset is the app's own, "fast" is sooner, anything else is refused.
import { describe, expect, test } from 'vitest'
import { testTimingFrom } from '../../../src-main/web/test-timing'

describe('TUNESHELF_WEB_TEST_TIMING', () => {
  test('unset or empty: the app timing', () => {
    expect(testTimingFrom({})).toBeUndefined()
    expect(testTimingFrom({ TUNESHELF_WEB_TEST_TIMING: '' })).toBeUndefined()
  })

  test('fast: checks and retries well under the app timing (30 s checks, 5 s while waiting, 500 ms first retry)', () => {
    const timing = testTimingFrom({ TUNESHELF_WEB_TEST_TIMING: 'fast' })!
    expect(timing.onlineCheckMs).toBeLessThan(30_000)
    expect(timing.waitingCheckMs).toBeLessThan(5_000)
    expect(timing.retryBackoffMs).toBeLessThan(500)
    expect(timing.retryMaxDelayMs).toBeGreaterThanOrEqual(timing.retryBackoffMs)
  })

  test('anything else: a usage error naming the variable', () => {
    expect(() => testTimingFrom({ TUNESHELF_WEB_TEST_TIMING: 'quick' })).toThrow(expect.objectContaining({ code: 'invalid_argument', message: expect.stringMatching(/TUNESHELF_WEB_TEST_TIMING must be "fast" or unset/) }))
  })
})
