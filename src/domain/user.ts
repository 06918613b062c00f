/** A person who signs in to the dashboard; they act as their account with both scopes. */
export interface User {
  /** Lower-cased; the user's identity. */
  email: string;
  accountId: string;
  /** `scrypt$N$r$p$salt$hash`, base64url parts, at the password cost. */
  passwordHash: string;
  createdAt: string;
  /**
   * Sessions created before this instant are over: "sign out everywhere", a password reset and
   * deleting the user set it, so ending every session is one write, not a search for them.
   */
  sessionsValidAfter: string | null;
}

/** NIST SP 800-63B asks for at least 8; passphrases of 12 or more resist guessing far better. */
export const minPasswordLength = 12;
/** Longer inputs only cost hashing time; no real password comes near it. */
export const maxPasswordLength = 1024;

/** A signed-in browser. The store knows only a digest of the cookie's token, so a leaked table signs nobody in. */
export interface Session {
  /** sha-256 of the session token, base64url. */
  id: string;
  email: string;
  accountId: string;
  createdAt: string;
  /** Moved forward at most once a minute while the session is used: the idle lifetime counts from it. */
  lastSeenAt: string;
}
