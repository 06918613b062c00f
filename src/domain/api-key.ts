export type Scope = 'read' | 'write';
export const scopes: readonly Scope[] = ['read', 'write'];

/** An API key as the store keeps it: the secret only as a slow hash. */
export interface ApiKey {
  id: string;
  accountId: string;
  scopes: Scope[];
  /** `scrypt$N$r$p$salt$hash`, base64url parts. */
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  /** When a request last authenticated with it, to the nearest few minutes (src/app/authenticate.ts); null until then. */
  lastUsedAt: string | null;
}

/** Who is calling, once authenticated. */
export interface Principal {
  accountId: string;
  keyId: string;
  scopes: readonly Scope[];
}

/** Spec "Authentication" 2: `Authorization: Bearer <API_KEY>:<API_SECRET>`. */
export function parseBearer(header: string | undefined): { keyId: string; secret: string } | null {
  const match = header ? /^Bearer[ \t]+([^:\s]+):(\S+)[ \t]*$/i.exec(header) : null;
  if (!match?.[1] || !match[2]) return null;
  return { keyId: match[1], secret: match[2] };
}

export function parseScopes(text: string): Scope[] | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0 || !parts.every((part): part is Scope => (scopes as readonly string[]).includes(part))) return null;
  return [...new Set(parts)];
}
