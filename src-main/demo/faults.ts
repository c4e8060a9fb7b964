/**
 * Fault injection for tests: each rule applies to the next `times` requests
 * whose path matches, then expires. Rules are checked in the order they were added.
 */

export type Fault =
  /** Answers with this status (429, 500, 503...) and a JSON error body, optionally with Retry-After. */
  | { kind: 'status'; status: number; retryAfter?: number | string }
  /** Sends the body at this many bytes per second. */
  | { kind: 'slow'; bytesPerSecond: number }
  /** Answers only after this many milliseconds, headers and all: a service (or a machine) too busy to answer for a while. */
  | { kind: 'delay'; ms: number }
  /** Sends the headers and this many bytes of the body, then drops the connection. */
  | { kind: 'drop'; afterBytes: number }
  /** Sends half of the body after headers that promise all of it, then drops the connection. */
  | { kind: 'truncated' }
  /** Answers 200 with a complete body that is not valid JSON. */
  | { kind: 'malformed' }
  /** Serves the whole file with 200 even when a byte range was asked for. */
  | { kind: 'ignoreRange' }
  /** Answers exactly this: for example a redirect, or JSON of the wrong shape. */
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string }

export interface FaultRule {
  /** A pathname pattern: a RegExp, or a string where `*` stands for any characters. */
  path: string | RegExp
  /** How many matching requests the fault applies to (default 1). */
  times?: number
  fault: Fault
}

interface ActiveRule {
  pattern: RegExp
  remaining: number
  fault: Fault
}

export class FaultInjector {
  private rules: ActiveRule[] = []

  /** Adds a rule; it applies to the next matching requests. */
  add(rule: FaultRule): void {
    const times = rule.times ?? 1
    if (!Number.isInteger(times) || times < 1) throw new Error('times must be a positive integer')
    this.rules.push({ pattern: toPattern(rule.path), remaining: times, fault: rule.fault })
  }

  clear(): void {
    this.rules = []
  }

  /** Requests still to be hit by faults, summed over all rules. */
  pending(): number {
    return this.rules.reduce((sum, rule) => sum + rule.remaining, 0)
  }

  /** The fault for this request, if a rule matches; using it counts against the rule. */
  take(pathname: string): Fault | undefined {
    const rule = this.rules.find((candidate) => candidate.pattern.test(pathname))
    if (!rule) return undefined
    rule.remaining--
    if (rule.remaining === 0) this.rules = this.rules.filter((candidate) => candidate !== rule)
    return rule.fault
  }
}

function toPattern(path: string | RegExp): RegExp {
  if (path instanceof RegExp) return path
  const escaped = path.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${escaped.join('.*')}$`)
}
