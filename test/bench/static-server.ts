/** Reference server for the benchmark: node:http answering fixed bodies of given sizes. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

const [listSize, artistSize] = process.argv.slice(2).map(Number)
const bodies: Record<string, Buffer> = {
  '/list': Buffer.alloc(listSize ?? 1000, 'x'),
  '/artist': Buffer.alloc(artistSize ?? 1000, 'x'),
}
const server = http.createServer((request, response) => {
  const body = bodies[request.url ?? ''] ?? Buffer.from('{}')
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length })
  response.end(body)
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
