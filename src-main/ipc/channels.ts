/**
 * The names of the IPC channels, `domain:verb`, and of the one event channel:
 * plain data, so the sandboxed preload can bundle them and nothing else. The
 * contract (contract.ts) gives each its argument schema and result type; a
 * test keeps the two lists equal.
 */
export const CHANNELS = [
  'catalogue:list',
  'catalogue:artist',
  'catalogue:refreshArtist',
  'catalogue:levels',
  'catalogue:tierFit',
  'catalogue:status',
  'catalogue:whatsNew',
  'sync:start',
  'sync:cancel',
  'sync:state',
  'downloads:enqueue',
  'downloads:estimate',
  'downloads:pause',
  'downloads:resume',
  'downloads:cancel',
  'downloads:retry',
  'downloads:remove',
  'downloads:list',
  'downloads:state',
  'downloads:resumeQueue',
  'downloads:monthlyBytes',
  'downloads:open',
  'downloads:reveal',
  'downloads:playbackAddress',
  'settings:get',
  'settings:set',
  'settings:pickDownloadFolder',
  'caches:list',
  'caches:clear',
  'app:info',
  'app:online',
  'app:openLink',
  'app:openLog',
  'events:subscribe',
] as const

export type Channel = (typeof CHANNELS)[number]

/** Main sends every event batch on this channel, after the renderer subscribed. */
export const EVENTS_CHANNEL = 'events'
