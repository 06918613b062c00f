import type { FeedState } from '../domain/feed-health.js';

/** One refresh, as the refresh job saw it. */
export interface RefreshRecord {
  /** changed, unchanged, not_modified, superseded, or an error code. */
  outcome: string;
  /** The host the document was fetched from. */
  host: string;
  seconds: number;
  fresh: number;
  changed: number;
}

/**
 * What the service counts. Recording is cheap and never fails; the adapter decides the exposition
 * (Prometheus text at /metrics).
 */
export interface Metrics {
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  refresh(record: RefreshRecord): void;
  /**
   * A fetch in this process left the feed in `state`, which holds until its next planned fetch
   * `until`: then whichever process fetches it says again.
   */
  feedState(feedId: string, state: FeedState, until: Date): void;
  /** The feed was deleted: it is no longer counted by state. */
  feedRemoved(feedId: string): void;
  /** One webhook delivery attempt: succeeded, failed, or given_up. */
  delivery(outcome: string, seconds: number): void;
  /** One job's wait beyond its planned time. */
  jobLag(queue: 'refresh' | 'refresh-render' | 'delivery' | 'fetch-article', seconds: number): void;
  /** One page rendered in a browser: `rendered`, or the error code it ended with. */
  renderedPage(outcome: string, seconds: number): void;
  /** Values read at scrape time (queue depth, pool utilisation, bus listeners). */
  gauge(name: string, help: string, read: () => number): void;
  /** The same, one series per key of what `read` returns, that key as `label` (`feedmill_refresh_queue_size{queue}`). */
  labelledGauge(name: string, help: string, label: string, read: () => Readonly<Record<string, number>>): void;
  /** The exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}
