import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBearer, type ApiKey, type Principal, type Scope } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { AppDeps } from './deps.js';
import { verifySecret } from './secret-hash.js';

export type Authenticator = (authorization: string | undefined) => Promise<Principal>;

const unauthorized = (why: string): FeedmillError =>
  new FeedmillError('unauthorized', `${why}; send \`Authorization: Bearer <API_KEY>:<API_SECRET>\` (create a pair with \`feedmill keys create\`)`);

/**
 * Checks `Authorization: Bearer KEY:SECRET`. The slow scrypt check runs once per key and secret:
 * afterwards a fast digest of the secret is remembered, so a busy client does not pay 40 ms per
 * request. The key record is read on every request, so a revocation takes effect at once.
 */
export function createAuthenticator(deps: Pick<AppDeps, 'keys'>): Authenticator {
  const verified = new Map<string, Buffer>();
  // Concurrent first requests of one key and secret (a client opening with a burst, a WebSocket
  // sending thousands of operations at once) share one scrypt check instead of queueing one each
  // on the thread pool, where they also held up every other crypto, DNS and file task.
  const checking = new Map<string, Promise<boolean>>();
  const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();
  const check = (key: ApiKey, secret: string, fast: Buffer): Promise<boolean> => {
    const attempt = `${key.id}:${fast.toString('base64')}`;
    let pending = checking.get(attempt);
    if (!pending) {
      pending = verifySecret(secret, key.secretHash).finally(() => checking.delete(attempt));
      checking.set(attempt, pending);
    }
    return pending;
  };
  return async (authorization) => {
    const credentials = parseBearer(authorization);
    if (!credentials) throw unauthorized(authorization ? 'The Authorization header is malformed' : 'The Authorization header is missing');
    const key = await deps.keys.get(credentials.keyId);
    if (!key || key.revokedAt !== null) throw unauthorized('The API key is unknown or revoked');
    const fast = digest(credentials.secret);
    const known = verified.get(key.id);
    if (!known || !timingSafeEqual(known, fast)) {
      if (!(await check(key, credentials.secret, fast))) throw unauthorized('The API secret does not match the key');
      verified.set(key.id, fast);
    }
    return { accountId: key.accountId, keyId: key.id, scopes: key.scopes };
  };
}

/** 403 when the key lacks the scope the operation needs. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new FeedmillError('forbidden', `This API key has the scopes [${principal.scopes.join(', ')}]; this operation needs \`${scope}\``);
  }
}
