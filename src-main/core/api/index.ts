/** The catalogue service client: everything the rest of the app uses of core/api. */
export { createCatalogueClient } from './client'
export type { CallOptions, CatalogueClient, CatalogueClientOptions } from './client'
export {
  BadResponseError,
  CatalogueError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ServerError,
} from './errors'
export { SORT_ORDERS } from './query'
export type { ListArtistsQuery, SortOrder } from './query'
export type { RetryEvent } from './retry'
export type { AccessLevel, ArtistDetail, ArtistList, Item, ListArtist, ListItem, Upload } from './schemas'
