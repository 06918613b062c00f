import { isIPv4, isIPv6 } from 'node:net';

/**
 * Parses dotted-quad IPv4 (`192.0.2.1`) into an unsigned 32-bit number; `undefined` for anything else.
 * Only the canonical form: `0x7f000001` and `2130706433` are URL spellings, which WHATWG URL parsing
 * has already turned into dotted quads before an address reaches us.
 */
export function parseIPv4(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/**
 * Parses an IPv6 address (optionally in brackets, optionally with a `%zone`) into a 128-bit bigint;
 * `undefined` for anything else. Handles `::` and a dotted-quad tail (`::ffff:127.0.0.1`).
 */
export function parseIPv6(text: string): bigint | undefined {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const address = unbracketed.split('%')[0] ?? '';
  if (!isIPv6(address)) return undefined;
  const groups = expandGroups(withHexTail(address));
  if (groups === undefined) return undefined;
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** The 32 bits of an IPv6 address starting at bit `offset` (0 = most significant), as an IPv4 number. */
export function embeddedIPv4(address: bigint, offset: number): number {
  return Number((address >> BigInt(128 - 32 - offset)) & 0xffffffffn);
}

/** `::ffff:1.2.3.4` → `::ffff:102:304`, so the rest of the parser only sees hex groups. */
function withHexTail(address: string): string {
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (!tail.includes('.')) return address;
  const v4 = parseIPv4(tail);
  if (v4 === undefined) return address;
  return `${address.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
}

function expandGroups(address: string): number[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const [head = '', tail = ''] = halves;
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const zeros = new Array<string>(halves.length === 2 ? missing : 0).fill('0');
  const groups = [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}
