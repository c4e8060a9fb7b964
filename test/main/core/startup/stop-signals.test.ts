// A terminal's Ctrl-C and the copies of it that wrappers pass on are one stop; a later signal is another.
import { afterEach, expect, it } from 'vitest'
import { onStopSignals, SAME_SIGNAL_MS, type StopSignal } from '../../../../src-main/core/startup/stop-signals'

let off: (() => void) | undefined
afterEach(() => off?.())

it('stops on the first signal, takes one within SAME_SIGNAL_MS for a copy of it, and a later one for a second', () => {
  const listeners = process.listenerCount('SIGINT')
  let clock = 1_000
  const calls: string[] = []
  off = onStopSignals(
    (signal: StopSignal) => calls.push(`stop ${signal}`),
    (signal: StopSignal) => calls.push(`again ${signal}`),
    () => clock,
  )
  process.emit('SIGINT', 'SIGINT')
  clock += 30 // tsx's CLI re-sends after 30 ms
  process.emit('SIGINT', 'SIGINT')
  clock += SAME_SIGNAL_MS - 31
  process.emit('SIGTERM', 'SIGTERM')
  expect(calls).toEqual(['stop SIGINT'])
  clock += 1
  process.emit('SIGINT', 'SIGINT')
  expect(calls).toEqual(['stop SIGINT', 'again SIGINT'])
  off()
  off = undefined
  expect(process.listenerCount('SIGINT')).toBe(listeners)
})
