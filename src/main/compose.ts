import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createLocalBus } from '../adapters/local-bus/local-bus.js';
import { createLocalScheduler } from '../adapters/local-scheduler/local-scheduler.js';
import { createParserPool } from '../adapters/piscina/parser-pool.js';
import { createUndiciFetcher } from '../adapters/undici/fetcher.js';
import { createUndiciWebhookSender } from '../adapters/undici/webhook-sender.js';
import type { AppDeps } from '../app/deps.js';
import { publicUrlOf, type Config } from './config.js';
import { loadSecretKey } from './secret-key.js';
import { openStores } from './stores.js';
import { version } from './version.js';

export interface Runtime {
  deps: AppDeps;
  ready(): Promise<boolean>;
  /** Closes what `composeRuntime` opened, in reverse order: scheduler, pool, fetcher, store. */
  close(): Promise<void>;
}

/** The one place adapters are chosen. */
export function composeRuntime(config: Config, log: Logger): Runtime {
  const store = openStores(config);
  const fetcher = createUndiciFetcher({
    allowPrivateNetworks: config.allowPrivateNetworks,
    maxBodyBytes: config.fetchMaxBytes,
    timeoutMs: config.fetchTimeout * 1000,
    version,
  });
  const parser = createParserPool({
    tasks: {
      feed: new URL('../../workers/parse-feed-task.js', import.meta.url).href,
      page: new URL('../../workers/extract-page-task.js', import.meta.url).href,
    },
    maxThreads: config.parserThreads,
    timeoutMs: config.parseTimeout * 1000,
    onError: (error) => log.error({ err: error }, 'a parser thread failed'),
  });
  const webhookSender = createUndiciWebhookSender({
    allowPrivateNetworks: config.allowPrivateNetworks,
    timeoutMs: config.webhookTimeout * 1000,
    version,
  });
  const deliveryScheduler = createLocalScheduler({
    concurrency: config.refreshConcurrency,
    onError: (deliveryId, error) => log.error({ err: error, deliveryId }, 'webhook delivery failed; retrying in a minute'),
  });
  const bus = createLocalBus((error) => log.error({ err: error }, 'an event listener failed'));
  const scheduler = createLocalScheduler({
    concurrency: config.refreshConcurrency,
    onError: (feedId, error) => log.error({ err: error, feedId }, 'refresh failed; retrying in a minute'),
  });
  const deps: AppDeps = {
    feeds: store.feeds,
    items: store.items,
    keys: store.keys,
    bundles: store.bundles,
    idempotency: store.idempotency,
    outbox: store.outbox,
    bus,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    webhookSender,
    deliveryScheduler,
    fetcher,
    parser,
    scheduler,
    clock: { now: () => new Date() },
    random: (size) => randomBytes(size),
    settings: {
      publicUrl: publicUrlOf(config),
      poll: { minSeconds: config.pollMinInterval, maxSeconds: config.pollMaxInterval },
      keywordSearchUrl: config.keywordSearchUrl,
      secretKey: loadSecretKey(config),
      webhookDisableAfterSeconds: config.webhookDisableAfter,
    },
  };
  return {
    deps,
    ready: async () => (await store.keys.get('fmk_readiness-probe0')) === undefined,
    async close() {
      await scheduler.close();
      await deliveryScheduler.close();
      await bus.close();
      await parser.close();
      await fetcher.close();
      await webhookSender.close();
      store.close();
    },
  };
}
