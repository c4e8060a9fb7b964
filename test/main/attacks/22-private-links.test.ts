/**
 * Attack 22: an artist's website in a catalogue on the internet pointed at the user's own machine
 * or network (http://127.0.0.1:8080/admin, http://192.168.1.1/, a name that resolves to 10.0.0.1),
 * and app:openLink handed it to the browser, which would connect from inside. The same rule as the
 * app's own requests (attack 11) now holds for the links it opens: refused, with the reason, and the
 * platform never asked. A catalogue that is itself on a private network may link inside it.
 *
 * The core here answers only settings:get (the service's address): the handler is what is tried,
 * and the resolver stands in for DNS so no name leaves the machine.
 */
import { describe, expect, test } from 'vitest'
import type { Resolver } from '../../../src-main/core/api/address-guard'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'

const names: Record<string, string> = { 'band.test': '203.0.113.7', 'router.test': '10.0.0.1', 'rebind.test': '127.0.0.1' }
const resolver: Resolver = async (hostname) => {
  const address = names[hostname]
  if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return [{ address, family: 4 }]
}

function handlersFor(baseUrl: string) {
  const opened: string[] = []
  const core = { call: async () => ({ baseUrl }) } as unknown as CoreClient
  const platform = { openExternal: async (address: string) => (opened.push(address), true) } as unknown as Platform
  return { openLink: windowHandlers(core, platform, '/nowhere', resolver)['app:openLink'], opened }
}

describe('attack 22: an artist website that points inside', () => {
  test.each([
    'http://127.0.0.1:8080/admin',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://router.test/',
    'https://rebind.test/login',
  ])('%s is refused from a catalogue on the internet', async (value) => {
    const { openLink, opened } = handlersFor('https://203.0.113.5/')
    await expect(openLink({ kind: 'website', value })).rejects.toThrow(/Tuneshelf does not open .*this computer or its private or local network/)
    expect(opened).toEqual([])
  })

  test('a public website opens, and one whose name does not resolve now is left to the browser', async () => {
    const { openLink, opened } = handlersFor('https://203.0.113.5/')
    await expect(openLink({ kind: 'website', value: 'band.test/tour' })).resolves.toEqual({ address: 'https://band.test/tour', opened: true })
    await expect(openLink({ kind: 'website', value: 'https://gone.test/' })).resolves.toMatchObject({ opened: true })
    expect(opened).toEqual(['https://band.test/tour', 'https://gone.test/'])
  })

  test('a catalogue on the private network may link inside it', async () => {
    const { openLink, opened } = handlersFor('http://192.168.1.20:8000/')
    await expect(openLink({ kind: 'website', value: 'http://192.168.1.1/' })).resolves.toMatchObject({ opened: true })
    expect(opened).toEqual(['http://192.168.1.1/'])
  })
})
