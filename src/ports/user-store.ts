import type { User } from '../domain/user.js';

/** People who sign in to the dashboard, by lower-cased email. */
export interface UserStore {
  /** False when a user with this email exists already. */
  insert(user: User): Promise<boolean>;
  get(email: string): Promise<User | undefined>;
  /** Every user, oldest first (`feedmill users list`; an installation has a handful). */
  list(): Promise<User[]>;
  /** Sets the password hash and ends the user's sessions (`sessionsValidAfter = at`). False when there is no such user. */
  setPassword(email: string, passwordHash: string, at: string): Promise<boolean>;
  /** Ends every session of the user created before `at`. False when there is no such user. */
  endSessions(email: string, at: string): Promise<boolean>;
  /** False when there was no such user. */
  delete(email: string): Promise<boolean>;
}
