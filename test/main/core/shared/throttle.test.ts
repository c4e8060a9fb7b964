import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { debounce, throttle } from '../../../../src-main/core/shared/throttle'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** What a throttled or debounced function delivered, with the fake clock's time. */
function recorder<T>() {
  const heard: { at: number; value: T }[] = []
  return { heard, deliver: (value: T) => heard.push({ at: performance.now(), value }) }
}

describe('throttle', () => {
  it('delivers the first call at once, then the latest value of a burst at the end of the interval', () => {
    const { heard, deliver } = recorder<number>()
    const throttled = throttle(deliver, 100)
    throttled(1)
    expect(heard).toEqual([{ at: 0, value: 1 }])
    throttled(2)
    throttled(3)
    vi.advanceTimersByTime(99)
    expect(heard).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(heard).toEqual([
      { at: 0, value: 1 },
      { at: 100, value: 3 },
    ])
    // A call after a quiet interval goes at once again.
    vi.advanceTimersByTime(500)
    throttled(4)
    expect(heard.at(-1)).toEqual({ at: 600, value: 4 })
  })

  it('never delivers twice within one interval', () => {
    const { heard, deliver } = recorder<number>()
    const throttled = throttle(deliver, 100)
    for (let t = 0; t < 1000; t += 7) {
      throttled(t)
      vi.advanceTimersByTime(7)
    }
    vi.advanceTimersByTime(100)
    for (let i = 1; i < heard.length; i++) expect(heard[i]!.at - heard[i - 1]!.at).toBeGreaterThanOrEqual(100)
    expect(heard.at(-1)!.value).toBe(994)
  })

  it('with batch, delivers even the first call on a later turn, once for everything called together', () => {
    const { heard, deliver } = recorder<number>()
    const batched = throttle(deliver, 100, { batch: true })
    batched(1)
    batched(2)
    expect(heard).toEqual([])
    vi.advanceTimersByTime(0)
    expect(heard).toEqual([{ at: 0, value: 2 }])
    batched(3)
    vi.advanceTimersByTime(99)
    expect(heard).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(heard.at(-1)).toEqual({ at: 100, value: 3 })
  })

  it('flush delivers a pending value at once, cancel drops it', () => {
    const { heard, deliver } = recorder<number>()
    const throttled = throttle(deliver, 100)
    throttled(1)
    throttled(2)
    throttled.flush()
    expect(heard.map((entry) => entry.value)).toEqual([1, 2])
    throttled.flush()
    expect(heard).toHaveLength(2)
    vi.advanceTimersByTime(10)
    throttled(3)
    throttled.cancel()
    vi.advanceTimersByTime(1000)
    expect(heard.map((entry) => entry.value)).toEqual([1, 2])
  })

  it('takes another clock', () => {
    let clock = 0
    const { heard, deliver } = recorder<number>()
    const throttled = throttle(deliver, 100, { now: () => clock })
    throttled(1)
    throttled(2)
    expect(heard).toHaveLength(1)
    clock = 100
    throttled(3)
    expect(heard.map((entry) => entry.value)).toEqual([1, 3])
  })
})

describe('debounce', () => {
  it('delivers the latest value once no call has come for the delay', () => {
    const { heard, deliver } = recorder<number>()
    const debounced = debounce(deliver, 100)
    debounced(1)
    vi.advanceTimersByTime(60)
    debounced(2)
    vi.advanceTimersByTime(60)
    expect(heard).toEqual([])
    vi.advanceTimersByTime(40)
    expect(heard).toEqual([{ at: 160, value: 2 }])
    vi.advanceTimersByTime(1000)
    expect(heard).toHaveLength(1)
  })

  it('flush delivers a pending value at once, cancel drops it', () => {
    const { heard, deliver } = recorder<string>()
    const debounced = debounce(deliver, 100)
    debounced('a')
    debounced.flush()
    expect(heard).toEqual([{ at: 0, value: 'a' }])
    debounced('b')
    debounced.cancel()
    vi.advanceTimersByTime(1000)
    expect(heard).toHaveLength(1)
  })
})
