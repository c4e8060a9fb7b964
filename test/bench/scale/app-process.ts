/**
 * The app's main process for bench:scale: `startWebApp` as `npm run web` runs it (the web bridge
 * here, the core's host forked beside it), in a process of its own so that the bench's own work
 * (its event-stream reader, its callers, Playwright) never shows in main's processor time or
 * event loop. The bench asks it over IPC for what only main can measure: its processor time
 * (process.cpuUsage()), its event-loop delay (monitorEventLoopDelay) and how many events the
 * host sent it, between a 'measure' and a 'measured'.
 * Usage (forked by app.ts): app-process.ts '{"dataDir": ...}'
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../../src-main/core/startup/node-check'
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'
import { startWebApp } from '../../../src-main/web/app'
import { RENDERER_OUT } from '../../../src-main/web/build'
import type { AppRequest, AppReply, MainFigures } from './app'

/** The monitor's interval: the delay is what passes beyond it. */
const LOOP_RESOLUTION_MS = 2

const { dataDir } = JSON.parse(process.argv[2]!) as { dataDir: string }
const app = await startWebApp({ dataDir, port: 0, rendererDir: RENDERER_OUT, log: (line) => process.stderr.write(`   [app] ${line}\n`) })

let events = 0
app.core.onDidEmit(() => (events += 1))

let window: { loop: IntervalHistogram; cpu: NodeJS.CpuUsage; events: number; started: number } | undefined

const send = (reply: AppReply): void => void process.send!(reply)

process.on('message', (request: AppRequest) => {
  switch (request.type) {
    case 'measure': {
      window?.loop.disable()
      const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })
      loop.enable()
      window = { loop, cpu: process.cpuUsage(), events, started: performance.now() }
      return send({ type: 'measuring', id: request.id })
    }
    case 'measured': {
      const taken = window!
      const cpu = process.cpuUsage(taken.cpu)
      taken.loop.disable()
      // The histogram holds the time between the monitor's ticks (ns).
      const delay = (ns: number): number => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS)
      const figures: MainFigures = {
        seconds: (performance.now() - taken.started) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        events: events - taken.events,
        loop: { mean: delay(taken.loop.mean), p99: delay(taken.loop.percentile(99)), max: delay(taken.loop.max) },
      }
      return send({ type: 'measured', id: request.id, figures })
    }
    case 'close':
      void app.close().then(() => {
        send({ type: 'closed', id: request.id })
        process.exit(0)
      })
      return
  }
})

send({ type: 'ready', url: app.url, origin: app.bridge.origin, token: app.bridge.token, hostPid: app.core.pid! })
