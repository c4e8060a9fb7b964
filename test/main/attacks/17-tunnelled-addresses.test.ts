/**
 * Attack 17: the address guard (attack 11) let through addresses that reach the user's own machine
 * or network by another route: 6to4 (2002::/16 carrying a private IPv4), local-use NAT64
 * (64:ff9b:1::/48), Teredo (2001::/32), the IETF's 192.0.0.0/24 and the benchmarking 198.18.0.0/15.
 * A hostile catalogue on the internet could name any of them as a hotlink, an avatar or a redirect.
 * The table below is checked on the guard's own test of an address, and one of each through a request.
 */
import { describe, expect, test } from 'vitest'
import { createAddressGuard, isPrivateAddress } from '../../../src-main/core/api/address-guard'

const refused: [string, string][] = [
  ['2002:7f00:1::', '6to4 carrying 127.0.0.1'],
  ['2002:c0a8:101::1', '6to4 carrying 192.168.1.1'],
  ['2002:a9fe:a9fe::', '6to4 carrying 169.254.169.254 (cloud metadata)'],
  ['2002:0a00:0001:1234::5', '6to4 carrying 10.0.0.1'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['64:ff9b:1:ffff::1', 'local-use NAT64, anywhere in its /48'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001::1', 'Teredo'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking, the /15'],
  ['::ffff:198.18.0.1', 'benchmarking, IPv4-mapped'],
  ['64:ff9b::c000:8', 'well-known NAT64 carrying 192.0.0.8'],
]

const allowed: [string, string][] = [
  ['2002:cb00:7105::', '6to4 carrying 203.0.113.5 (public)'],
  ['2002:808:808::1', '6to4 carrying 8.8.8.8'],
  ['2001:db9::1', 'just past Teredo'],
  ['2001:1::1', 'just past Teredo'],
  ['64:ff9b:2::1', 'past local-use NAT64'],
  ['192.0.1.1', 'past 192.0.0.0/24'],
  ['198.17.255.255', 'before 198.18.0.0/15'],
  ['198.20.0.1', 'after 198.18.0.0/15'],
  ['203.0.113.5', 'public'],
  ['2606:4700::1111', 'public IPv6'],
]

describe('attack 17: addresses that reach inside by a tunnel or a special range', () => {
  test.each(refused)('%s (%s) is not the internet', (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  test.each(allowed)('%s (%s) is the internet', (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })

  test('a catalogue on the internet cannot point the app at any of them, by literal or by name', async () => {
    const guard = createAddressGuard('https://catalogue.test/', async (hostname) =>
      hostname === 'catalogue.test' ? [{ address: '203.0.113.5', family: 4 }] : [{ address: '2002:c0a8:101::1', family: 6 }],
    )
    for (const [address] of refused) {
      const host = address.includes(':') ? `[${address}]` : address
      await expect(guard.checkUrl(new URL(`http://${host}/track.mp3`))).rejects.toThrow(/refused to connect/)
    }
    const looked = await new Promise<Error | null>((resolve) => guard.lookup('router.test', { all: true }, (error) => resolve(error)))
    expect(looked?.message).toMatch(/refused to connect to router\.test \(2002:c0a8:101::1\)/)
  })
})
