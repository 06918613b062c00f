import type { ItemFilter } from './item-filter.js';

/** Which feeds' events a webhook receives (DESIGN.md: all feeds, some feeds, or some bundles). */
export type WebhookScope = { kind: 'all' } | { kind: 'feeds'; feedIds: string[] } | { kind: 'bundles'; bundleIds: string[] };

/** A signing secret, stored sealed. A rotated-out secret keeps signing until `expiresAt`. */
export interface WebhookSecret {
  sealed: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface Webhook {
  /** `wh_` + 16 url-safe characters. */
  id: string;
  accountId: string;
  url: string;
  scope: WebhookScope;
  filters: ItemFilter | null;
  /** Newest first; the first is the current one. */
  secrets: WebhookSecret[];
  enabled: boolean;
  /** Why feedmill disabled it (410 Gone, failing too long); null when enabled or disabled by the user. */
  disabledReason: string | null;
  /** Since when every delivery has failed; null while deliveries succeed. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Secrets that still sign at `now`: the current one and those in their rotation overlap. */
export const signingSecrets = (webhook: Webhook, now: string): WebhookSecret[] =>
  webhook.secrets.filter((secret) => secret.expiresAt === null || secret.expiresAt > now);
