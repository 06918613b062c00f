import type { Principal } from '../domain/api-key.js';
import type { DeliveryAttempt } from '../domain/delivery.js';
import { FeedmillError, fieldRefusal } from '../domain/errors.js';
import { newWebhookId } from '../domain/ids.js';
import { parsePage, type ListEnvelope, type PageQuery } from '../domain/pagination.js';
import { parseSourceUrl } from '../domain/source-url.js';
import type { Webhook, WebhookScope } from '../domain/webhook.js';
import { parseFilter } from '../domain/item-filter.js';
import { newSigningSecret } from '../domain/webhook-signature.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';
import { seal } from '../crypto/secret-box.js';
import { expectedMessage } from '../domain/field-message.js';

export type WebhookDeps = Pick<
  AppDeps,
  'webhooks' | 'deliveries' | 'feeds' | 'bundles' | 'clock' | 'random' | 'settings' | 'webhookSender'
>;

export interface WebhookInput {
  url?: string;
  /** `all` sets the scope back to every feed (then neither `feeds` nor `bundles` may be given). */
  scope?: 'all';
  feeds?: string[];
  bundles?: string[];
  filters?: unknown;
  enabled?: boolean;
}

/** A webhook with its signing secret, shown once: at creation and at rotation. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/** A rotated-out secret keeps signing this long, so receivers can switch without losing events. */
const rotationOverlapMs = 24 * 60 * 60 * 1000;

export async function findWebhook(deps: Pick<AppDeps, 'webhooks'>, principal: Principal, webhookId: string): Promise<Webhook> {
  const webhook = await deps.webhooks.get(principal.accountId, webhookId);
  if (!webhook)
    throw new FeedmillError(
      'webhook_not_found',
      `Webhook \`${webhookId}\` does not exist in this account; list them with GET /v1/webhooks`,
    );
  return webhook;
}

async function scopeOf(deps: WebhookDeps, principal: Principal, input: WebhookInput): Promise<WebhookScope> {
  if (input.scope === 'all' && (input.feeds !== undefined || input.bundles !== undefined)) {
    throw fieldRefusal('scope', expectedMessage('scope', 'either `all` or a list of `feeds` or `bundles`', { said: 'both' }));
  }
  if (input.feeds !== undefined && input.bundles !== undefined) {
    throw new FeedmillError(
      'validation_failed',
      expectedMessage(
        { whole: 'the webhook' },
        'scoped by `feeds` or `bundles`, not both',
        { said: 'both' },
        'omit both to receive every feed',
      ),
    );
  }
  if (input.feeds !== undefined) {
    for (const feedId of input.feeds) await findFeed(deps, principal, feedId);
    return { kind: 'feeds', feedIds: [...new Set(input.feeds)] };
  }
  if (input.bundles !== undefined) {
    for (const bundleId of input.bundles) {
      if ((await deps.bundles.get(principal.accountId, bundleId)).state !== 'present') {
        throw new FeedmillError('bundle_not_found', `Bundle \`${bundleId}\` does not exist in this account`);
      }
    }
    return { kind: 'bundles', bundleIds: [...new Set(input.bundles)] };
  }
  return { kind: 'all' };
}

/** A target passes the address rule when it is set, not only when a delivery reaches for it. */
async function targetUrl(deps: WebhookDeps, url: string): Promise<string> {
  const { href } = parseSourceUrl(url);
  try {
    await deps.webhookSender.checkTarget(href);
  } catch (error) {
    // The refusal concerns the address a person gave: it names `url`, as the parser's refusals do.
    if (error instanceof FeedmillError) throw new FeedmillError(error.code, error.message, { ...error.details, field: 'url' });
    throw error;
  }
  return href;
}

/** POST /v1/webhooks: the response carries the signing secret, the only time it is shown. */
export async function createWebhook(
  deps: WebhookDeps,
  principal: Principal,
  input: WebhookInput & { url: string },
): Promise<WebhookWithSecret> {
  const now = deps.clock.now().toISOString();
  const secret = newSigningSecret(deps.random);
  const webhook: Webhook = {
    id: newWebhookId(deps.random),
    accountId: principal.accountId,
    url: await targetUrl(deps, input.url),
    scope: await scopeOf(deps, principal, input),
    filters: input.filters === undefined || input.filters === null ? null : parseFilter(input.filters),
    secrets: [{ sealed: seal(deps.settings.secretKey, secret), createdAt: now, expiresAt: null }],
    enabled: input.enabled ?? true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.webhooks.insert(webhook);
  return { webhook, secret };
}

export async function getWebhook(deps: WebhookDeps, principal: Principal, webhookId: string): Promise<Webhook> {
  return findWebhook(deps, principal, webhookId);
}

export async function listWebhooks(deps: WebhookDeps, principal: Principal, query: PageQuery): Promise<ListEnvelope<Webhook>> {
  const page = parsePage(query);
  const { total, webhooks } = await deps.webhooks.list(principal.accountId, page);
  return { total, offset: page.offset, limit: page.limit, data: webhooks };
}

/** PATCH /v1/webhooks/:id. `filters: null` removes them; enabling again clears why it was disabled. */
export async function updateWebhook(deps: WebhookDeps, principal: Principal, webhookId: string, input: WebhookInput): Promise<Webhook> {
  const webhook = await findWebhook(deps, principal, webhookId);
  const scopeChanged = input.scope !== undefined || input.feeds !== undefined || input.bundles !== undefined;
  const enabling = input.enabled === true && !webhook.enabled;
  const updated: Webhook = {
    ...webhook,
    url: input.url === undefined ? webhook.url : await targetUrl(deps, input.url),
    scope: scopeChanged ? await scopeOf(deps, principal, input) : webhook.scope,
    filters: input.filters === undefined ? webhook.filters : input.filters === null ? null : parseFilter(input.filters),
    enabled: input.enabled ?? webhook.enabled,
    disabledReason: enabling ? null : webhook.disabledReason,
    failingSince: enabling ? null : webhook.failingSince,
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.webhooks.save(updated);
  return updated;
}

export async function deleteWebhook(deps: WebhookDeps, principal: Principal, webhookId: string): Promise<{ id: string; deleted: true }> {
  if (!(await deps.webhooks.delete(principal.accountId, webhookId))) await findWebhook(deps, principal, webhookId);
  return { id: webhookId, deleted: true };
}

/** POST /v1/webhooks/:id/rotate-secret: a new secret; the old one keeps signing for 24 h. */
export async function rotateWebhookSecret(deps: WebhookDeps, principal: Principal, webhookId: string): Promise<WebhookWithSecret> {
  const webhook = await findWebhook(deps, principal, webhookId);
  const now = deps.clock.now();
  const secret = newSigningSecret(deps.random);
  const overlapEnds = new Date(now.getTime() + rotationOverlapMs).toISOString();
  const live = webhook.secrets.filter((old) => old.expiresAt === null || old.expiresAt > now.toISOString());
  const updated: Webhook = {
    ...webhook,
    secrets: [
      { sealed: seal(deps.settings.secretKey, secret), createdAt: now.toISOString(), expiresAt: null },
      ...live.map((old) => ({ ...old, expiresAt: old.expiresAt ?? overlapEnds })),
    ],
    updatedAt: now.toISOString(),
  };
  await deps.webhooks.save(updated);
  return { webhook: updated, secret };
}

/** GET /v1/webhooks/:id/deliveries: every attempt, newest first. */
export async function listDeliveryAttempts(
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  query: PageQuery,
): Promise<ListEnvelope<DeliveryAttempt>> {
  await findWebhook(deps, principal, webhookId);
  const page = parsePage(query);
  const { total, attempts } = await deps.deliveries.listAttempts(webhookId, page);
  return { total, offset: page.offset, limit: page.limit, data: attempts };
}
