// The contract's types for the renderer, which may import only src-preload/ and core/shared/.
export type { AppInfo, ApiTypes, ArgsOf, CacheInfo, MonthlyBytes, ResultOf, Tagged } from '../src-main/ipc/contract-types'
