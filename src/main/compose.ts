import { createHostGate } from '../app/host-gate.js';
import { retryDelayMs } from '../jobs/retry-policy.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createLocalAuthThrottle } from '../adapters/local-auth-throttle/local-auth-throttle.js';
import { createLocalBus } from '../adapters/local-bus/local-bus.js';
import { createLocalScheduler } from '../adapters/local-scheduler/local-scheduler.js';
import { createParserPool } from '../adapters/piscina/parser-pool.js';
import { createPrometheusMetrics } from '../adapters/prometheus/metrics.js';
import type { RedisChangeBus } from '../adapters/redis-bus/index.js';
import { createMemoryOpmlImportStore } from '../adapters/memory-imports/opml-import-store.js';
import { createUndiciFetcher } from '../adapters/undici/fetcher.js';
import { budgetedFetcher } from './fetch-budget.js';
import { createChromiumRenderer } from '../adapters/chromium/renderer.js';
import type { PageRenderer, RendererStatus } from '../ports/page-renderer.js';
import { findChromium } from './chromium-path.js';
import { staticLookup } from '../adapters/undici/static-lookup.js';
import { builtinPlatformRules } from '../domain/platforms/builtin-platform-rules.js';
import { createUndiciWebhookSender } from '../adapters/undici/webhook-sender.js';
import { withFallback } from '../app/auth-throttle.js';
import type { AppDeps } from '../app/deps.js';
import { sharedFeedStore } from '../caches/shared-feed-store.js';
import { sharedKeyStore } from '../caches/shared-key-store.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { Metrics } from '../ports/metrics.js';
import type { Scheduler } from '../ports/scheduler.js';
import { publicUrlOf, type Config } from './config.js';
import { cassandraDependency, dependencyAlarm, isConnectionError, redisDependency, tcpReachable, untilReachable } from './dependencies.js';
import { readinessCheck } from './readiness.js';
import { loadSecretKey } from './secret-key.js';
import { openStores } from './stores.js';
import { version } from './version.js';

export interface Runtime {
  deps: AppDeps;
  metrics: Metrics;
  /** Shared rate-limit counters in cluster mode (FEEDMILL_REDIS_URL); per process otherwise. */
  rateLimitRedis?: Redis;
  ready(): Promise<boolean>;
  /** What `/readyz` says of rendering; a missing browser never makes the process unready. */
  rendering(): RendererStatus;
  /** Closes what `composeRuntime` opened, in reverse order: scheduler, pool, fetcher, store. */
  close(): Promise<void>;
}

const readinessFeed = new TextEncoder().encode('<rss version="2.0"><channel><title>readiness</title></channel></rss>');

const noRendering: RendererStatus = { available: false, queued: 0, inProgress: 0, browserRunning: false, peakMemoryBytes: 0 };

/**
 * The browser renderer, when this process renders (FEEDMILL_RENDER) and finds a Chromium; said at
 * start-up either way, since a feed whose page needs rendering depends on it.
 */
function composeRenderer(config: Config, log: Logger, fetcher: Fetcher, metrics: Metrics): PageRenderer | undefined {
  if (config.render === 'off') {
    log.info('rendering is off (FEEDMILL_RENDER=off): pages whose list a script builds are not rendered here');
    return undefined;
  }
  const chromium = findChromium(config.chromiumPath);
  if ('missing' in chromium) {
    log.info(`rendering is off: ${chromium.missing}; pages whose list a script builds cannot be read (docs/rendering.md)`);
    return undefined;
  }
  log.info({ chromium: chromium.path }, 'rendering pages with Chromium, launched on first use');
  return createChromiumRenderer({
    fetcher,
    executablePath: chromium.path,
    concurrency: config.renderConcurrency,
    timeoutMs: config.renderTimeout * 1000,
    maxRequests: config.renderMaxRequests,
    maxBytes: config.renderMaxBytes,
    maxPages: config.renderMaxPages,
    maxMemoryBytes: config.renderMaxMemory,
    noSandbox: config.renderNoSandbox,
    onPage: (outcome, seconds) => metrics.renderedPage(outcome, seconds),
  });
}

/** The Redis-backed adapters of cluster mode, imported when FEEDMILL_REDIS_URL is set. */
async function loadClusterAdapters(url: string) {
  const [bullmq, bus, throttle, client, imports] = await Promise.all([
    import('../adapters/bullmq/index.js'),
    import('../adapters/redis-bus/index.js'),
    import('../adapters/redis-rate-limit/auth-throttle.js'),
    import('../adapters/redis-rate-limit/client.js'),
    import('../adapters/redis-imports/opml-import-store.js'),
  ]);
  return {
    url,
    createBullmqScheduler: bullmq.createBullmqScheduler,
    createRedisBus: bus.createRedisBus,
    createRedisChangeBus: bus.createRedisChangeBus,
    createRedisAuthThrottle: throttle.createRedisAuthThrottle,
    createRateLimitRedis: client.createRateLimitRedis,
    createImportRedis: imports.createImportRedis,
    createRedisOpmlImportStore: imports.createRedisOpmlImportStore,
  };
}

/** The one place adapters are chosen. */
export async function composeRuntime(config: Config, log: Logger, role: string): Promise<Runtime> {
  const redis = config.redisUrl ? redisDependency(config.redisUrl) : undefined;
  // Cluster mode's clients (ioredis, BullMQ: ~50 MB resident) load only when Redis is configured,
  // so the embedded process a self-hoster starts does not carry them.
  const cluster = config.redisUrl ? await loadClusterAdapters(config.redisUrl) : undefined;
  // Wait for the servers (a line every few seconds), rather than exit or let each client log its retries.
  if (redis) await untilReachable(redis, () => tcpReachable(redis.address, 3_000), log);
  const store =
    config.store === 'cassandra'
      ? await untilReachable(cassandraDependency(config), () => openStores(config), log)
      : await openStores(config);
  // Several Redis clients (two queues, the bus, the rate limit) report every reconnection attempt: one line per interval in all.
  const redisAway = redis ? dependencyAlarm(redis, log) : (): void => undefined;
  const metrics = createPrometheusMetrics({ role });
  // Only an address the operator set: the localhost default would tell a site owner nothing.
  const contact = config.publicUrl === undefined ? {} : { contact: config.publicUrl };
  const fetcher = createUndiciFetcher({
    allowPrivateNetworks: config.allowPrivateNetworks,
    ...(config.staticHosts ? { lookup: staticLookup(config.staticHosts) } : {}),
    maxBodyBytes: config.fetchMaxBytes,
    timeoutMs: config.fetchTimeout * 1000,
    version,
    ...contact,
  });
  const parser = createParserPool({
    tasks: {
      feed: new URL('../../workers/parse-feed-task.js', import.meta.url).href,
      page: new URL('../../workers/extract-page-task.js', import.meta.url).href,
      article: new URL('../../workers/extract-article-task.js', import.meta.url).href,
    },
    maxThreads: config.parserThreads,
    timeoutMs: config.parseTimeout * 1000,
    onError: (error) => log.error({ err: error }, 'a parser thread failed'),
  });
  const renderer = composeRenderer(config, log, fetcher, metrics);
  const webhookSender = createUndiciWebhookSender({
    allowPrivateNetworks: config.allowPrivateNetworks,
    timeoutMs: config.webhookTimeout * 1000,
    version,
    ...contact,
  });
  const jobs = (queue: 'refresh' | 'refresh-render' | 'delivery' | 'fetch-article', what: string): Scheduler => {
    const options = {
      concurrency: config.refreshConcurrency,
      onError: (id: string, error: unknown) => log.error({ err: error, id, queue }, `${what} failed; retrying`),
      onLag: (seconds: number) => metrics.jobLag(queue, seconds),
      retryDelay: retryDelayMs,
    };
    // Cluster mode: one job per id across every worker, surviving restarts; else in-process timers.
    return cluster
      ? cluster.createBullmqScheduler({
          ...options,
          connection: cluster.url,
          queue,
          // The stalled checker runs twice per lock period, so a dead worker's job waits at most ~2 periods.
          lockDurationMs: config.jobLockTimeout * 1000,
          stalledIntervalMs: (config.jobLockTimeout * 1000) / 2,
          onRedisError: (error) => (isConnectionError(error) ? redisAway(error) : log.warn({ err: error, queue }, 'Redis command failed')),
        })
      : createLocalScheduler(options);
  };
  const scheduler = jobs('refresh', 'refresh');
  // Cluster mode only: the refreshes that need a browser, taken by the workers that render.
  const renderScheduler = config.redisUrl ? jobs('refresh-render', 'rendered refresh') : undefined;
  const deliveryScheduler = jobs('delivery', 'webhook delivery');
  const articleScheduler = jobs('fetch-article', 'article fetch');
  const onListenerError = (error: unknown): void => log.error({ err: error }, 'an event listener failed');
  let bus: EventBus;
  if (cluster) {
    const redisBus = cluster.createRedisBus({
      url: cluster.url,
      onError: (error) => (isConnectionError(error) ? redisAway(error) : onListenerError(error)),
    });
    // A publish before the subscription is live would never reach this process's listeners.
    await redisBus.ready();
    bus = redisBus;
  } else {
    bus = createLocalBus(onListenerError);
  }
  // Cluster mode: every process announces its feed and key writes; an API process also keeps the
  // feed and key records its requests read (hosted feeds, GET /v1/feeds/:id, the key check) until
  // such a notice drops them. A single process needs neither: its store reads are local.
  let changes: RedisChangeBus | undefined;
  if (cluster) {
    changes = cluster.createRedisChangeBus({
      url: cluster.url,
      onError: (error) => (isConnectionError(error) ? redisAway(error) : log.warn({ err: error }, 'change notices: Redis failed')),
    });
    await changes.ready();
  }
  const clock = { now: () => new Date() };
  const readCache = role === 'api' ? {} : undefined;
  const feeds = changes ? sharedFeedStore(store.feeds, changes, clock, readCache) : store.feeds;
  const keys = changes ? sharedKeyStore(store.keys, changes, clock, readCache) : store.keys;
  const rateLimitRedis = cluster
    ? cluster.createRateLimitRedis(cluster.url, (error) =>
        isConnectionError(error) ? redisAway(error) : log.warn({ err: error }, 'rate-limit Redis error'),
      )
    : undefined;
  const throttlePolicy = { freeFailures: config.authFailureLimit, freeSources: config.authEmailAddressLimit };
  const localThrottle = createLocalAuthThrottle(throttlePolicy);
  // Cluster mode: one count of failures across every API replica, as for the rate limit.
  const authThrottle =
    rateLimitRedis && cluster
      ? withFallback(cluster.createRedisAuthThrottle({ redis: rateLimitRedis, ...throttlePolicy }), localThrottle, (error) =>
          log.warn({ err: error }, 'authentication throttle: Redis failed; counting failures in this process until it answers'),
        )
      : localThrottle;
  // Cluster mode: an import runs on a worker and any API replica reports its progress, so it lives in Redis.
  const importRedis = cluster
    ? cluster.createImportRedis(cluster.url, (error) =>
        isConnectionError(error) ? redisAway(error) : log.warn({ err: error }, 'OPML import Redis error'),
      )
    : undefined;
  const imports = importRedis && cluster ? cluster.createRedisOpmlImportStore(importRedis) : createMemoryOpmlImportStore();
  const deps: AppDeps = {
    feeds,
    items: store.items,
    keys,
    users: store.users,
    sessions: store.sessions,
    authThrottle,
    bundles: store.bundles,
    idempotency: store.idempotency,
    outbox: store.outbox,
    bus,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    websub: store.websub,
    imports,
    webhookSender,
    deliveryScheduler,
    articleScheduler,
    // One per process: its article jobs and its previews share the per-host limit.
    articleGate: createHostGate({ perHost: config.fullTextPerHost, pauseMs: config.fullTextHostPause }),
    fetcher,
    fetcherWithBudget: (budget) => budgetedFetcher(fetcher, budget),
    ...(renderer ? { renderer } : {}),
    parser,
    scheduler,
    ...(renderScheduler ? { renderScheduler } : {}),
    clock,
    metrics,
    random: (size) => randomBytes(size),
    settings: {
      publicUrl: publicUrlOf(config),
      poll: { minSeconds: config.pollMinInterval, maxSeconds: config.pollMaxInterval },
      keywordSearchUrl: config.keywordSearchUrl,
      secretKey: loadSecretKey(config),
      feedDisableAfterSeconds: config.feedDisableAfter,
      webhookDisableAfterSeconds: config.webhookDisableAfter,
      sessionIdleSeconds: config.sessionIdleTimeout,
      sessionMaxAgeSeconds: config.sessionMaxAge,
      // The operator's rules first: the first match wins, so they can override a built-in row.
      platformRules: [...(config.platformRules?.rules ?? []), ...builtinPlatformRules],
      discoverTimeoutMs: config.discoverTimeout * 1000,
      eventStreamsPerAccount: config.eventStreamsPerAccount,
      fullText: {
        perHost: config.fullTextPerHost,
        hostPauseMs: config.fullTextHostPause,
        perRefresh: config.fullTextPerRefresh,
        maxWaitSeconds: config.fullTextMaxWait,
      },
      websubMaxSubscribers: config.websubMaxSubscribers,
    },
  };
  metrics.labelledGauge('feedmill_refresh_queue_size', 'Feed refreshes waiting or running in this process, by queue.', 'queue', () => ({
    refresh: scheduler.size,
    ...(renderScheduler ? { 'refresh-render': renderScheduler.size } : {}),
  }));
  metrics.gauge('feedmill_delivery_queue_size', 'Webhook deliveries waiting or running in this process.', () => deliveryScheduler.size);
  metrics.gauge(
    'feedmill_article_queue_size',
    'Article fetches (full text) waiting or running in this process.',
    () => articleScheduler.size,
  );
  const rendering = (): RendererStatus => renderer?.status() ?? noRendering;
  metrics.gauge('feedmill_render_available', 'Whether this process can render pages in a browser (1) or not (0).', () =>
    rendering().available ? 1 : 0,
  );
  metrics.gauge('feedmill_render_queue', 'Pages waiting for a rendering slot in this process.', () => rendering().queued);
  metrics.gauge('feedmill_render_in_progress', 'Pages being rendered now in this process.', () => rendering().inProgress);
  metrics.gauge(
    'feedmill_render_browser_peak_memory_bytes',
    "The most resident memory this process's browser held, its child processes together, since start.",
    () => rendering().peakMemoryBytes,
  );
  metrics.gauge('feedmill_parser_pool_utilization', 'Share of the parser pool busy (0 to 1).', () => parser.utilization);
  metrics.gauge(
    'feedmill_event_bus_listeners',
    'Listeners on the event bus in this process (subscriptions, dispatchers).',
    () => bus.listenerCount,
  );
  return {
    deps,
    metrics,
    rateLimitRedis,
    ready: readinessCheck(
      {
        store: () => store.feeds.getById('readiness-probe'),
        // A parse of the smallest feed: the pool's threads start and answer.
        parser: () => parser.parse(readinessFeed, { url: 'https://feedmill.invalid/readiness.xml' }),
        ...(rateLimitRedis ? { redis: () => rateLimitRedis.ping() } : {}),
      },
      2_000,
      (part, error) => log.warn({ err: error, part }, 'not ready'),
    ),
    rendering,
    async close() {
      await scheduler.close();
      await renderScheduler?.close();
      await articleScheduler.close();
      await deliveryScheduler.close();
      await bus.close();
      await changes?.close();
      rateLimitRedis?.disconnect();
      importRedis?.disconnect();
      await parser.close();
      await renderer?.close();
      await fetcher.close();
      await webhookSender.close();
      await store.close();
    },
  };
}
