/**
 * TUNESHELF_WEB_TEST_TIMING=fast, for tests only (the end-to-end tests set it
 * on every `npm run web` they start): the session checks whether the service
 * answers every 2 s (every 0.25 s while something waits for it) instead of
 * every 30 s (5 s), and retries a request after 50 ms (doubling up to 0.25 s)
 * instead of 500 ms (up to 30 s). What happens is the same, only sooner: a
 * test that stops and restarts a service does not wait on timers made for a
 * person's network. Never for real use: it asks the service far more often.
 */
import type { TestTiming } from '../core/host/messages'
import { InvalidArgumentError } from '../core/shared/errors'

export const TEST_TIMING_VARIABLE = 'TUNESHELF_WEB_TEST_TIMING'

const FAST: TestTiming = { onlineCheckMs: 2_000, waitingCheckMs: 250, retryBackoffMs: 50, retryMaxDelayMs: 250 }

/** The test timing the environment asks for; undefined (the app's own) when unset. */
export function testTimingFrom(env: NodeJS.ProcessEnv): TestTiming | undefined {
  const value = env[TEST_TIMING_VARIABLE]
  if (value === undefined || value === '') return undefined
  if (value === 'fast') return FAST
  throw new InvalidArgumentError(`${TEST_TIMING_VARIABLE} must be "fast" or unset, not ${JSON.stringify(value)}`)
}
