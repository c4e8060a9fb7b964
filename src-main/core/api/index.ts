/** The catalogue service client: everything the rest of the app uses of core/api. */
export { createCatalogueClient } from './client'
export type { CallOptions, CatalogueClient, CatalogueClientOptions } from './client'
export { createHttp, type Http, type HttpOptions } from './http'
export type { ListArtistsQuery } from './query'
export type { RetryEvent } from './retry'
export type { SkippedEntry } from './lenient'
export type { ArtistDetail, ArtistList, Item, ListArtist, ListItem, Upload } from './schemas'
