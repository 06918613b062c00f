import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { resumeDeliveries } from '../app/dispatch-event.js';
import { publishPendingEvents } from '../app/feed-events.js';
import { resumeSchedules } from '../app/resume-schedules.js';
import { resumeDistributions } from '../app/websub-distribute.js';
import { buildHttpApp } from '../http/app.js';
import { deliveryQueueHandler } from '../jobs/delivery-queue.js';
import { refreshFeedHandler } from '../jobs/refresh-feed.js';
import { composeRuntime, type Runtime } from './compose.js';
import { publicUrlOf, type Config } from './config.js';
import { mountGraphql } from './graphql-mount.js';
import { startMetricsServer } from './metrics-server.js';
import { loadTls } from './tls.js';
import { version } from './version.js';

export type Role = 'all' | 'api' | 'worker';

// A worker started apart from the API learns of feeds created since by looking again this often.
const rescanMs = 30_000;

async function startApi(runtime: Runtime, config: Config, log: Logger): Promise<FastifyInstance> {
  const app = await buildHttpApp(runtime.deps, {
    https: await loadTls(config),
    trustProxy: config.trustProxy,
    logger: log,
    ready: () => runtime.ready(),
    version,
    rateLimit: {
      max: config.rateLimit,
      windowMs: config.rateLimitWindow * 1000,
      redis: runtime.rateLimitRedis,
      onCounterSwitch: (local, error) =>
        local
          ? log.warn({ err: error }, 'Redis is unreachable: each API process now counts the rate limit on its own (FEEDMILL_RATE_LIMIT per process) until it answers again')
          : log.info('Redis answers again: the rate limit is counted in Redis, shared by every API process'),
    },
    hstsMaxAge: config.hstsMaxAge,
  });
  // `/graphql` over HTTPS, SSE and WebSockets; `app.close()` ends its subscriptions first.
  mountGraphql(app, runtime.deps, {
    subscriptionCaps: { perConnection: config.graphqlSubscriptionsPerConnection, perAccount: config.graphqlSubscriptionsPerAccount },
    connectionsPerKey: config.graphqlConnectionsPerKey,
  });
  await app.listen({ port: config.port, host: config.host });
  log.info({ url: publicUrlOf(config) }, 'feedmill API is listening (HTTPS only)');
  return app;
}

async function startWorker(runtime: Runtime, config: Config, log: Logger, role: Role): Promise<() => void> {
  const { deps } = runtime;
  // Redis may lose the queues (restarted without its data): then the store schedules them again.
  const rebuild = (what: string, again: () => Promise<number>) => async (): Promise<void> => {
    log.warn(`the ${what} queue was lost from Redis; rebuilding it from the store`);
    log.warn({ count: await again() }, `${what} queue rebuilt`);
  };
  // Deliveries first: the dispatch jobs of events published from here on find their handler.
  const resumeDeliveryQueue = async (): Promise<number> => (await resumeDeliveries(deps)) + (await resumeDistributions(deps));
  await deps.deliveryScheduler.start(deliveryQueueHandler(deps), rebuild('delivery', resumeDeliveryQueue));
  const resumed = await resumeDeliveryQueue();
  if (resumed > 0) log.info({ deliveries: resumed }, 'webhook deliveries and WebSub distributions resumed');
  await deps.scheduler.start(refreshFeedHandler(deps, log), rebuild('refresh', () => resumeSchedules(deps)));
  const pending = await publishPendingEvents(deps);
  if (pending > 0) log.info({ events: pending }, 'published events left over from the last run');
  const count = await resumeSchedules(deps);
  log.info({ feeds: count }, 'feed actors scheduled');
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
  if (role === 'worker' && config.redisUrl === undefined) every(rescanMs, 'the rescan of feeds', () => resumeSchedules(deps));
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}

/**
 * Runs a role until SIGTERM or SIGINT, then shuts down in reverse order of start: stop taking
 * requests (in-flight ones finish), stop taking jobs (running ones finish), then close the pool,
 * the fetcher and the store.
 */
export async function serve(role: Role, config: Config, log: Logger): Promise<void> {
  const runtime = await composeRuntime(config, log, role);
  const probes =
    config.metricsPort === 0
      ? undefined
      : await startMetricsServer({ port: config.metricsPort, host: config.host, metrics: runtime.metrics, ready: () => runtime.ready() });
  const app = role === 'worker' ? undefined : await startApi(runtime, config, log);
  const stopWorker = role === 'api' ? () => undefined : await startWorker(runtime, config, log, role);
  let stopping = false;
  const stop = (signal: string): void => {
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
      await runtime.close();
      await new Promise((resolve) => probes ? probes.close(resolve) : resolve(undefined));
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
