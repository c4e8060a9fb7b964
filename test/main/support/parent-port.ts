/**
 * Preloaded (node --import) into the Node process that stands in for Electron's utility process
 * (fake-electron.ts), so that the host takes the path it takes in the app: Electron's
 * `process.parentPort`, here over Node's IPC channel. As in Electron (lib/utility/parent-port.ts,
 * lib/utility/init.ts): an EventEmitter whose 'message' events carry `{ data, ports }`, started when
 * the first 'message' listener comes and paused when the last goes, and `postMessage` to send.
 * A utility process has no Node IPC channel, so `process.send` is taken away: nothing can talk past it.
 * The host's writer thread (a worker, which inherits this preload) has neither.
 */
import { EventEmitter } from 'node:events'
import { isMainThread } from 'node:worker_threads'

if (isMainThread && process.send) {
  const send = process.send.bind(process)
  const deliver = (message: unknown): void => void parentPort.emit('message', { data: message, ports: [] })
  const parentPort = Object.assign(new EventEmitter(), {
    postMessage: (message: unknown): void => {
      // Like a closed port, once main has gone: the message goes nowhere.
      if (process.connected) send(message)
    },
    start: (): void => void process.on('message', deliver),
    pause: (): void => void process.off('message', deliver),
  })
  parentPort.on('newListener', (name: string) => {
    if (name === 'message' && parentPort.listenerCount('message') === 0) parentPort.start()
  })
  parentPort.on('removeListener', (name: string) => {
    if (name === 'message' && parentPort.listenerCount('message') === 0) parentPort.pause()
  })
  Object.defineProperty(process, 'parentPort', { enumerable: true, writable: false, value: parentPort })
  process.send = undefined
}
