import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which proxies in front of the API are trusted to say who the client is (`X-Forwarded-For`) and
 * how it connected (`X-Forwarded-Proto`): none (`false`), the nearest N hops, or the proxies whose
 * addresses fall in a list of addresses and CIDRs (or the names below), as Fastify's `trustProxy`.
 */
export type TrustProxy = false | number | readonly string[];

/** Is the hop-th address from the right (0: the socket's peer) a proxy we trust? */
export type TrustFunction = (address: string, hop: number) => boolean;

/** The names Fastify's `trustProxy` (proxy-addr) accepts for well-known ranges. */
export const namedRanges: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

interface Subnet {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** One entry of a trust list as subnets (an address is a full-length subnet); null when it is none of those. */
export function parseTrustEntry(entry: string): Subnet[] | null {
  const named = namedRanges[entry];
  if (named) return named.flatMap((range) => parseTrustEntry(range) ?? []);
  const [address = '', prefixText, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= bits)) return null;
  return [{ address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' }];
}

/** The trust rule Fastify and the WebSocket upgrade both apply. */
export function trustFunction(trust: TrustProxy): TrustFunction {
  if (trust === false) return () => false;
  // Fastify 5 refuses to trust a bare hop count (any direct client could claim hops); as a
  // function it is explicit: the API must then be reachable only through those proxies.
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  const trusted = new BlockList();
  for (const entry of trust) {
    const subnets = parseTrustEntry(entry);
    if (!subnets) throw new Error(`Expected an IP address, a CIDR or one of ${Object.keys(namedRanges).join(', ')}, got \`${entry}\``);
    for (const subnet of subnets) trusted.addSubnet(subnet.address, subnet.prefix, subnet.family);
  }
  return (address) => {
    const version = isIP(address);
    return version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address: walking from the socket's peer leftwards through `X-Forwarded-For`, the
 * first address not trusted (what Fastify's `request.ip` gives with the same rule). Left-most
 * entries a client wrote itself are never reached while a trusted proxy appended the real one.
 */
export function clientAddressOf(request: IncomingMessage, trust: TrustFunction): string {
  const peer = request.socket.remoteAddress ?? '';
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [peer, ...forwarded.reverse()];
  for (let hop = 0; hop < chain.length - 1; hop += 1) {
    if (!trust(chain[hop] ?? '', hop)) return chain[hop] ?? '';
  }
  return chain[chain.length - 1] ?? '';
}
