import { isIP } from 'node:net';
import { systemLookup, type LookupAll } from './guarded-connector.js';

/**
 * A lookup that answers the operator's fixed host names (`FEEDMILL_STATIC_HOSTS`) itself and asks
 * DNS for the rest. Its answers pass the same address check as DNS's: it names where a host is, never
 * what may be reached.
 */
export function staticLookup(hosts: ReadonlyMap<string, readonly string[]>, fallback: LookupAll = systemLookup): LookupAll {
  return async (hostname) => {
    const fixed = hosts.get(hostname.toLowerCase());
    return fixed ? fixed.map((address) => ({ address, family: isIP(address) })) : fallback(hostname);
  };
}
