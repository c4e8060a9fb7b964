/**
 * Deterministic randomness for the demo catalogue. Only integer arithmetic and
 * Math.imul, so the same seed gives the same numbers on every machine.
 */

/** 32-bit FNV-1a of a string, used to derive independent seeds. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return mix32(hash)
}

/** A strong 32-bit integer finaliser (from murmur3), spreading close inputs apart. */
export function mix32(value: number): number {
  let h = value >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Seed for one named stream of one entity, e.g. deriveSeed(seed, 'tracks', 42). */
export function deriveSeed(seed: number, stream: string, index: number): number {
  return mix32(hashString(stream, seed) ^ Math.imul(index + 1, 0x9e3779b1))
}

/** A small fast generator (sfc32) with helpers for the shapes the catalogue needs. */
export class Random {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: number) {
    this.a = 0x9e3779b9
    this.b = 0x243f6a88
    this.c = 0xb7e15162
    this.d = seed >>> 0
    for (let i = 0; i < 12; i++) this.nextUint32()
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    const span = max - min + 1
    if (span <= 0x100000000) return min + Math.floor((this.nextUint32() / 0x100000000) * span)
    // Spans beyond 32 bits (file sizes of several GiB) take two draws.
    const high = this.nextUint32() / 0x100000000
    const low = this.nextUint32() / 0x100000000 / 0x100000000
    return min + Math.floor((high + low) * span)
  }

  /** True with the given probability (0..1). */
  chance(probability: number): boolean {
    return this.nextUint32() < probability * 0x100000000
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T
  }

  /** Integer spread evenly on a log scale between min and max, so small values dominate. */
  logInt(min: number, max: number): number {
    // V8 computes Math.pow with its own portable code, so this is the same on every machine.
    const steps = 1 << 16
    const position = this.int(0, steps) / steps
    const value = min * Math.pow(max / min, position)
    return Math.min(max, Math.max(min, Math.round(value)))
  }
}
