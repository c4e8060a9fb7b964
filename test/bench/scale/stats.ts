/** Small figures the parts share: percentiles, formats, a timeout, and process CPU from /proc. */
import fs from 'node:fs'

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export const mean = (samples: readonly number[]): number => (samples.length === 0 ? NaN : samples.reduce((sum, value) => sum + value, 0) / samples.length)
export const ms = (value: number): string => `${value.toFixed(1)} ms`
export const s = (value: number): string => `${value.toFixed(1)} s`
export const mbps = (bytesPerSecond: number): string => `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`
export const n = (value: number): string => value.toLocaleString('en')

/** Fails instead of waiting for ever when something never comes. */
export function within<T>(promise: Promise<T>, what: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${(timeoutMs / 1000).toFixed(0)} s`)), timeoutMs)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export const sleep = (msToWait: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, msToWait))

/** The kernel's clock ticks per second for /proc/<pid>/stat (USER_HZ: 100 on Linux everywhere in practice). */
const TICKS = 100

/**
 * Processor seconds (user + system) a process has used, from /proc/<pid>/stat: the core's host
 * is another process, so process.cpuUsage() cannot see it. Fields 14 and 15, after the command's
 * parenthesised name (which may hold spaces).
 */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}
