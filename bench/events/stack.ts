import { createAuthenticator } from '../../src/app/authenticate.js';
import { createFeed } from '../../src/app/create-feed.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { createWebhook } from '../../src/app/webhooks.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import { startRssSource, type RssSource } from '../../test/fixtures/rss-source.js';
import { createTestDeps, type TestDeps } from '../../test/fixtures/test-deps.js';
import { startGraphqlHttps, type GraphqlHttps } from '../../test/graphql/transport-fixtures.js';
import { wallNow } from './protocol.js';
import { startTimedSink, type TimedSink } from './sink.js';

/** One refresh that found a new item: its event and when it left, all in `wallNow` milliseconds. */
export interface Published {
  eventId: string;
  /** Stamped by the first bus listener, as `bus.publish` calls listeners. */
  publishedAt: number;
  /** When `refreshFeed` resolved (after the bus fan-out and planning the next refresh). */
  resolvedAt: number;
}

export interface Stack {
  readonly env: TestDeps;
  readonly server: GraphqlHttps;
  readonly sink: TimedSink;
  readonly authorization: string;
  readonly feedId: string;
  /** Bus listeners before any subscriber: the stamp. */
  readonly baseline: number;
  /** The source publishes an item, and the feed actor's refresh runs once. */
  publish(title: string): Promise<Published>;
  close(): Promise<void>;
}

/**
 * Embedded mode as `feedmill all` wires it, on 127.0.0.1: the real adapters (SQLite, local bus,
 * local schedulers, piscina parser), webhook delivery through the delivery scheduler, `/graphql`
 * on HTTPS, a local RSS source, and a signed webhook for one feed of one account.
 */
export async function startStack(): Promise<Stack> {
  const account = 'bench';
  const env = createTestDeps();
  const { deps } = env;
  const closers: (() => Promise<void>)[] = [() => env.close()];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    // Subscribed before anything else, so `bus.publish` calls it first: the stamp is the moment of publishing.
    const published: { eventId: string; at: number }[] = [];
    deps.bus.subscribe(account, (envelope) => void published.push({ eventId: envelope.event.id, at: wallNow() }));
    // As serve.ts starts the worker: one delivery queue runs the dispatch job of each event (its
    // deliveries made, then the event marked published) and then each delivery.
    await deps.deliveryScheduler.start(deliveryQueueHandler(deps));
    const baseline = deps.bus.listenerCount;

    // One key holds every subscriber's connection here: lifted caps and budget, as an operator
    // serving that many subscribers of one account would set FEEDMILL_GRAPHQL_* and FEEDMILL_RATE_LIMIT.
    const server = await startGraphqlHttps(deps, {
      rateLimit: { max: 1_000_000, windowMs: 60_000 },
      mount: { subscriptionCaps: { perConnection: 20, perAccount: 1_000_000 }, connectionsPerKey: 1_000_000 },
    });
    closers.push(() => server.close());
    const source: RssSource = await startRssSource(3);
    closers.push(() => source.close());
    let secret = '';
    const sink = await startTimedSink(() => secret);
    closers.push(() => sink.close());

    const authorization = await env.bearer(account);
    const principal = await createAuthenticator(deps)(authorization);
    const feedId = (await createFeed(deps, principal, { url: source.url })).feed.id;
    secret = (await createWebhook(deps, principal, { url: sink.url, feeds: [feedId] })).secret;

    const publish = async (title: string): Promise<Published> => {
      source.addItem(title);
      const before = published.length;
      const outcome = await refreshFeed(deps, feedId);
      const resolvedAt = wallNow();
      const event = published[before];
      if (outcome?.status !== 'changed' || !event || published.length !== before + 1) {
        throw new Error(
          `Expected the refresh to publish one event, got ${outcome?.status ?? 'no feed'} and ${published.length - before} events`,
        );
      }
      return { eventId: event.eventId, publishedAt: event.at, resolvedAt };
    };
    return { env, server, sink, authorization, feedId, baseline, publish, close };
  } catch (error) {
    await close();
    throw error;
  }
}
