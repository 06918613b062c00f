/** The longest address SMTP can carry (RFC 5321 §4.5.3.1.3, a 256-octet path less its brackets). */
export const maxEmailLength = 254;

/**
 * The identity of a person: trimmed and lower-cased, so `Alice@Example.org` signs in as
 * `alice@example.org`. Null when it is not one `@` between non-empty parts without spaces, or too long.
 */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length > maxEmailLength || /\s/.test(email)) return null;
  const parts = email.split('@');
  return parts.length === 2 && parts[0] !== '' && parts[1] !== '' ? email : null;
}
