import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { feedStates } from '../../domain/feed-health.js';
import type { Metrics } from '../../ports/metrics.js';
import { createBusiestHosts } from './busiest-hosts.js';
import { createFeedStates } from './feed-states.js';

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Prometheus metrics on a registry of our own (never prom-client's global one, so two instances in
 * one process — tests — do not collide).
 */
export function createPrometheusMetrics(options: {
  role: string;
  defaults?: boolean;
  /** Source hosts counted under their own name in `feedmill_fetches_total`; the rest are `other`. @default 50 */
  namedHosts?: number;
  /** Milliseconds since the epoch, for when a feed's counted state expires. @default Date.now */
  now?: () => number;
}): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  registry.setDefaultLabels({ role: options.role });
  if (options.defaults ?? true) collectDefaultMetrics({ register: registry, prefix: 'feedmill_' });
  const registers = [registry];

  const http = new Histogram({
    name: 'feedmill_http_request_duration_seconds',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: latencyBuckets,
    registers,
  });
  const refreshes = new Histogram({
    name: 'feedmill_refresh_duration_seconds',
    help: 'Feed refreshes (fetch, parse, store) by outcome: changed, unchanged, not_modified, or the error code.',
    labelNames: ['outcome'],
    buckets: latencyBuckets,
    registers,
  });
  const items = new Counter({
    name: 'feedmill_items_total',
    help: 'Items stored by refreshes, new or changed.',
    labelNames: ['kind'],
    registers,
  });
  const deliveries = new Histogram({
    name: 'feedmill_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempts by outcome.',
    labelNames: ['outcome'],
    buckets: latencyBuckets,
    registers,
  });
  const fetches = new Counter({
    name: 'feedmill_fetches_total',
    help: 'Feed refreshes by source host and outcome (changed, unchanged, not_modified, superseded, or the error code); the busiest hosts by name, the rest as `other`.',
    labelNames: ['host', 'outcome'],
    registers,
  });
  const busiest = createBusiestHosts(options.namedHosts);
  // The outcomes each named host has a series for, to remove them all when it loses its name.
  const hostOutcomes = new Map<string, Set<string>>();
  const states = createFeedStates();
  new Gauge({
    name: 'feedmill_feeds',
    help: "Feeds by state (active, paused, failing, disabled), as this process's fetches left them, each until its next planned fetch; sum across processes.",
    labelNames: ['state'],
    registers,
    collect() {
      const counts = states.count(now());
      for (const state of feedStates) this.set({ state }, counts[state]);
    },
  });
  const lag = new Histogram({
    name: 'feedmill_job_lag_seconds',
    help: 'How late a job started against its planned time.',
    labelNames: ['queue'],
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers,
  });

  const renders = new Histogram({
    name: 'feedmill_render_page_seconds',
    help: 'Time to render one page in the browser, slot wait excluded, by outcome (rendered or an error code).',
    labelNames: ['outcome'],
    buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
    registers,
  });

  return {
    httpRequest: (route, method, status, seconds) => http.observe({ route, method, status: String(status) }, seconds),
    refresh({ outcome, host, seconds, fresh, changed }) {
      refreshes.observe({ outcome }, seconds);
      const { label, demoted } = busiest.note(host);
      if (demoted !== undefined) {
        for (const gone of hostOutcomes.get(demoted) ?? []) fetches.remove({ host: demoted, outcome: gone });
        hostOutcomes.delete(demoted);
      }
      fetches.inc({ host: label, outcome });
      if (label !== 'other') hostOutcomes.set(label, (hostOutcomes.get(label) ?? new Set()).add(outcome));
      if (fresh > 0) items.inc({ kind: 'new' }, fresh);
      if (changed > 0) items.inc({ kind: 'changed' }, changed);
    },
    feedState: (feedId, state, until) => states.set(feedId, state, until),
    feedRemoved: (feedId) => states.remove(feedId),
    delivery: (outcome, seconds) => deliveries.observe({ outcome }, seconds),
    jobLag: (queue, seconds) => lag.observe({ queue }, Math.max(0, seconds)),
    renderedPage: (outcome, seconds) => renders.observe({ outcome }, seconds),
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    },
    labelledGauge(name, help, label, read) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          // Only the keys read now: a series whose key is gone is not left at its last value.
          this.reset();
          for (const [key, value] of Object.entries(read())) this.set({ [label]: key }, value);
        },
      });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
