/**
 * The demo catalogue service in a process of its own (as a remote service would be), steered by
 * its parent over IPC: a benchmark asks it for a batch of new uploads at the moment it chooses,
 * for its request counts, and to reset them. Messages: { add: NewUploadsOptions } → AddedUploads[];
 * { counts: true } → the counts; { reset: true } → null. Every answer is { id, value }.
 */
import { startCatalogueService } from '../../src-main/demo/index'

const artists = Number(process.argv[2])
const service = await startCatalogueService({ port: 0, artists, seed: 1 })
process.send!({ ready: service.baseUrl })
process.on('message', (message: { id: number; add?: object; counts?: true; reset?: true }) => {
  let value: unknown = null
  if (message.add) value = service.addUploads(message.add)
  else if (message.counts) {
    const { list, artist, levels, avatar, file, other, total } = service.requests
    value = { list, artist, levels, avatar, file, other, total }
  } else if (message.reset) service.requests.reset()
  process.send!({ id: message.id, value })
})
process.on('disconnect', () => void service.close().then(() => process.exit(0)))
