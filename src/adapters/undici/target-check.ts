import { isFeedmillError } from '../../domain/errors.js';
import { parseWebUrl } from '../../domain/source-url.js';
import type { FetcherSettings } from './fetcher-options.js';
import { allowedAddresses } from './guarded-connector.js';

/**
 * The address rule applied when a target is set, not only when it is reached: the scheme, an IP
 * literal, and every address the name resolves to now. A name that does not resolve yet (or whose
 * lookup fails) is let through: nothing can be reached at it today, and each connection checks again.
 * @throws FeedmillError `invalid_url` or `address_not_allowed`
 */
export function createTargetCheck(settings: FetcherSettings): (target: string) => Promise<void> {
  return async (target) => {
    const url = parseWebUrl(target, { whole: 'the target' });
    if (settings.allowPrivateNetworks) return;
    try {
      await allowedAddresses(url.hostname, {
        lookup: settings.lookup,
        isAllowed: settings.isAddressAllowed,
        connectTimeoutMs: settings.timeoutMs,
      });
    } catch (error) {
      if (isFeedmillError(error)) throw error;
    }
  };
}
