import { createHash, createHmac } from 'node:crypto';
import { FeedmillError, fieldRefusal } from './errors.js';
import { isBundleId, isFeedId } from './ids.js';
import type { HostedFormat } from './hosted-urls.js';
import { expectedMessage } from './field-message.js';

/** A hosted address the hub accepts as `hub.topic`: whose document it is, and in which format. */
export interface WebsubTopic {
  /** The topic exactly as the subscriber named it: the verification and `Link: rel="self"` echo it. */
  url: string;
  /** A feed id, or a bundle id (`_` + 16). */
  id: string;
  /** The extensionless address is served as RSS 2.0 to a client that asks for nothing else. */
  format: HostedFormat;
}

/**
 * Lease bounds, in seconds. The hub chooses the lease (W3C WebSub §5.1: `hub.lease_seconds` is the
 * subscriber's wish) and tells the subscriber its choice in the verification request.
 */
export const leaseLimits = {
  /** @default 300: shorter would have subscribers renewing all the time. */
  minSeconds: 300,
  /** @default 864000 (10 days): when the subscriber names none. */
  defaultSeconds: 864_000,
  /** @default 2592000 (30 days): a subscriber that went away stops costing deliveries within a month. */
  maxSeconds: 2_592_000,
} as const;

/** W3C WebSub §5.1: "hub.secret … MUST be less than 200 bytes in length". */
export const maxSecretBytes = 199;

/** A subscription the subscriber confirmed: one per (topic, callback) pair (WebSub §5.1, re-subscription renews it). */
export interface WebsubSubscription {
  /** `wss_` + 24, derived from topic and callback: a re-subscription finds the same one. */
  id: string;
  /** The account that owns the topic's feed or bundle: a feed event finds its subscriptions by it. */
  accountId: string;
  topic: WebsubTopic;
  callback: string;
  /** `hub.secret`, sealed at rest (it signs every delivery, so it must be read again); null when none was given. */
  sealedSecret: string | null;
  leaseSeconds: number;
  /** ISO time the lease ends; the subscription is gone after it. */
  expiresAt: string;
  /** ISO time of the first verification. */
  createdAt: string;
}

/** Content the subscriber has not received yet: the distribution retries until it succeeds or gives up. */
export interface WebsubDistribution {
  pending: boolean;
  /** Failed attempts since the content last changed or reached the subscriber. */
  attempts: number;
  nextAttemptAt: string | null;
}

export const idleDistribution: WebsubDistribution = { pending: false, attempts: 0, nextAttemptAt: null };

export const websubSubscriptionId = (topicUrl: string, callback: string): string =>
  `wss_${createHash('sha256').update(`${topicUrl}\n${callback}`).digest('base64url').slice(0, 24)}`;
export const isWebsubSubscriptionId = (value: string): boolean => value.startsWith('wss_');

const topicPath = /^\/feeds\/([A-Za-z0-9_-]{16,17})(?:\.(xml|atom|json|csv))?$/;

/**
 * A topic is a hosted address of this service: `{publicUrl}/feeds/{id}` with or without one of the
 * format extensions. Anything else is not a topic this hub publishes (`feed_not_found`).
 */
export function parseTopic(publicUrl: string, raw: string): WebsubTopic {
  const base = publicUrl.replace(/\/+$/, '');
  const notOurs = (): FeedmillError =>
    new FeedmillError(
      'feed_not_found',
      expectedMessage('hub.topic', `a hosted feed address such as ${base}/feeds/{id}.xml`, { value: raw }),
    );
  if (!raw.startsWith(`${base}/`)) throw notOurs();
  const match = topicPath.exec(raw.slice(base.length));
  const id = match?.[1];
  if (!id || !(isFeedId(id) || isBundleId(id))) throw notOurs();
  return { url: raw, id, format: (match[2] as HostedFormat | undefined) ?? 'xml' };
}

/** The lease the hub grants for a requested one: the default when none, else clamped to the bounds. */
export function grantedLease(requested: string | undefined): number {
  if (requested === undefined || requested === '') return leaseLimits.defaultSeconds;
  if (!/^\d{1,10}$/.test(requested)) {
    throw fieldRefusal('hub.lease_seconds', expectedMessage('hub.lease_seconds', 'a whole number of seconds', { value: requested }));
  }
  return Math.min(leaseLimits.maxSeconds, Math.max(leaseLimits.minSeconds, Number(requested)));
}

/** Checks `hub.secret` (WebSub §5.1: fewer than 200 bytes); an empty one is no secret. */
export function checkedSecret(secret: string | undefined): string | null {
  if (secret === undefined || secret === '') return null;
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes > maxSecretBytes) {
    throw fieldRefusal('hub.secret', expectedMessage('hub.secret', 'a secret of fewer than 200 bytes', { said: `${bytes} bytes` }));
  }
  return secret;
}

/** WebSub §7 "Authenticated Content Distribution": `X-Hub-Signature: sha256=<hex HMAC of the body>`. */
export const hubSignature = (secret: string, body: Buffer | string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The `Link` header of a distribution (WebSub §7): the hub and the topic (`self`). */
export const distributionLinks = (hubUrl: string, topicUrl: string): string => `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`;

/** The hub's own address: `{FEEDMILL_PUBLIC_URL}/websub`. */
export const hubUrlOf = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/websub`;
