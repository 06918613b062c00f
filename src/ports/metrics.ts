/**
 * What the service counts. Recording is cheap and never fails; the adapter decides the exposition
 * (Prometheus text at /metrics).
 */
export interface Metrics {
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** One refresh: `outcome` is changed, unchanged, not_modified, or an error code. */
  refresh(outcome: string, seconds: number, fresh: number, changed: number): void;
  /** One webhook delivery attempt: succeeded, failed, or given_up. */
  delivery(outcome: string, seconds: number): void;
  /** One job's wait beyond its planned time. */
  jobLag(queue: 'refresh' | 'delivery', seconds: number): void;
  /** Values read at scrape time (queue depth, pool utilisation, bus listeners). */
  gauge(name: string, help: string, read: () => number): void;
  /** The exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}
