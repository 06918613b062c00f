import type { Session } from '../domain/user.js';

/** Dashboard sessions, kept in the store so they survive a restart and work on every api replica. */
export interface SessionStore {
  /** `expiresAt`: the absolute end; the store may forget the session after it (a Cassandra TTL). */
  insert(session: Session, expiresAt: string): Promise<void>;
  get(id: string): Promise<Session | undefined>;
  touch(id: string, lastSeenAt: string): Promise<void>;
  delete(id: string): Promise<void>;
}
