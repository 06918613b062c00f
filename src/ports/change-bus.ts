import type { FetchState } from '../domain/feed.js';

/**
 * A feed's fetch state as a refresh saved it. It is the whole of what that write changed, so a
 * process holding the feed can take it in place instead of reading the feed again: every refresh
 * writes one, and an event's subscribers on each API replica read the feed right after.
 */
export interface FetchStateChange {
  feedId: string;
  fetch: FetchState;
  fetchUrl: string;
}

/**
 * Which records changed: the feeds and API keys a process wrote, named so that every other process
 * drops what it cached of them, and the fetch states saved, which a cache takes in place.
 * `everything` says notices may have been lost (the connection dropped): whoever caches drops all
 * it holds.
 */
export type ChangeNotice = { feeds: readonly string[]; keys: readonly string[]; fetchStates: readonly FetchStateChange[] } | 'everything';

/**
 * Fan-out of change notices between the processes of one deployment, so that each can keep reads
 * in memory and still see another process's writes. Delivery is at most once; a cache must treat
 * `live === false` as "notices may be missing right now" and read from the store meanwhile.
 */
export interface ChangeBus {
  /**
   * Resolves once the notice has been handed to the bus (the other processes hear it soon after).
   * Never rejects: a notice that cannot be sent is the adapter's to report, and must not fail the
   * write it announces. A feed named in `feeds` and in `fetchStates` of notices sent together is
   * dropped: the other change may be anything.
   */
  publish(changes: { feeds?: readonly string[]; keys?: readonly string[]; fetchStates?: readonly FetchStateChange[] }): Promise<void>;
  /** Returns the function that stops listening. A listener also hears this process's own notices. */
  subscribe(listener: (notice: ChangeNotice) => void): () => void;
  /** True while this process is subscribed and so hears every notice published. */
  readonly live: boolean;
  close(): Promise<void>;
}
