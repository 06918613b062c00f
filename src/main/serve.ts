import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { resumeDeliveries } from '../app/dispatch-event.js';
import { publishPendingEvents } from '../app/feed-events.js';
import { resumeSchedules } from '../app/resume-schedules.js';
import { resumeDistributions } from '../app/websub-distribute.js';
import { buildHttpApp } from '../http/app.js';
import { isOpmlImportId } from '../domain/opml.js';
import { deliveryQueueHandler } from '../jobs/delivery-queue.js';
import { importOpmlHandler } from '../jobs/import-opml.js';
import type { JobHandler } from '../ports/scheduler.js';
import { resumeArticles } from '../app/article-jobs.js';
import { fetchArticleHandler } from '../jobs/fetch-article.js';
import { startRefreshQueues } from '../jobs/refresh-feed.js';
import { composeRuntime, type Runtime } from './compose.js';
import { publicUrlOf, type Config } from './config.js';
import { mountGraphqlOnDemand } from '../graphql/mount-on-demand.js';
import { mountDashboard } from '../dashboard/mount.js';
import { startMetricsServer } from './metrics-server.js';
import { markRunning } from './running-marker.js';
import { settleHeap } from './settle-heap.js';
import { startupSummary } from './startup-summary.js';
import { loadTls, type TlsPair } from './tls.js';
import { version } from './version.js';
import type { RendererStatus } from '../ports/page-renderer.js';

export type Role = 'all' | 'api' | 'worker';

// A worker started apart from the API learns of feeds created since by looking again this often.
const rescanMs = 30_000;

async function startApi(
  runtime: Runtime,
  config: Config,
  log: Logger,
  tls: TlsPair,
  ready: () => Promise<boolean>,
): Promise<FastifyInstance> {
  const app = await buildHttpApp(runtime.deps, {
    https: { key: tls.key, cert: tls.cert },
    trustProxy: config.trustProxy,
    logger: log,
    ready,
    version,
    rateLimit: {
      max: config.rateLimit,
      windowMs: config.rateLimitWindow * 1000,
      redis: runtime.rateLimitRedis,
      onCounterSwitch: (local, error) =>
        local
          ? log.warn(
              { err: error },
              'Redis is unreachable: each API process now counts the rate limit on its own (FEEDMILL_RATE_LIMIT per process) until it answers again',
            )
          : log.info('Redis answers again: the rate limit is counted in Redis, shared by every API process'),
    },
    hstsMaxAge: config.hstsMaxAge,
    hstsIncludeSubDomains: config.hstsIncludeSubdomains,
  });
  // `/graphql` over HTTPS, SSE and WebSockets, loaded on its first request; `app.close()` ends its subscriptions first.
  mountGraphqlOnDemand(app, runtime.deps, {
    subscriptionCaps: { perConnection: config.graphqlSubscriptionsPerConnection, perAccount: config.graphqlSubscriptionsPerAccount },
    connectionsPerKey: config.graphqlConnectionsPerKey,
  });
  // The web UI at `/dashboard`, over the same use cases.
  await mountDashboard(app, runtime.deps);
  await app.listen({ port: config.port, host: config.host });
  log.debug({ url: publicUrlOf(config) }, 'feedmill API is listening (HTTPS only)');
  return app;
}

/** A delivery-queue handler for OPML import jobs alone; other jobs are left to the worker's queue. */
const importsOnly = (runtime: Runtime): JobHandler => {
  const runImport = importOpmlHandler(runtime.deps);
  return async (job) => (isOpmlImportId(job.id) ? runImport(job) : null);
};

/** How often a long start-up walk says how far it is (a million feeds take about a minute). */
const walkProgressMs = 10_000;

/** Each page of the walk at debug level; at info, one line per `walkProgressMs`, so a small deployment's start says nothing more. */
function walkProgress(log: Logger): (walked: number) => void {
  let lastTold = Date.now();
  return (walked) => {
    log.debug({ feeds: walked }, 'walking the feeds to schedule their refreshes');
    if (Date.now() - lastTold < walkProgressMs) return;
    lastTold = Date.now();
    log.info({ feeds: walked }, 'walking the feeds to schedule their refreshes: still going');
  };
}

/**
 * Starts taking jobs, then walks every feed to make sure each has its refresh (and each pending
 * article its fetch). `stopping` (a SIGTERM meanwhile) cuts the walk short after its page: at 1M
 * feeds it takes about a minute, longer than an orchestrator waits, and the next start walks again.
 */
async function startWorker(runtime: Runtime, config: Config, log: Logger, role: Role, stopping: AbortSignal): Promise<() => void> {
  const { deps } = runtime;
  // Redis may lose the queues (restarted without its data): then the store schedules them again.
  const rebuild = (what: string, again: () => Promise<number>) => async (): Promise<void> => {
    log.warn(`the ${what} queue was lost from Redis; rebuilding it from the store`);
    log.warn({ count: await again() }, `${what} queue rebuilt`);
  };
  // Deliveries first: the dispatch jobs of events published from here on find their handler.
  const resumeDeliveryQueue = async (): Promise<number> => (await resumeDeliveries(deps)) + (await resumeDistributions(deps));
  // A lost queue also lost the dispatch jobs of events not yet dispatched: those are still
  // unpublished in the outbox, and are sent again at once rather than at the next sweep.
  const rebuildDeliveryQueue = async (): Promise<number> => (await resumeDeliveryQueue()) + (await publishPendingEvents(deps));
  await deps.deliveryScheduler.start(deliveryQueueHandler(deps), rebuild('delivery', rebuildDeliveryQueue));
  const resumed = await resumeDeliveryQueue();
  if (resumed > 0) log.info({ deliveries: resumed }, 'webhook deliveries and WebSub distributions resumed');
  // Only a process that renders takes the refreshes that need a browser (docs/rendering.md).
  if (await startRefreshQueues(deps, log, (queue) => rebuild(queue, () => resumeSchedules(deps))))
    log.info('this worker renders: it takes the refresh-render queue');
  // Article fetches (full text) before the refreshes that make more of them.
  await deps.articleScheduler.start(
    fetchArticleHandler(deps),
    rebuild('fetch-article', () => resumeArticles(deps)),
  );
  const articles = await resumeArticles(deps, false, stopping);
  if (articles > 0) log.info({ articles }, 'article fetches resumed');
  const pending = await publishPendingEvents(deps);
  if (pending > 0) log.info({ events: pending }, 'published events left over from the last run');
  const count = stopping.aborted ? 0 : await resumeSchedules(deps, stopping, walkProgress(log));
  log.info(
    { feeds: count },
    stopping.aborted ? 'stopping: the walk of the feeds ended early; the next start walks them all' : 'feed actors scheduled',
  );
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, what: string, task: () => Promise<unknown>): void => {
    const tick = (): void => {
      task().catch((error: unknown) => log.error({ err: error }, `${what} failed`));
    };
    timers.push(setInterval(tick, ms));
  };
  // A worker killed between storing items and publishing their event left it behind; past twice
  // the job lock timeout its job has surely moved on, so a live worker sends it.
  const lockMs = config.jobLockTimeout * 1000;
  every(lockMs, 'the sweep of unpublished events', async () => {
    const sent = await publishPendingEvents(deps, new Date(deps.clock.now().getTime() - 2 * lockMs));
    if (sent > 0) log.warn({ events: sent }, 'published events a stopped worker left behind');
  });
  // A worker apart from an embedded-mode API must look for new feeds; with Redis the API schedules them directly.
  if (role === 'worker' && config.redisUrl === undefined) {
    every(rescanMs, 'the rescan of feeds', () => resumeSchedules(deps));
    every(rescanMs, 'the rescan of article fetches', () => resumeArticles(deps, true));
  }
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}

/**
 * Runs a role until SIGTERM or SIGINT, then shuts down in reverse order of start: stop taking
 * requests (in-flight ones finish), stop taking jobs (running ones finish), then close the pool,
 * the fetcher and the store.
 */
/** `/readyz`'s `rendering` object: snake_case like the rest of the probe port's JSON. */
const renderingReport = (status: RendererStatus) => ({
  available: status.available,
  queued: status.queued,
  in_progress: status.inProgress,
  browser_running: status.browserRunning,
});

export async function serve(role: Role, config: Config, log: Logger): Promise<void> {
  // The probe port first: while Redis or Cassandra is awaited, /healthz answers and /readyz says 503.
  // Filled in once the dependencies answer; the probes read it from the start.
  const composed: { runtime?: Runtime } = {};
  // SIGUSR2 (the chart's preStop hook) asks to drain: /readyz answers 503 so load balancers stop
  // sending requests, while the process goes on serving the ones that still come, until SIGTERM.
  let draining = false;
  const ready = async (): Promise<boolean> => !draining && (composed.runtime ? composed.runtime.ready() : false);
  process.on('SIGUSR2', () => {
    if (!draining) log.info('draining: /readyz answers 503 from now on; requests are still served until SIGTERM');
    draining = true;
  });
  const probes =
    config.metricsPort === 0
      ? undefined
      : await startMetricsServer({
          port: config.metricsPort,
          host: config.host,
          metrics: {
            render: async () =>
              composed.runtime ? composed.runtime.metrics.render() : { contentType: 'text/plain; version=0.0.4', body: '' },
          },
          ready,
          details: () => (composed.runtime ? { rendering: renderingReport(composed.runtime.rendering()) } : {}),
        });
  // Stopped while still waiting for a dependency: nothing was accepted yet, so nothing to drain.
  const early = (signal: string): void => {
    log.info({ signal }, 'stopped before start-up finished');
    process.exit(0);
  };
  process.once('SIGTERM', early);
  process.once('SIGINT', early);
  const started = await composeRuntime(config, log, role);
  composed.runtime = started;
  // `feedmill restore` refuses to replace an embedded store while a process serves from it.
  const unmark = config.store === 'embedded' ? markRunning(config.dataDir) : () => undefined;
  process.off('SIGTERM', early);
  process.off('SIGINT', early);
  // From here on something may be accepted: a signal while the rest starts (an orchestrator scaling
  // down, a test stopping a process the moment it answers) is kept and acted on once started, as a
  // clean shutdown, not by Node's default action of dying mid-write.
  let received: string | undefined;
  const starting = new AbortController();
  let stop = (signal: string): void => {
    received ??= signal;
    starting.abort();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  const tls = role === 'worker' ? undefined : await loadTls(config);
  const app = tls ? await startApi(started, config, log, tls, ready) : undefined;
  const stopWorker = role === 'api' ? () => undefined : await startWorker(started, config, log, role, starting.signal);
  // An embedded-mode API apart from its worker: the imports it takes are queued in this process
  // (its in-process scheduler, its in-memory progress), so it runs them itself.
  if (role === 'api' && config.redisUrl === undefined) await started.deps.deliveryScheduler.start(importsOnly(started));
  // The ports bound, which differ from the configured ones when those are 0 (tests).
  const portOf = (address: ReturnType<NonNullable<typeof probes>['address']> | undefined): number | undefined =>
    address && typeof address === 'object' ? address.port : undefined;
  const summary = startupSummary(role, config, {
    tls: tls?.source,
    httpsPort: portOf(app?.server.address()),
    probesPort: portOf(probes?.address()),
  });
  log.info(summary.fields, summary.message);
  setTimeout(() => settleHeap(log), 5000).unref();
  let stopping = false;
  stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, deadlineSeconds: config.shutdownTimeout }, 'shutting down: finishing requests and jobs in flight');
    // Past the deadline, leave anyway: the orchestrator would kill us a moment later.
    setTimeout(() => {
      log.error('shutdown deadline passed; exiting with work still in flight');
      process.exit(1);
    }, config.shutdownTimeout * 1000).unref();
    stopWorker();
    (async () => {
      await app?.close();
      await started.close();
      unmark();
      await new Promise((resolve) => (probes ? probes.close(resolve) : resolve(undefined)));
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  if (received) stop(received);
}
