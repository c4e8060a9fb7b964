/**
 * The channels the core's host answers from its own read-only connection
 * (reader.ts): the catalogue, the queue's rows, the caches. Each forwards to
 * the same queries the library runs (core/queries.ts).
 */
import { cacheInfos } from '../queries'
import type { HandlersAt } from '../shared/contract'
import type { LibraryReader } from './reader'

export interface QueryContext {
  reader: LibraryReader
  /** The downloads that say "downloading" though nothing transfers them, as the writer last said. */
  interrupted: readonly number[]
  now: () => number
}

export function queryHandlers(context: () => QueryContext): HandlersAt<'query'> {
  const reader = () => context().reader
  return {
    'catalogue:list': (query) => reader().catalogue.listArtists(query),
    'catalogue:artist': (username) => reader().catalogue.getArtist(username),
    'catalogue:levels': () => reader().catalogue.accessLevels(),
    'catalogue:tierFit': (username) => reader().catalogue.tierFit(username),
    'catalogue:status': () => reader().catalogue.status(),
    'catalogue:whatsNew': (limit) => reader().catalogue.whatsNew(limit),
    'catalogue:filterCounts': (query) => reader().catalogue.filterCounts(query),
    'follows:list': () => reader().catalogue.followed(),
    'downloads:list': (state) => reader().downloads.views(state, context().interrupted),
    'downloads:monthlyBytes': () => reader().downloads.monthly(context().now()),
    'caches:list': () => cacheInfos(reader().library.dataDir, reader().library.cacheFile),
  }
}
