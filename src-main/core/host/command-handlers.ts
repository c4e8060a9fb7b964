/**
 * The channels the core's writer answers: everything that changes the
 * session, the cache, the queue or the settings. Each forwards to the session
 * or its library, which check their own arguments. A call made while the
 * service switches waits for the new one.
 */
import type { AppSession } from '../session'
import type { HandlersAt } from '../shared/contract'

export function commandHandlers(session: AppSession): HandlersAt<'command'> {
  const library = () => session.library
  const handlers: HandlersAt<'command'> = {
    'catalogue:refreshArtist': (username) => library().catalogue.refreshArtist(username),
    'sync:start': (options) => library().sync.start(options),
    'sync:cancel': () => library().sync.cancel(),
    'downloads:enqueue': (request) => library().downloads.enqueue(request),
    'downloads:estimate': (request) => library().downloads.estimate(request),
    'downloads:pause': (ids) => library().downloads.pause(ids),
    'downloads:pauseAll': () => library().downloads.pauseAll(),
    'downloads:resume': (ids) => library().downloads.resume(ids),
    'downloads:resumeAll': () => library().downloads.resumeAll(),
    'downloads:cancel': (ids) => library().downloads.cancel(ids),
    'downloads:retry': (ids) => library().downloads.retry(ids),
    'downloads:redownload': (ids) => library().downloads.redownload(ids),
    'downloads:remove': (ids) => library().downloads.remove(ids),
    'downloads:move': (ids, place) => library().downloads.move(ids, place),
    'downloads:clearCompleted': () => library().downloads.clearCompleted(),
    'downloads:resumeQueue': () => library().downloads.resumeQueue(),
    'follows:follow': (username, options) => library().follows.follow(username, options),
    'follows:unfollow': (username) => void library().follows.unfollow(username),
    'follows:setAutoDownload': (username, on) => library().follows.setAutoDownload(username, on),
    'settings:set': (patch) => session.updateSettings(patch),
    'caches:clear': (file) => session.clearCache(file),
  }
  return Object.fromEntries(
    Object.entries(handlers).map(([channel, handler]) => [
      channel,
      async (...args: unknown[]) => {
        await session.whenReady()
        return (handler as (...values: unknown[]) => unknown)(...args)
      },
    ]),
  ) as HandlersAt<'command'>
}
