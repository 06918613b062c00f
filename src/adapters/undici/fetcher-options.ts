import { isPublicAddress } from './address-policy.js';
import { systemLookup, type AddressCheck, type LookupAll } from './guarded-connector.js';

export interface UndiciFetcherOptions {
  /**
   * Lift the address rule: allow loopback, private, link-local and other non-public addresses.
   * For tests and self-hosting next to the sources (`FEEDMILL_ALLOW_PRIVATE_NETWORKS`).
   * @default false
   */
  allowPrivateNetworks?: boolean;
  /**
   * The most bytes a body may have **after decompression**; more ends in `body_too_large`.
   * @default 20 * 1024 * 1024 (20 MiB)
   */
  maxBodyBytes?: number;
  /**
   * How many redirects one fetch follows; one more ends in `too_many_redirects`.
   * @default 5
   */
  maxRedirects?: number;
  /**
   * Deadline for the whole fetch (DNS, connect, every redirect, headers and body), in milliseconds.
   * @default 15000
   */
  timeoutMs?: number;
  /**
   * The feedmill version named in the default `User-Agent`.
   * @default '0.0.0-dev'
   * @example '1.4.2'
   */
  version?: string;
  /**
   * Where a site owner who sees our requests can learn who sends them: the deployment's public
   * URL. Named in the default `User-Agent`; the operator runs the crawler, not the project, so the
   * project's own address would be the wrong one to give.
   * @example 'https://feeds.example.org'
   */
  contact?: string;
  /**
   * The `User-Agent` header sent to sources.
   * @default `feedmill/${version} (+${contact})`, or `feedmill/${version}` without a contact
   */
  userAgent?: string;
  /**
   * Test seam: resolves a host name to all its addresses.
   * @default dns.lookup(hostname, { all: true })
   * @internal
   */
  lookup?: LookupAll;
  /**
   * Test seam: the address rule used when `allowPrivateNetworks` is false.
   * @default isPublicAddress
   * @internal
   */
  isAddressAllowed?: AddressCheck;
}

/** The options with every default applied and every number checked. */
export interface FetcherSettings {
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly lookup: LookupAll;
  readonly isAddressAllowed: AddressCheck;
  /** The address rule is lifted: nothing needs resolving before a connection. */
  readonly allowPrivateNetworks: boolean;
}

export function resolveFetcherOptions(options: UndiciFetcherOptions): FetcherSettings {
  const version = options.version ?? '0.0.0-dev';
  return {
    maxBodyBytes: checkedInteger('maxBodyBytes', options.maxBodyBytes ?? 20 * 1024 * 1024, 1),
    maxRedirects: checkedInteger('maxRedirects', options.maxRedirects ?? 5, 0),
    timeoutMs: checkedInteger('timeoutMs', options.timeoutMs ?? 15_000, 1),
    userAgent: options.userAgent ?? (options.contact === undefined ? `feedmill/${version}` : `feedmill/${version} (+${options.contact})`),
    lookup: options.lookup ?? systemLookup,
    isAddressAllowed: options.allowPrivateNetworks === true ? () => true : (options.isAddressAllowed ?? isPublicAddress),
    allowPrivateNetworks: options.allowPrivateNetworks === true,
  };
}

function checkedInteger(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`Expected \`${name}\` to be an integer of at least ${min}, got \`${String(value)}\``);
  }
  return value;
}
