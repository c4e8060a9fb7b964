/**
 * The IPC contract's schemas: every channel's arguments, checked in main on
 * every call (by dispatch.ts, for every transport). Their types and the
 * results are in contract-types.ts, which the preload and the renderer read;
 * the compiler keeps each schema equal to its declared arguments.
 */
import * as v from 'valibot'
import { artistListQuerySchema } from '../core/db/artists'
import { enqueueRequestSchema, syncStartSchema } from '../core/library'
import { settingsPatchSchema } from '../core/settings'
import { DOWNLOAD_STATES } from '../core/shared/catalogue'
import { LINK_KINDS } from '../core/shared/links'
import type { SameType } from '../core/shared/types'
import { integerFrom, oneOf } from '../core/validation'
import type { Channel } from './channels'
import type { ApiTypes } from './contract-types'

const none = v.strictTuple([], 'takes no arguments')
const username = v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'), v.maxLength(1000, 'must be at most 1000 characters'))
const ids = v.pipe(
  v.array(integerFrom(1, Number.MAX_SAFE_INTEGER), 'must be a list of download ids'),
  v.minLength(1, 'must name at least one download'),
  v.maxLength(100_000, 'names too many downloads'),
)
const downloadId = integerFrom(1, Number.MAX_SAFE_INTEGER)
const link = v.strictObject({ kind: oneOf(LINK_KINDS), value: v.pipe(v.string('must be text'), v.maxLength(2000, 'must be at most 2000 characters')) })

export const CONTRACT = {
  'catalogue:list': v.strictTuple([v.optional(artistListQuerySchema)]),
  'catalogue:artist': v.strictTuple([username]),
  'catalogue:refreshArtist': v.strictTuple([username]),
  'catalogue:levels': none,
  'catalogue:tierFit': v.strictTuple([username]),
  'catalogue:status': none,
  'catalogue:whatsNew': v.strictTuple([v.optional(integerFrom(1, 1000))]),
  'sync:start': v.strictTuple([v.optional(syncStartSchema)]),
  'sync:cancel': none,
  'sync:state': none,
  'downloads:enqueue': v.strictTuple([enqueueRequestSchema]),
  'downloads:estimate': v.strictTuple([enqueueRequestSchema]),
  'downloads:pause': v.strictTuple([ids]),
  'downloads:resume': v.strictTuple([ids]),
  'downloads:cancel': v.strictTuple([ids]),
  'downloads:retry': v.strictTuple([ids]),
  'downloads:remove': v.strictTuple([ids]),
  'downloads:list': v.strictTuple([v.optional(oneOf(DOWNLOAD_STATES))]),
  'downloads:state': none,
  'downloads:resumeQueue': none,
  'downloads:monthlyBytes': none,
  'downloads:open': v.strictTuple([downloadId]),
  'downloads:reveal': v.strictTuple([downloadId]),
  'downloads:playbackAddress': v.strictTuple([downloadId]),
  'settings:get': none,
  'settings:set': v.strictTuple([settingsPatchSchema]),
  'settings:pickDownloadFolder': none,
  'caches:list': none,
  'caches:clear': v.strictTuple([v.optional(v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty')))]),
  'app:info': none,
  'app:online': none,
  'app:openLink': v.strictTuple([link]),
  'app:openLog': none,
  'events:subscribe': none,
} satisfies Record<Channel, v.GenericSchema>

export type Contract = typeof CONTRACT

/** What a channel's handler receives: its arguments after the schema (defaults filled in). */
export type ValidArgsOf<C extends Channel> = v.InferOutput<Contract[C]>

// Each schema takes exactly the declared arguments (whether a trailing argument may be left out is the schema's to say).
const contractMatchesTypes: { [C in Channel]: true } = {} as { [C in Channel]: SameType<Partial<v.InferInput<Contract[C]>>, Partial<ApiTypes[C]['args']>> }
void contractMatchesTypes

export type { ArgsOf, ResultOf, Tagged } from './contract-types'
