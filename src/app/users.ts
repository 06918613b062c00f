import { accountNameRule, isAccountName } from '../domain/account.js';
import { maxEmailLength, normalizeEmail } from '../domain/email.js';
import { FeedmillError } from '../domain/errors.js';
import { maxPasswordLength, minPasswordLength, type User } from '../domain/user.js';
import type { AppDeps } from './deps.js';
import { hashPassword } from '../crypto/secret-hash.js';
import { expectedMessage } from '../domain/field-message.js';

/** A person as they may be shown: everything but the password hash. */
export type UserView = Omit<User, 'passwordHash'>;

const view = ({ passwordHash: _hash, ...rest }: User): UserView => rest;

const invalid = (message: string): FeedmillError => new FeedmillError('validation_failed', message);

/** The email as stored, or validation_failed saying what was expected. */
export function checkEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (email === null)
    throw invalid(expectedMessage('email', `an email address (one '@', no spaces, at most ${maxEmailLength} characters)`, { value: raw }));
  return email;
}

/** Only the length is told back: a password is never echoed, not even in an error. */
function checkPassword(password: string): void {
  // Code points, not UTF-16 units: a passphrase of 12 emoji is 12 characters to the person typing it.
  const length = [...password].length;
  if (length < minPasswordLength || length > maxPasswordLength) {
    throw invalid(
      expectedMessage('password', `a password of ${minPasswordLength} to ${maxPasswordLength} characters`, {
        said: `${length} characters`,
      }),
    );
  }
}

const notFound = (email: string): FeedmillError =>
  new FeedmillError('user_not_found', `No user with the email \`${email}\`; see \`feedmill users list\``);

/** The account and the stored email of a new user, or validation_failed; `feedmill users create` asks before prompting for a password. */
export function checkNewUser(input: { account: string; email: string }): { account: string; email: string } {
  if (!isAccountName(input.account)) throw invalid(expectedMessage('account', accountNameRule, { value: input.account }));
  return { account: input.account, email: checkEmail(input.email) };
}

/** A new person of `account`, who signs in with `email` and `password`. */
export async function createUser(
  deps: Pick<AppDeps, 'users' | 'clock'>,
  input: { account: string; email: string; password: string },
): Promise<UserView> {
  const { email } = checkNewUser(input);
  checkPassword(input.password);
  const user: User = {
    email,
    accountId: input.account,
    passwordHash: await hashPassword(input.password),
    createdAt: deps.clock.now().toISOString(),
    sessionsValidAfter: null,
  };
  if (!(await deps.users.insert(user))) {
    throw new FeedmillError(
      'user_exists',
      `A user with the email \`${email}\` exists already; use \`feedmill users reset-password\` to change their password`,
    );
  }
  return view(user);
}

/** Every person, oldest first, without password hashes. */
export async function listUsers(deps: Pick<AppDeps, 'users'>): Promise<UserView[]> {
  return (await deps.users.list()).map(view);
}

/** Sets a new password and ends every session the person had. */
export async function resetPassword(deps: Pick<AppDeps, 'users' | 'clock'>, email: string, password: string): Promise<void> {
  const address = checkEmail(email);
  checkPassword(password);
  if (!(await deps.users.setPassword(address, await hashPassword(password), deps.clock.now().toISOString()))) throw notFound(address);
}

/** Removes the person; their sessions cannot resume without them. */
export async function deleteUser(deps: Pick<AppDeps, 'users'>, email: string): Promise<void> {
  const address = checkEmail(email);
  if (!(await deps.users.delete(address))) throw notFound(address);
}
