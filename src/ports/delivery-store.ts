import type { Delivery, DeliveryAttempt } from '../domain/delivery.js';
import type { Page } from '../domain/pagination.js';

export interface DeliveryStore {
  /** Idempotent by id: a second create of the same delivery returns false and changes nothing. */
  create(delivery: Delivery): Promise<boolean>;
  get(deliveryId: string): Promise<Delivery | undefined>;
  save(delivery: Delivery): Promise<void>;
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** A webhook's attempts, newest first. */
  listAttempts(webhookId: string, page: Page): Promise<{ total: number; attempts: DeliveryAttempt[] }>;
  /** Deliveries still to be tried, for rebuilding schedules at start-up. */
  listPending(): Promise<{ id: string; nextAttemptAt: string | null }[]>;
}
