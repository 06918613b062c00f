import type { Feed, FeedError, FetchState } from './feed.js';

/**
 * How a feed is doing. `paused`: its owner stopped polling (settings `paused: true`). `disabled`:
 * it failed for longer than the disable threshold and is polled no more until resumed
 * (feed-lifecycle.ts). `failing`: its last fetch failed (`consecutiveErrors` > 0). Else `active`.
 */
export type FeedState = 'active' | 'paused' | 'failing' | 'disabled';
export const feedStates: readonly FeedState[] = ['active', 'paused', 'failing', 'disabled'];

/**
 * What the last fetch found: `changed` (new or changed items), `unchanged` (the source answered but
 * nothing new was in it), `not_modified` (the source said 304), or the error code of the failure.
 */
export type FetchOutcome = 'changed' | 'unchanged' | 'not_modified' | (string & {});

export interface FeedHealth {
  state: FeedState;
  lastFetchedAt: string | null;
  lastSuccessAt: string | null;
  nextFetchAt: string | null;
  /** null until the first fetch (a feed is created by one, so only on rows older than this field). */
  lastOutcome: FetchOutcome | null;
  consecutiveErrors: number;
  lastError: FeedError | null;
  /** Why and when the feed was disabled; null unless `state` is `disabled`. */
  disabled: { at: string; reason: string } | null;
}

function stateOf(feed: Pick<Feed, 'fetch' | 'settings'>): FeedState {
  if (feed.settings.paused) return 'paused';
  if (feed.fetch.disabled) return 'disabled';
  return feed.fetch.errorCount > 0 ? 'failing' : 'active';
}

/**
 * `ok` is what states stored before `unchanged` was told apart hold: the streak of refreshes that
 * found nothing new says which of the two it was (a refresh with news resets it to 0).
 */
function outcomeOf(fetch: FetchState): FetchOutcome | null {
  if (fetch.lastStatus === 'ok') return fetch.unchangedStreak > 0 ? 'unchanged' : 'changed';
  return fetch.lastStatus ?? null;
}

/** A feed's health, from what its last fetches recorded. */
export function feedHealth(feed: Pick<Feed, 'fetch' | 'settings'>): FeedHealth {
  const { fetch } = feed;
  const state = stateOf(feed);
  return {
    state,
    lastFetchedAt: fetch.lastFetchedAt ?? null,
    lastSuccessAt: fetch.lastSuccessAt ?? null,
    nextFetchAt: fetch.nextFetchAt ?? null,
    lastOutcome: outcomeOf(fetch),
    consecutiveErrors: fetch.errorCount,
    // Absent on states stored before it was recorded.
    lastError: fetch.lastError ?? null,
    disabled: state === 'disabled' ? (fetch.disabled ?? null) : null,
  };
}
