import type { Principal } from '../domain/api-key.js';
import { FeedmillError, fieldRefusal } from '../domain/errors.js';
import type { StoredResponse } from '../ports/idempotency-store.js';
import type { AppDeps } from './deps.js';
import { expectedMessage } from '../domain/field-message.js';

export type { StoredResponse };

/** DESIGN.md: the first response is replayed for 24 h. */
const keepSeconds = 24 * 60 * 60;
/** A request still running after this is presumed dead and its key free again. */
const claimSeconds = 5 * 60;
const maxKeyLength = 255;

type IdempotencyDeps = Pick<AppDeps, 'idempotency' | 'clock'>;

/**
 * Claims an `Idempotency-Key` for this request: null means "ours, go ahead"; a response means
 * "replay it". The same key in flight, or reused with a different request, is a conflict.
 */
export async function claimIdempotencyKey(
  deps: IdempotencyDeps,
  principal: Principal,
  key: string,
  fingerprint: string,
): Promise<StoredResponse | null> {
  if (key.length === 0 || key.length > maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw fieldRefusal(
      'Idempotency-Key',
      expectedMessage('Idempotency-Key', `1 to ${maxKeyLength} visible ASCII characters`, { value: key }),
    );
  }
  const record = await deps.idempotency.claim(principal.accountId, key, fingerprint, deps.clock.now(), claimSeconds);
  if (record === null) return null;
  if (record.fingerprint !== fingerprint) {
    throw new FeedmillError(
      'idempotency_conflict',
      `Idempotency-Key \`${key}\` was used for a different request; use a new key for a new request`,
    );
  }
  if (record.state === 'in_flight') {
    throw new FeedmillError(
      'idempotency_conflict',
      `A request with Idempotency-Key \`${key}\` is still in progress; retry after it finishes`,
    );
  }
  return record;
}

/** Keeps an outcome the client should see again on a retry. */
export async function completeIdempotencyKey(
  deps: IdempotencyDeps,
  principal: Principal,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await deps.idempotency.complete(principal.accountId, key, response, deps.clock.now(), keepSeconds);
}

/** Frees the key after an outcome a retry could change (our own 5xx, a refused request). */
export async function releaseIdempotencyKey(deps: IdempotencyDeps, principal: Principal, key: string): Promise<void> {
  await deps.idempotency.release(principal.accountId, key);
}
