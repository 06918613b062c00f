import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../domain/api-key.js';
import { normalizeEmail } from '../domain/email.js';
import { FeedmillError } from '../domain/errors.js';
import type { Session } from '../domain/user.js';
import type { AppDeps } from './deps.js';
import { hashPassword, verifyPassword } from '../crypto/secret-hash.js';

/** A browser that resumed its session: it acts as the person's account with both scopes. */
export interface SignedIn {
  principal: Principal;
  session: Session;
}

export type SignInDeps = Pick<AppDeps, 'users' | 'sessions' | 'clock' | 'random' | 'authThrottle' | 'settings'>;
export type SessionDeps = Pick<AppDeps, 'users' | 'sessions' | 'clock' | 'settings'>;

/** A session's lastSeenAt moves at most this often: one write a minute per active browser, not one per request. */
const touchEveryMs = 60_000;
/** Our tokens are 43 characters; anything much longer is not one of them and is not worth hashing. */
const maxTokenLength = 128;

/** The one answer for an unknown email and a wrong password: it must not tell which emails exist. */
const signInFailed = (): FeedmillError => new FeedmillError('sign_in_failed', 'Wrong email or password');

const throttled = (seconds: number): FeedmillError =>
  new FeedmillError(
    'rate_limited',
    `Too many failed sign-ins from this address, or for this email from many addresses; retry in ${seconds} s`,
    {
      retryAfter: seconds,
    },
  );

/** The store knows sessions by this digest only, so a leaked table signs nobody in. */
const sessionIdOf = (token: string): string => createHash('sha256').update(token).digest('base64url');

// Made once per process: an unknown email is checked against it at the password cost, so it answers
// as slowly as a wrong password (timing says nothing about which emails exist).
let standIn: Promise<string> | undefined;
const standInHash = (): Promise<string> => (standIn ??= hashPassword(randomBytes(24).toString('base64url')));

const principalOf = (email: string, accountId: string): Principal => ({ accountId, keyId: `user:${email}`, scopes: ['read', 'write'] });

/**
 * Checks an email and password and opens a session. The token goes to the browser (a cookie) and
 * exists only there; the store keeps its sha-256. Failures are counted per client address, in the
 * same throttle as API keys (which also holds back one address guessing at one email), and per
 * email by the number of distinct addresses that failed: failures from other addresses can then
 * refuse the person only when spread over many of them. A throttled subject is answered
 * `rate_limited` before any hashing.
 */
export async function signIn(
  deps: SignInDeps,
  input: { email: string; password: string; client?: string },
): Promise<{ token: string; session: Session }> {
  const email = normalizeEmail(input.email);
  const userSubject = email === null ? undefined : `user:${email}`;
  const addressSubject = input.client ? `address:${input.client}` : undefined;
  // Something that cannot be an email is counted against the address only: no subject per made-up string.
  const subjects = [...(userSubject ? [userSubject] : []), ...(addressSubject ? [addressSubject] : [])];
  const now = deps.clock.now().getTime();
  const wait = await deps.authThrottle.waitSeconds(subjects, now);
  if (wait > 0) throw throttled(wait);
  const user = email === null ? undefined : await deps.users.get(email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await standInHash()));
  if (!user || !matches || !userSubject) {
    if (addressSubject) await deps.authThrottle.failed([addressSubject], now);
    if (userSubject) {
      // Without an address (never over HTTP) there is no source to tell apart: each failure counts.
      if (input.client) await deps.authThrottle.failedFrom(userSubject, input.client, now);
      else await deps.authThrottle.failed([userSubject], now);
    }
    throw signInFailed();
  }
  await deps.authThrottle.succeeded(userSubject);
  const token = Buffer.from(deps.random(32)).toString('base64url');
  const at = new Date(now).toISOString();
  const session: Session = { id: sessionIdOf(token), email: user.email, accountId: user.accountId, createdAt: at, lastSeenAt: at };
  await deps.sessions.insert(session, new Date(now + deps.settings.sessionMaxAgeSeconds * 1000).toISOString());
  return { token, session };
}

/**
 * The signed-in person behind a session token, or null when the session is over: unknown, idle
 * past `sessionIdleSeconds`, older than `sessionMaxAgeSeconds`, its user gone, or ended by "sign
 * out everywhere" or a password reset. Moves `lastSeenAt` when it is over a minute old.
 */
export async function resumeSession(deps: SessionDeps, token: string): Promise<SignedIn | null> {
  if (token === '' || token.length > maxTokenLength) return null;
  const session = await deps.sessions.get(sessionIdOf(token));
  if (!session) return null;
  const now = deps.clock.now().getTime();
  const created = Date.parse(session.createdAt);
  const lastSeen = Date.parse(session.lastSeenAt);
  if (now - lastSeen > deps.settings.sessionIdleSeconds * 1000 || now - created > deps.settings.sessionMaxAgeSeconds * 1000) {
    await deps.sessions.delete(session.id);
    return null;
  }
  const user = await deps.users.get(session.email);
  if (!user) return null;
  // A session from before the user was (re)created belongs to someone deleted: a new user of the
  // same email, perhaps of another account, must not inherit it.
  if (created < Date.parse(user.createdAt)) return null;
  if (user.sessionsValidAfter !== null && created <= Date.parse(user.sessionsValidAfter)) return null;
  let current = session;
  if (now - lastSeen > touchEveryMs) {
    current = { ...session, lastSeenAt: new Date(now).toISOString() };
    await deps.sessions.touch(session.id, current.lastSeenAt);
  }
  return { principal: principalOf(user.email, user.accountId), session: current };
}

/** Ends this browser's session. */
export async function signOut(deps: Pick<AppDeps, 'sessions'>, token: string): Promise<void> {
  if (token === '' || token.length > maxTokenLength) return;
  await deps.sessions.delete(sessionIdOf(token));
}

/** Ends every session of the person, on every browser, in one write. */
export async function signOutEverywhere(deps: Pick<AppDeps, 'users' | 'clock'>, email: string): Promise<void> {
  const address = normalizeEmail(email) ?? email;
  if (!(await deps.users.endSessions(address, deps.clock.now().toISOString()))) {
    throw new FeedmillError('user_not_found', `No user with the email \`${address}\``);
  }
}
