import type { Feed, FetchState } from './feed.js';

/**
 * A feed is polled on schedule unless its owner paused it or it was disabled after failing for
 * too long. Either kind is still refreshed on demand (POST /v1/feeds/:id/refresh).
 */
export const isPolled = (feed: Pick<Feed, 'settings' | 'fetch'>): boolean => !feed.settings.paused && !feed.fetch.disabled;

/**
 * The fetch state after one more failure: the run of failures keeps the time it began, and a run
 * that has lasted `disableAfterSeconds` or more disables the feed with the last error as reason.
 * A disabled feed stays disabled (with its first reason) until it is resumed.
 */
export function afterFailure(state: FetchState, now: Date, disableAfterSeconds: number): FetchState {
  const failingSince = state.failingSince ?? now.toISOString();
  const failingFor = (now.getTime() - Date.parse(failingSince)) / 1000;
  const reason = `Failing since ${failingSince}: ${state.lastError?.message ?? state.lastStatus ?? 'the source could not be read'}`;
  const disabled = state.disabled ?? (failingFor >= disableAfterSeconds ? { at: now.toISOString(), reason } : undefined);
  return { ...state, failingSince, ...(disabled ? { disabled } : {}) };
}

/** What a fetch that reached the source clears: the run of failures, and a disable it ended. */
export const clearedFailures = (state: FetchState): FetchState => {
  const { failingSince: _since, disabled: _disabled, ...rest } = state;
  return rest;
};
