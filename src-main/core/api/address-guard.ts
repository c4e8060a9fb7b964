/**
 * Which addresses the app connects to. A catalogue on the internet has no
 * business pointing the app at the user's own computer or network (a router's
 * admin page, a NAS, the cloud metadata service at 169.254.169.254): unless
 * the catalogue itself is on loopback or a private network, any request whose
 * host is, or resolves to, such an address is refused. That covers hotlinks,
 * avatars and every redirect, since got runs each connection through the
 * lookup below and each request (redirects too) through checkUrl.
 *
 * The check is on the very addresses the connection then uses (got's
 * dnsLookup), so a name cannot resolve one way for the check and another way
 * for the connection; a literal address needs no lookup and is checked before
 * the request. Whether the catalogue is private is decided once, the first
 * time it matters, so a name that later re-resolves inside the network does
 * not change the rule.
 */
import dns from 'node:dns'
import net from 'node:net'
import { BadResponseError } from '../shared/errors'
import { redactUrl } from '../shared/urls'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address of a host name; tests stand in for DNS with their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** IPv4 ranges that are not the internet. BlockList also matches their IPv4-mapped IPv6 forms (::ffff:a.b.c.d). */
const PRIVATE_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches this computer
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT: the provider's network
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (DS-Lite, NAT64 discovery): never a public server
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking networks, used inside labs and appliances
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]
const PRIVATE_IPV6: [string, number][] = [
  ['::', 96], // unspecified, loopback (::1) and the old IPv4-compatible form
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translated inside the operator's own network
  ['2001::', 32], // Teredo: a tunnel whose far end is named by addresses inside it, not a server's own
]

const privateRanges = new net.BlockList()
for (const [address, prefix] of PRIVATE_IPV4) {
  privateRanges.addSubnet(address, prefix, 'ipv4')
  // IPv6 forms that carry an IPv4 address and reach it: well-known NAT64 (64:ff9b::a.b.c.d, RFC 6052)
  // and 6to4 (2002:AABB:CCDD::/48, RFC 3056, the IPv4 address in bits 16 to 48).
  privateRanges.addSubnet(`64:ff9b::${address}`, 96 + prefix, 'ipv6')
  privateRanges.addSubnet(sixToFour(address), 16 + prefix, 'ipv6')
}
for (const [address, prefix] of PRIVATE_IPV6) privateRanges.addSubnet(address, prefix, 'ipv6')

/** The 6to4 prefix (2002:AABB:CCDD::) that carries an IPv4 address. */
function sixToFour(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number]
  const hex = (high: number, low: number): string => ((high << 8) | low).toString(16)
  return `2002:${hex(a, b)}:${hex(c, d)}::`
}

/** True for an IP address on loopback, a private or link-local network, or otherwise not on the internet; false for a public one or a name. */
export function isPrivateAddress(address: string): boolean {
  // A zone (fe80::1%eth0) names the interface, not the address.
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = net.isIP(bare)
  if (family === 0) return false
  return privateRanges.check(bare, family === 6 ? 'ipv6' : 'ipv4')
}

export interface AddressGuard {
  /** got's dnsLookup, as node:net calls it (with `all` under happy eyeballs): resolves, then refuses the host when any address it would connect to is private. */
  lookup: net.LookupFunction
  /** Refuses a URL whose host is a literal private address (no lookup runs for those). */
  checkUrl(url: URL): Promise<void>
  /**
   * Refuses a URL whose host is, or resolves to, a private address: for an address the app hands to
   * the browser (an artist's website), which connects by itself. A name that does not resolve now is
   * let through: the browser will say it cannot reach it.
   */
  checkLink(url: URL): Promise<void>
}

/** The system's resolver, as the connection would use it. */
export const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, order: 'verbatim' })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))

/** The guard for a catalogue at baseUrl. */
export function createAddressGuard(baseUrl: string, resolve: Resolver = systemResolver): AddressGuard {
  const baseHost = hostOf(new URL(baseUrl))
  let decided: Promise<boolean> | undefined

  /** Whether the catalogue is itself on loopback or a private network (then so may its targets be). */
  const catalogueIsPrivate = (): Promise<boolean> => {
    decided ??= (async () => {
      if (net.isIP(baseHost) !== 0) return isPrivateAddress(baseHost)
      if (baseHost === 'localhost' || baseHost.endsWith('.localhost')) return true
      return (await resolve(baseHost)).some(({ address }) => isPrivateAddress(address))
    })().catch(() => {
      // Not known (the name does not resolve now): private targets are refused this time, and it is asked again next time.
      decided = undefined
      return false
    })
    return decided
  }

  const refuseIfPrivate = async (host: string, addresses: string[]): Promise<void> => {
    const inside = addresses.find(isPrivateAddress)
    if (inside === undefined || (await catalogueIsPrivate())) return
    const shown = inside === host ? host : `${host} (${inside})`
    throw new BadResponseError(
      `refused to connect to ${shown}: it is on this computer or its private or local network, and the catalogue ${redactUrl(baseUrl)} is not`,
    )
  }

  return {
    lookup: (hostname, options, callback) => {
      const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0
      resolve(hostname)
        .then(async (all) => {
          const addresses = family === 0 ? all : all.filter((entry) => entry.family === family)
          if (addresses.length === 0) {
            throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
          }
          await refuseIfPrivate(hostname, addresses.map((entry) => entry.address))
          if (options.all) callback(null, addresses)
          else callback(null, addresses[0]!.address, addresses[0]!.family)
        })
        .catch((error: NodeJS.ErrnoException) => callback(error, ''))
    },
    checkUrl: async (url) => {
      const host = hostOf(url)
      if (net.isIP(host) !== 0) await refuseIfPrivate(host, [host])
    },
    checkLink: async (url) => {
      const host = hostOf(url)
      if (net.isIP(host) !== 0) return refuseIfPrivate(host, [host])
      // A catalogue inside the network may link inside it: no need to ask the resolver then.
      if (await catalogueIsPrivate()) return
      const addresses = await resolve(host).catch(() => [])
      await refuseIfPrivate(host, addresses.map((entry) => entry.address))
    },
  }
}

/** A URL's host without IPv6 brackets, as lookups and isIP take it. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
}
