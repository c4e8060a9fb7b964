/**
 * The demo service's list orders and search over the catalogue's artists: each
 * sort order (with each filter) built once, and again after artists come or
 * go; searches remembered until the artists change.
 */
import { SORT_ORDERS, type SortOrder } from '../core/shared/catalogue'
import { searchWords as words } from '../core/shared/text'
import type { ArtistRecord } from './generate'

export class ArtistIndex {
  /** Order of artist indexes per sort and filter. */
  private orders = new Map<string, Uint32Array>()
  private trendingRank = new Uint32Array(0)
  private searchWords: { names: string[]; rest: string[] }[] | undefined
  private readonly searchCache = new Map<string, Uint32Array>()

  /** artists: the catalogue's own list, read live. */
  constructor(private readonly artists: readonly ArtistRecord[]) {}

  /** The artists' indexes in a sort order, with a filter. */
  order(sort: SortOrder, isPodcaster: 0 | 1 | undefined, includeBlank: boolean): Uint32Array {
    return this.orders.get(orderKey(sort, isPodcaster, includeBlank))!
  }

  /** An artist's profile text changed: its words are read again, and searches computed again. */
  textChanged(): void {
    this.searchWords = undefined
    this.searchCache.clear()
  }

  /** Orders again after artists come, go or change their counts; searches are computed again. */
  rebuild(): void {
    const live = this.artists.filter((artist) => !artist.removed)
    this.orders = new Map()
    for (const sort of SORT_ORDERS) {
      const key = sortKey(sort)
      const sorted = [...live].sort((a, b) => key(b) - key(a) || a.index - b.index)
      for (const isPodcaster of [undefined, 0, 1] as const) {
        for (const includeBlank of [false, true]) {
          const indexes = sorted
            .filter((a) => (includeBlank || a.numTracks > 0) && (isPodcaster === undefined || a.isPodcaster === (isPodcaster === 1)))
            .map((a) => a.index)
          this.orders.set(orderKey(sort, isPodcaster, includeBlank), Uint32Array.from(indexes))
        }
      }
    }
    const trending = this.orders.get(orderKey('trending', undefined, true))!
    this.trendingRank = new Uint32Array(this.artists.length).fill(0xffffffff)
    trending.forEach((index, rank) => (this.trendingRank[index] = rank))
    this.searchCache.clear()
  }

  /**
   * Relevancy: every word of the query must begin a word of the artist's text;
   * a word found in the username or display name scores far above one found
   * only in the bio or location. Ties keep the trending order.
   */
  search(folded: string, isPodcaster: 0 | 1 | undefined, includeBlank: boolean): Uint32Array {
    const cacheKey = `${folded}\u0000${isPodcaster}\u0000${includeBlank}`
    const cached = this.searchCache.get(cacheKey)
    if (cached) return cached
    this.searchWords ??= this.artists.map((a) => ({
      names: words(`${a.username} ${a.pfName}`),
      rest: words(`${a.pfBio} ${a.location.name}`),
    }))
    const queryWords = words(folded)
    const hits: { index: number; score: number }[] = []
    for (const artist of this.artists) {
      if (queryWords.length === 0) break
      if (artist.removed || (!includeBlank && artist.numTracks === 0)) continue
      if (isPodcaster !== undefined && artist.isPodcaster !== (isPodcaster === 1)) continue
      const text = this.searchWords[artist.index]!
      let score = 0
      for (const word of queryWords) {
        if (text.names.some((candidate) => candidate.startsWith(word))) score += 100
        else if (text.rest.some((candidate) => candidate.startsWith(word))) score += 1
        else {
          score = 0
          break
        }
      }
      if (score > 0) hits.push({ index: artist.index, score })
    }
    hits.sort((a, b) => b.score - a.score || this.trendingRank[a.index]! - this.trendingRank[b.index]!)
    const result = Uint32Array.from(hits, (hit) => hit.index)
    if (this.searchCache.size > 256) this.searchCache.clear()
    this.searchCache.set(cacheKey, result)
    return result
  }
}

function orderKey(sort: SortOrder, isPodcaster: 0 | 1 | undefined, includeBlank: boolean): string {
  return `${sort}/${isPodcaster ?? '-'}/${includeBlank ? 1 : 0}`
}

function sortKey(sort: SortOrder): (artist: ArtistRecord) => number {
  switch (sort) {
    case 'trending':
      return (a) => a.trending
    case 'top':
      return (a) => a.top
    case 'recently_created':
      return (a) => a.createdAt
    case 'recently_updated':
      return (a) => a.updatedAt
  }
}
