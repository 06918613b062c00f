import type { Page } from '../domain/pagination.js';
import type { Webhook } from '../domain/webhook.js';

export interface WebhookStore {
  insert(webhook: Webhook): Promise<void>;
  /** Scoped to an account: another account's webhook is undefined. */
  get(accountId: string, webhookId: string): Promise<Webhook | undefined>;
  /** Newest first. */
  list(accountId: string, page: Page): Promise<{ total: number; webhooks: Webhook[] }>;
  /** Every enabled webhook of an account, for dispatching its events. */
  listEnabled(accountId: string): Promise<Webhook[]>;
  /** Replaces the stored webhook (same id and account). */
  save(webhook: Webhook): Promise<void>;
  /** True when it deleted. */
  delete(accountId: string, webhookId: string): Promise<boolean>;
}
