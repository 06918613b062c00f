import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { FeedmillError } from '../../domain/errors.js';
import { classifyAddress } from './address-policy.js';

/** Resolves a host name to every address it has, like `dns.lookup(hostname, { all: true })`. */
export type LookupAll = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** Decides whether a connection to one IP address may be opened. */
export type AddressCheck = (address: string) => boolean;

export interface GuardedConnectorOptions {
  readonly lookup: LookupAll;
  readonly isAllowed: AddressCheck;
  readonly connectTimeoutMs: number;
}

export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true });

/**
 * An undici connector that resolves the host itself, drops every address the check refuses, and opens
 * the socket to an address that passed the check. Because the socket goes to the very address that
 * was checked (never to the name, which the OS would resolve again), DNS rebinding cannot swap in a
 * private address between check and connect. IP-literal hosts skip DNS and are checked as they are.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connectToAddress = buildConnector({ timeout: options.connectTimeoutMs });
  return (target, callback) => {
    allowedAddresses(target.hostname, options).then(
      (addresses) => connectInTurn(connectToAddress, target, addresses, 0, callback),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}

/**
 * The addresses of a host, every one of them allowed: an IP literal is checked as it is, a name after
 * DNS. A name with any refused address is refused entirely, even when another of its addresses is
 * public: whoever controls its DNS could otherwise point feedmill at the private one by making the
 * public one fail.
 * @throws FeedmillError `address_not_allowed`; DNS failures as they come (`ENOTFOUND`, `ETIMEDOUT`)
 */
export async function allowedAddresses(
  host: string,
  options: Pick<GuardedConnectorOptions, 'lookup' | 'isAllowed' | 'connectTimeoutMs'>,
): Promise<string[]> {
  // WHATWG URLs keep IPv6 literals in brackets.
  const hostname = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(hostname) !== 0) {
    if (options.isAllowed(hostname)) return [hostname];
    const range = classifyAddress(hostname) ?? 'unknown';
    throw notAllowed(`${hostname} is in the ${range} range`);
  }
  const resolved = await withinTime(options.lookup(hostname), options.connectTimeoutMs, hostname);
  if (resolved.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  const addresses = resolved.map((entry) => entry.address);
  // The resolved addresses stay out of the message: naming them would let anyone map internal DNS.
  if (!addresses.every((address) => options.isAllowed(address))) throw notAllowed(`${hostname} resolves to a non-public address`);
  return addresses;
}

/** A lookup that hangs would otherwise keep undici's connection slot for this origin forever. */
async function withinTime<T>(lookup: Promise<T>, ms: number, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const message = `DNS lookup of ${hostname} took longer than ${ms} ms`;
      reject(Object.assign(new Error(message), { code: 'ETIMEDOUT' }));
    }, ms);
  });
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function notAllowed(what: string): FeedmillError {
  return new FeedmillError(
    'address_not_allowed',
    `Expected an address on the public internet, but ${what} (loopback, private, link-local, multicast ` +
      'or reserved); feedmill does not connect to such addresses unless FEEDMILL_ALLOW_PRIVATE_NETWORKS is true',
  );
}

/** Tries the allowed addresses one after the other, as a browser does, and reports the last failure. */
function connectInTurn(
  connect: buildConnector.connector,
  target: buildConnector.Options,
  addresses: readonly string[],
  index: number,
  callback: buildConnector.Callback,
): void {
  // `host` keeps the original name, so undici still sends it as TLS SNI and checks the certificate against it.
  connect({ ...target, hostname: addresses[index] ?? '' }, (...result) => {
    if (result[0] !== null && index + 1 < addresses.length) {
      connectInTurn(connect, target, addresses, index + 1, callback);
      return;
    }
    callback(...result);
  });
}
