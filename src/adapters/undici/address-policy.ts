import { embeddedIPv4, parseIPv4, parseIPv6 } from './ip-address.js';

/** Which kind of range an IP address falls in. Only `public` may be fetched by default. */
export type AddressRange =
  'public' | 'unspecified' | 'loopback' | 'private' | 'shared' | 'link-local' | 'multicast' | 'broadcast' | 'documentation' | 'reserved';

interface Rule<Address> {
  readonly base: Address;
  readonly bits: number;
  readonly range: AddressRange;
}

function v4(cidr: string, range: AddressRange): Rule<number> {
  const [address = '', bits = ''] = cidr.split('/');
  return { base: parseIPv4(address) ?? Number.NaN, bits: Number(bits), range };
}

function v6(cidr: string, range: AddressRange): Rule<bigint> {
  const [address = '', bits = ''] = cidr.split('/');
  return { base: parseIPv6(address) ?? -1n, bits: Number(bits), range };
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and successors). First match wins.
const ipv4Rules: readonly Rule<number>[] = [
  v4('0.0.0.0/8', 'unspecified'), // "this network", RFC 791
  v4('10.0.0.0/8', 'private'), // RFC 1918
  v4('100.64.0.0/10', 'shared'), // carrier-grade NAT, RFC 6598
  v4('127.0.0.0/8', 'loopback'), // RFC 1122
  v4('169.254.0.0/16', 'link-local'), // RFC 3927; holds the 169.254.169.254 cloud metadata service
  v4('172.16.0.0/12', 'private'), // RFC 1918
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments, RFC 6890
  v4('192.0.2.0/24', 'documentation'), // TEST-NET-1, RFC 5737
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast, deprecated by RFC 7526
  v4('192.168.0.0/16', 'private'), // RFC 1918
  v4('198.18.0.0/15', 'reserved'), // benchmarking, RFC 2544
  v4('198.51.100.0/24', 'documentation'), // TEST-NET-2, RFC 5737
  v4('203.0.113.0/24', 'documentation'), // TEST-NET-3, RFC 5737
  v4('224.0.0.0/4', 'multicast'), // RFC 5771
  v4('255.255.255.255/32', 'broadcast'), // RFC 919
  v4('240.0.0.0/4', 'reserved'), // RFC 1112
];

// IANA IPv6 Special-Purpose Address Registry. Forms that embed an IPv4 address are handled first.
const ipv6Rules: readonly Rule<bigint>[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64, RFC 8215
  v6('100::/64', 'reserved'), // discard-only, RFC 6666
  v6('2001::/23', 'reserved'), // IETF protocol assignments incl. Teredo, RFC 2928 / 4380
  v6('2001:db8::/32', 'documentation'), // RFC 3849
  v6('3fff::/20', 'documentation'), // RFC 9637
  v6('fc00::/7', 'private'), // unique local, RFC 4193
  v6('fe80::/10', 'link-local'), // RFC 4291
  v6('fec0::/10', 'private'), // site-local, deprecated by RFC 3879
  v6('ff00::/8', 'multicast'), // RFC 4291
];

const globalUnicast = v6('2000::/3', 'public');
const ipv4Mapped = v6('::ffff:0:0/96', 'public'); // RFC 4291 §2.5.5.2
const nat64 = v6('64:ff9b::/96', 'public'); // RFC 6052: the last 32 bits are the IPv4 address
const sixToFour = v6('2002::/16', 'public'); // RFC 3056: bits 16–47 are the IPv4 address

function inRule4(address: number, rule: Rule<number>): boolean {
  const shift = 32 - rule.bits;
  return Math.floor(address / 2 ** shift) === Math.floor(rule.base / 2 ** shift);
}

function inRule6(address: bigint, rule: Rule<bigint>): boolean {
  const shift = BigInt(128 - rule.bits);
  return address >> shift === rule.base >> shift;
}

function classifyIPv4(address: number): AddressRange {
  return ipv4Rules.find((rule) => inRule4(address, rule))?.range ?? 'public';
}

function classifyIPv6(address: bigint): AddressRange {
  // An address that carries an IPv4 address is as safe as the IPv4 address it reaches.
  if (inRule6(address, ipv4Mapped) || inRule6(address, nat64)) return classifyIPv4(embeddedIPv4(address, 96));
  if (inRule6(address, sixToFour)) return classifyIPv4(embeddedIPv4(address, 16));
  const special = ipv6Rules.find((rule) => inRule6(address, rule));
  if (special !== undefined) return special.range;
  // Outside 2000::/3 nothing is allocated for global unicast (RFC 4291 §2.4), e.g. IPv4-compatible ::a.b.c.d.
  return inRule6(address, globalUnicast) ? 'public' : 'reserved';
}

/**
 * Classifies an IP address (IPv4 dotted quad or IPv6, brackets and zone allowed), or `undefined` when
 * `address` is not an IP address at all.
 * @example classifyAddress('169.254.169.254') // 'link-local'
 * @example classifyAddress('::ffff:7f00:1') // 'loopback'
 */
export function classifyAddress(address: string): AddressRange | undefined {
  const ipv4 = parseIPv4(address);
  if (ipv4 !== undefined) return classifyIPv4(ipv4);
  const ipv6 = parseIPv6(address);
  return ipv6 === undefined ? undefined : classifyIPv6(ipv6);
}

/** True only for an IP address in a public range: the default rule for every outbound connection. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}
