import { FeedmillError } from '../domain/errors.js';
import type { SealedFetchOptions } from '../domain/feed.js';
import { summariseFetchOptions, type FetchOptions } from '../domain/fetch-options.js';
import type { SourceAccess } from '../ports/fetcher.js';
import type { AppDeps } from './deps.js';
import { open, seal } from '../crypto/secret-box.js';

/** Fetch options at rest: sealed like webhook secrets, with only what may be shown beside them. */
export const sealFetchOptions = (deps: Pick<AppDeps, 'settings'>, options: FetchOptions | null): SealedFetchOptions | null =>
  options === null ? null : { sealed: seal(deps.settings.secretKey, JSON.stringify(options)), ...summariseFetchOptions(options) };

/** Access for a source at `sourceUrl`: its options go to its own origin only. */
export const accessFor = (sourceUrl: string, options: FetchOptions | null): SourceAccess | undefined =>
  options === null ? undefined : { origin: new URL(sourceUrl).origin, options };

/**
 * A feed's fetch options, opened for the fetcher. A key other than the one that sealed them (a
 * changed FEEDMILL_SECRET_KEY, a data directory whose `secret.key` was lost) opens nothing: that is
 * said plainly, with both ways out, rather than left to surface as an internal error.
 * @throws FeedmillError `fetch_options_unreadable`
 */
export function openFeedAccess(
  deps: Pick<AppDeps, 'settings'>,
  feed: { id: string; sourceUrl: string; settings: { fetchOptions: SealedFetchOptions | null } },
): SourceAccess | undefined {
  const sealed = feed.settings.fetchOptions;
  if (sealed === null) return undefined;
  let options: FetchOptions;
  try {
    options = JSON.parse(open(deps.settings.secretKey, sealed.sealed)) as FetchOptions;
  } catch {
    throw new FeedmillError(
      'fetch_options_unreadable',
      `The fetch options of feed ${feed.id} were sealed with another secret key than this server's; ` +
        'restore the key they were sealed with (FEEDMILL_SECRET_KEY, or `secret.key` in the data directory), ' +
        "or send the feed's `fetch` settings again (PATCH /v1/feeds/:id/settings) to seal them with the current key",
    );
  }
  return accessFor(feed.sourceUrl, options);
}
