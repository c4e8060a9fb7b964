// The shape a store test's stand-in for the window's `api` must have: any part of it, each verb
// taking the contract's own arguments (src-renderer/api.ts derives them from the contract) and
// resolving with a part of the contract's result (a fixture names only the fields the test reads,
// each of its type). Each test's `vi.mock('…/src-renderer/api')` writes
// `api: { … } satisfies MockApi`, so a channel renamed or removed, an argument changed or a result
// field renamed or retyped breaks the test at compile time, not at run time.
import type { Mock, vi } from 'vitest'
import type { Api } from '../../../src-renderer/api'

/** Any part of a value, at every depth; arrays stay arrays (of parts). */
export type DeepPartial<T> = T extends readonly (infer Item)[] ? DeepPartial<Item>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T

type Verb<F> = F extends (...args: infer Args) => Promise<infer Result> ? (...args: Args) => Promise<DeepPartial<Result>> : F

export type MockApi = {
  [K in keyof Api]?: Api[K] extends (...args: never[]) => unknown ? Api[K] : { [V in keyof Api[K]]?: Verb<Api[K][V]> }
}

type Domain = Exclude<keyof Api, 'subscribe'>

/** A verb of the contract as a test may answer it. */
export type MockVerb<D extends Domain, V extends keyof Api[D]> = Verb<Api[D][V]>

/** A `vi.fn()` standing for a verb of the contract: `undefined as unknown as MockFn<'follows', 'list'>`. */
export type MockFn<D extends Domain, V extends keyof Api[D]> = Mock<Extract<MockVerb<D, V>, Parameters<typeof vi.fn>[0] & object>>
