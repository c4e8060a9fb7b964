/** The list endpoint's options and their query string. */

import type { SortOrder } from '../shared/catalogue'

/** Options of GET /api/v1/artists; an option left undefined is not sent, so the service's default applies. */
export interface ListArtistsQuery {
  page?: number
  /** 10 to 50; the service answers 400 otherwise. */
  perPage?: number
  /** Search text; the service then orders by relevancy and ignores sort and reverse. */
  q?: string
  /** 1 for podcasters only, 0 for musicians only. */
  isPodcaster?: 0 | 1
  sort?: SortOrder
  reverse?: boolean
  /** Include artists without tracks. */
  includeBlank?: boolean
}

/** The query string for a list request, with its leading `?`, or '' when every option is left out. */
export function listArtistsQueryString(query: ListArtistsQuery = {}): string {
  const parameters: [string, string | number | undefined][] = [
    ['page', query.page],
    ['per_page', query.perPage],
    ['q', query.q],
    ['is_podcaster', query.isPodcaster],
    ['sort', query.sort],
    ['sort_r', flag(query.reverse)],
    ['include_blank', flag(query.includeBlank)],
  ]
  // encodeURIComponent rather than URLSearchParams: a space becomes %20, which
  // every server decodes, where the form encoding `+` is only a convention.
  const pairs = parameters
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

function flag(value: boolean | undefined): 0 | 1 | undefined {
  return value === undefined ? undefined : value ? 1 : 0
}
