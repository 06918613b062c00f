import { nextAttemptAt } from '../domain/delivery.js';
import { isFeedmillError } from '../domain/errors.js';
import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import { isBundleId } from '../domain/ids.js';
import { jitter } from '../domain/jitter.js';
import { distributionLinks, hubSignature, hubUrlOf, idleDistribution, type WebsubDistribution } from '../domain/websub.js';
import type { StoredWebsubSubscription } from '../ports/websub-store.js';
import type { WebhookResponse } from '../ports/webhook-sender.js';
import type { AppDeps } from './deps.js';
import { retryAfterSeconds } from './poll-signals.js';
import { open } from '../crypto/secret-box.js';
import type { TopicRenderer } from './websub-topics.js';

export type DistributeDeps = Pick<AppDeps, 'websub' | 'bundles' | 'webhookSender' | 'deliveryScheduler' | 'clock' | 'random' | 'settings'>;

/** Does a change of `feedId` change the topic's document: the feed itself, or a bundle that holds it? */
async function concerns(
  deps: Pick<AppDeps, 'bundles'>,
  subscription: StoredWebsubSubscription,
  envelope: FeedEventEnvelope,
): Promise<boolean> {
  const { id } = subscription.topic;
  if (id === envelope.feedId) return true;
  if (!isBundleId(id)) return false;
  const lookup = await deps.bundles.get(envelope.accountId, id);
  return lookup.state === 'present' && lookup.bundle.feedIds.includes(envelope.feedId);
}

/**
 * On a feed event: each live subscription to the feed, in any format, or to a bundle holding it,
 * has new content to receive. Its distribution job (job id = subscription id) is scheduled now;
 * events that arrive while one waits join it, since every attempt sends the current document.
 * Idempotent: the same event seen twice schedules the same jobs.
 */
export async function scheduleDistributions(deps: DistributeDeps, envelope: FeedEventEnvelope): Promise<number> {
  const now = deps.clock.now();
  let scheduled = 0;
  for (const subscription of await deps.websub.listByAccount(envelope.accountId, now)) {
    if (!(await concerns(deps, subscription, envelope))) continue;
    await deps.websub.saveDistribution(subscription.id, { pending: true, attempts: 0, nextAttemptAt: now.toISOString() });
    await deps.deliveryScheduler.schedule(subscription.id, now);
    scheduled += 1;
  }
  return scheduled;
}

/** At start-up, distributions still pending are scheduled again. */
export async function resumeDistributions(deps: Pick<AppDeps, 'websub' | 'deliveryScheduler' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const pending = await deps.websub.listPending(now);
  for (const { id, nextAttemptAt } of pending) {
    const at = nextAttemptAt ? new Date(nextAttemptAt) : now;
    await deps.deliveryScheduler.schedule(id, at < now ? now : at);
  }
  return pending.length;
}

const sameDistribution = (a: WebsubDistribution, b: WebsubDistribution | undefined): boolean =>
  b !== undefined && a.pending === b.pending && a.attempts === b.attempts && a.nextAttemptAt === b.nextAttemptAt;

export type DistributionOutcome = 'succeeded' | 'failed' | 'gone' | null;

/**
 * One content distribution (WebSub §7): POST the topic's current document to the callback with the
 * topic's `Content-Type`, `Link` (hub, self) and, when the subscriber gave a secret,
 * `X-Hub-Signature: sha256=…`. 2xx is success; 410 Gone ends the subscription (§7: the hub MAY);
 * any other failure is retried on the webhook backoff schedule (honouring Retry-After) until it
 * gives up. Returns when to try again, or null.
 */
export async function distribute(
  deps: DistributeDeps,
  render: TopicRenderer,
  id: string,
): Promise<{ outcome: DistributionOutcome; next: Date | null }> {
  const now = deps.clock.now();
  const subscription = await deps.websub.get(id, now);
  if (!subscription?.distribution.pending) return { outcome: null, next: null };
  const document = await render(subscription.topic);
  if (!document) {
    // The topic is gone (feed or bundle deleted): nothing will ever be sent again.
    await deps.websub.remove(id);
    return { outcome: 'gone', next: null };
  }
  const headers: Record<string, string> = {
    'content-type': document.contentType,
    link: distributionLinks(hubUrlOf(deps.settings.publicUrl), subscription.topic.url),
  };
  if (subscription.sealedSecret !== null)
    headers['x-hub-signature'] = hubSignature(open(deps.settings.secretKey, subscription.sealedSecret), document.body);
  let answer: WebhookResponse | undefined;
  try {
    answer = await deps.webhookSender.send(subscription.callback, headers, document.body);
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
  }
  if (answer?.statusCode === 410) {
    await deps.websub.remove(id);
    return { outcome: 'gone', next: null };
  }
  const succeeded = answer !== undefined && answer.statusCode >= 200 && answer.statusCode < 300;
  const attempts = subscription.distribution.attempts + 1;
  const next = succeeded ? null : nextAttemptAt(now, attempts, jitter(deps.random), retryAfterSeconds(answer?.retryAfter, now));
  // New content arrived while this attempt ran: its own schedule sends it; leave its record be.
  if (!sameDistribution(subscription.distribution, (await deps.websub.get(id, now))?.distribution))
    return { outcome: succeeded ? 'succeeded' : 'failed', next: null };
  await deps.websub.saveDistribution(id, next === null ? idleDistribution : { pending: true, attempts, nextAttemptAt: next.toISOString() });
  return { outcome: succeeded ? 'succeeded' : 'failed', next };
}
