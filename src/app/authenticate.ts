import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseBearer, type ApiKey, type Principal, type Scope } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import { isKeyId } from '../domain/ids.js';
import type { AppDeps } from './deps.js';
import { hashSecret, verifySecret } from '../crypto/secret-hash.js';

/** `client`: the caller's address, so failures from one address are throttled together. */
export type Authenticator = (authorization: string | undefined, client?: string) => Promise<Principal>;

export interface AuthenticatorOptions {
  /** The slow hash check; tests count its calls. @default verifySecret */
  verify?: typeof verifySecret;
}

/**
 * Every failure (missing, malformed, unknown key, wrong secret, revoked) is this one error: the
 * body must not tell a guesser which part of a guess was right.
 */
export const unauthorized = (): FeedmillError =>
  new FeedmillError(
    'unauthorized',
    'Expected `Authorization: Bearer <API_KEY>:<API_SECRET>` naming a live key and its secret; create a pair with `feedmill keys create`',
  );

const throttled = (seconds: number): FeedmillError =>
  new FeedmillError('rate_limited', `Too many failed authentications from this address or for this key; retry in ${seconds} s`, {
    retryAfter: seconds,
  });

const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** A key's `lastUsedAt` is written at most this often per process: the key page shows minutes, not requests. */
export const touchEveryMs = 5 * 60_000;

/**
 * Checks `Authorization: Bearer KEY:SECRET`. The slow scrypt check runs once per key and secret:
 * afterwards a fast digest of the secret is remembered, so a busy client does not pay 40 ms per
 * request. The key record is read on every request, so a revocation takes effect at once.
 *
 * An unknown key is hashed against a stand-in hash of the same cost, so it answers as slowly as a
 * wrong secret (timing says nothing about which keys exist). Before any hashing, a key id or an
 * address with too many recent failures is answered 429: wrong secrets cost the guesser time,
 * not us CPU. A secret already proven in this process still passes a throttled key, so an attack
 * on a key does not lock its owner out.
 *
 * An accepted key's `lastUsedAt` is written at most once per `touchEveryMs` per key in this process.
 */
export function createAuthenticator(
  deps: Pick<AppDeps, 'keys' | 'clock' | 'authThrottle'>,
  options: AuthenticatorOptions = {},
): Authenticator {
  const throttle = deps.authThrottle;
  const verify = options.verify ?? verifySecret;
  const verified = new Map<string, Buffer>();
  let standIn: Promise<string> | undefined;
  // Concurrent first requests of one key and secret (a client opening with a burst, a WebSocket
  // sending thousands of operations at once) share one scrypt check instead of queueing one each
  // on the thread pool, where they also held up every other crypto, DNS and file task.
  const checking = new Map<string, Promise<boolean>>();
  const touched = new Map<string, number>();
  // Awaited, so it is done when the request is; a failed write only leaves "last used" a little
  // old, which never fails the request: it is tried again on the next one.
  const touch = async (keyId: string): Promise<void> => {
    const now = deps.clock.now();
    const last = touched.get(keyId);
    if (last !== undefined && now.getTime() - last < touchEveryMs) return;
    touched.set(keyId, now.getTime());
    try {
      await deps.keys.touch(keyId, now.toISOString());
    } catch {
      touched.delete(keyId);
    }
  };
  const accepted = async (key: ApiKey): Promise<Principal> => {
    await touch(key.id);
    return { accountId: key.accountId, keyId: key.id, scopes: key.scopes };
  };
  const check = async (keyId: string, secret: string, fast: Buffer, hash: string): Promise<boolean> => {
    const attempt = `${keyId}:${fast.toString('base64')}`;
    let pending = checking.get(attempt);
    if (!pending) {
      pending = verify(secret, hash).finally(() => checking.delete(attempt));
      checking.set(attempt, pending);
    }
    return pending;
  };
  return async (authorization, client) => {
    const credentials = parseBearer(authorization);
    // Nothing to guess without a key and a secret, and nothing hashed: no failure is counted.
    if (!credentials) throw unauthorized();
    const key = await deps.keys.get(credentials.keyId);
    const live = key && key.revokedAt === null ? key : undefined;
    const fast = digest(credentials.secret);
    const known = live && verified.get(live.id);
    if (live && known && timingSafeEqual(known, fast)) return accepted(live);
    const keySubject = `key:${credentials.keyId}`;
    // An id that cannot be a key is counted against the address only: no subject per made-up string.
    const subjects = [...(isKeyId(credentials.keyId) ? [keySubject] : []), ...(client ? [`address:${client}`] : [])];
    const now = deps.clock.now().getTime();
    const wait = await throttle.waitSeconds(subjects, now);
    if (wait > 0) throw throttled(wait);
    standIn ??= hashSecret(randomBytes(24).toString('base64url'));
    const matches = await check(credentials.keyId, credentials.secret, fast, key?.secretHash ?? (await standIn));
    if (!live || !matches) {
      await throttle.failed(subjects, now);
      throw unauthorized();
    }
    await throttle.succeeded(keySubject);
    verified.set(live.id, fast);
    return accepted(live);
  };
}

/** 403 when the key lacks the scope the operation needs. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new FeedmillError('forbidden', `This API key has the scopes [${principal.scopes.join(', ')}]; this operation needs \`${scope}\``);
  }
}
