/**
 * Calls the contract over the web bridge as the window does (POST /api/<channel> with the token),
 * timing each call by channel: what the callers of bench:responsiveness and bench:scale share.
 * A refused call is counted among the failures (the first 20 kept) and answers undefined.
 */
export interface TimedCalls {
  /** Milliseconds of each timed call, by channel. */
  times: Record<string, number[]>
  failures: string[]
  call(channel: string, args: unknown[], timed?: boolean): Promise<unknown>
}

type Tagged = { ok: true; value: unknown } | { ok: false; error: { message: string } }

export function timedCalls(origin: string, token: string): TimedCalls {
  const times: Record<string, number[]> = {}
  const failures: string[] = []
  async function call(channel: string, args: unknown[], timed = true): Promise<unknown> {
    const started = performance.now()
    const response = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tuneshelf-token': token },
      body: JSON.stringify(args),
    })
    const result = (await response.json()) as Tagged
    if (timed) (times[channel] ??= []).push(performance.now() - started)
    if (result.ok) return result.value
    if (failures.length < 20) failures.push(`${channel}: ${result.error.message}`)
    return undefined
  }
  return { times, failures, call }
}
