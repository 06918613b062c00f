import { FeedmillError, fieldRefusal, isFeedmillError, type ErrorCode } from '../domain/errors.js';
import { isBundleId, randomToken } from '../domain/ids.js';
import { parseSourceUrl } from '../domain/source-url.js';
import { checkedSecret, grantedLease, parseTopic, websubSubscriptionId, type WebsubTopic } from '../domain/websub.js';
import type { AppDeps } from './deps.js';
import { seal } from '../crypto/secret-box.js';
import { topicOwner, type TopicRenderer } from './websub-topics.js';
import { expectedMessage, oneOf } from '../domain/field-message.js';

export type WebsubDeps = Pick<AppDeps, 'feeds' | 'bundles' | 'websub' | 'webhookSender' | 'clock' | 'random' | 'settings'>;

/** The `hub.*` fields of a subscription request, as the form carried them (W3C WebSub §5.1). */
export interface SubscriptionRequest {
  mode?: string;
  topic?: string;
  callback?: string;
  leaseSeconds?: string;
  secret?: string;
}

/** A request the hub accepted (202), to verify with the subscriber before it takes effect. */
export interface Intent {
  mode: 'subscribe' | 'unsubscribe';
  topic: WebsubTopic;
  callback: string;
  leaseSeconds: number;
  secret: string | null;
}

const required = (value: string | undefined, name: string): string => {
  if (value === undefined || value === '') throw fieldRefusal(name, expectedMessage(name, 'a field of the form', { said: 'nothing' }));
  return value;
};

const topicMissing = (topic: WebsubTopic): FeedmillError =>
  // A feed id may begin with `_` too: only the length tells a bundle (`_` + 16) from a feed.
  isBundleId(topic.id)
    ? new FeedmillError('bundle_not_found', `No hosted bundle at \`${topic.url}\`; the topic must be a bundle's hosted address`)
    : new FeedmillError(
        'feed_not_found',
        `No hosted feed at \`${topic.url}\`; the topic must be a feed's hosted address (its \`rss_feed_url\`)`,
      );

/** Subscribers one feed or bundle may have when the settings say nothing (`FEEDMILL_WEBSUB_MAX_SUBSCRIBERS`). */
const defaultMaxSubscribers = 1000;

/**
 * A verification holds one of the hub's slots while it waits for the subscriber: a callback that
 * answers slowly must give it back well before the webhook timeout, or one address could hold them all.
 */
const verificationTimeoutMs = 3_000;

/**
 * Refuses a new subscriber to a topic's feed or bundle that has as many as allowed already (its
 * formats counted together, so that five addresses of one feed are not five times the cap); the
 * renewal of a subscription that exists always passes.
 */
async function ensureRoom(deps: WebsubDeps, owner: string, topic: WebsubTopic, callback: string): Promise<void> {
  const max = deps.settings.websubMaxSubscribers ?? defaultMaxSubscribers;
  const id = websubSubscriptionId(topic.url, callback);
  const live = await deps.websub.listByAccount(owner, deps.clock.now());
  const others = live.filter((subscription) => subscription.topic.id === topic.id && subscription.id !== id).length;
  if (others >= max) {
    throw new FeedmillError(
      'too_many_subscribers',
      `Expected at most ${max} subscribers to \`${topic.id}\`, its formats together, and it has ${others}; renew an existing subscription, or ask the feed's owner`,
    );
  }
}

/**
 * Checks a subscription request before answering it (WebSub §5.1, §5.2): the mode, a topic this
 * hub serves, a callback that passes the address rule of webhook targets, the lease it will grant
 * and the secret. Throws FeedmillError; the HTTP surface answers 202 with the intent otherwise.
 */
export async function acceptSubscriptionRequest(deps: WebsubDeps, render: TopicRenderer, input: SubscriptionRequest): Promise<Intent> {
  const mode = required(input.mode, 'hub.mode');
  if (mode !== 'subscribe' && mode !== 'unsubscribe') {
    throw fieldRefusal(
      'hub.mode',
      expectedMessage(
        'hub.mode',
        oneOf(['subscribe', 'unsubscribe']),
        { value: mode },
        'this hub publishes its own hosted feeds, so it takes no `publish`',
      ),
    );
  }
  const topic = parseTopic(deps.settings.publicUrl, required(input.topic, 'hub.topic'));
  const { href: callback } = parseSourceUrl(required(input.callback, 'hub.callback'), 'hub.callback');
  const leaseSeconds = grantedLease(input.leaseSeconds);
  const secret = checkedSecret(input.secret);
  // Unsubscribing from a feed deleted since is allowed: its subscription may still hold a lease.
  if (mode === 'subscribe') {
    const owner = (await render(topic)) === undefined ? undefined : await topicOwner(deps, topic);
    if (owner === undefined) throw topicMissing(topic);
    await ensureRoom(deps, owner, topic, callback);
  }
  await deps.webhookSender.checkTarget(callback);
  return { mode, topic, callback, leaseSeconds, secret };
}

/** The callback with `params` appended: WebSub §5.3 says to keep the callback's own query. */
function withParams(callback: string, params: Record<string, string>): string {
  const url = new URL(callback);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.href;
}

export type VerificationOutcome = 'verified' | 'refused' | 'denied';

/**
 * Verification of intent (WebSub §5.3): GET the callback with a fresh `hub.challenge`; only a 2xx
 * whose body is exactly the challenge confirms it. A confirmed subscribe creates the subscription,
 * or renews the one of the same topic and callback with the new lease and secret; a confirmed
 * unsubscribe removes it. Anything else leaves the hub as it was. A topic gone since the request
 * is denied (§5.2): the subscriber is told with `hub.mode=denied`.
 */
export async function verifyIntent(deps: WebsubDeps, render: TopicRenderer, intent: Intent): Promise<VerificationOutcome> {
  // Whose topic it is, checked again now: the feed may have been deleted since the 202.
  const owner =
    intent.mode === 'subscribe' && (await render(intent.topic)) !== undefined ? await topicOwner(deps, intent.topic) : undefined;
  // The room is checked again: other verifications may have filled the topic since the 202.
  const full =
    owner === undefined ? undefined : await ensureRoom(deps, owner, intent.topic, intent.callback).catch(refusal('too_many_subscribers'));
  if (intent.mode === 'subscribe' && (owner === undefined || full)) {
    const reason = full?.message ?? topicMissing(intent.topic).message;
    await deps.webhookSender
      .get(withParams(intent.callback, { 'hub.mode': 'denied', 'hub.topic': intent.topic.url, 'hub.reason': reason }), {
        timeoutMs: verificationTimeoutMs,
      })
      .catch(ignoreUnreachable);
    return 'denied';
  }
  const challenge = randomToken(deps.random, 32);
  const params: Record<string, string> = { 'hub.mode': intent.mode, 'hub.topic': intent.topic.url, 'hub.challenge': challenge };
  if (intent.mode === 'subscribe') params['hub.lease_seconds'] = String(intent.leaseSeconds);
  const answer = await deps.webhookSender
    .get(withParams(intent.callback, params), { timeoutMs: verificationTimeoutMs })
    .catch(ignoreUnreachable);
  if (!answer || answer.statusCode < 200 || answer.statusCode > 299 || answer.excerpt !== challenge) return 'refused';

  const id = websubSubscriptionId(intent.topic.url, intent.callback);
  // No owner past the check above means an unsubscribe.
  if (owner === undefined) {
    await deps.websub.remove(id);
    return 'verified';
  }
  const now = deps.clock.now();
  await deps.websub.saveLease({
    id,
    accountId: owner,
    topic: intent.topic,
    callback: intent.callback,
    sealedSecret: intent.secret === null ? null : seal(deps.settings.secretKey, intent.secret),
    leaseSeconds: intent.leaseSeconds,
    expiresAt: new Date(now.getTime() + intent.leaseSeconds * 1000).toISOString(),
    createdAt: now.toISOString(),
  });
  return 'verified';
}

/** The error of this code as a value (to answer with), any other still thrown. */
const refusal =
  (code: ErrorCode) =>
  (error: unknown): FeedmillError => {
    if (isFeedmillError(error) && error.code === code) return error;
    throw error;
  };

/** A subscriber that cannot be reached has not confirmed anything; our own faults still throw. */
function ignoreUnreachable(error: unknown): undefined {
  if (isFeedmillError(error)) return undefined;
  throw error;
}
