import { fieldRefusal, type FeedmillError } from './errors.js';
import { expectedMessage } from './field-message.js';
import { lengthOf } from './field-limits.js';

/**
 * What a source needs beyond its address (docs/fetch-options.md): its own `User-Agent`, a few
 * request headers, HTTP Basic credentials. Secret: stored sealed, sent only to the source's own
 * origin, never shown again (a feed reads back `FetchOptionsSummary`).
 */
export interface FetchOptions {
  userAgent?: string;
  /** Header names as the owner spelt them; at most one per name in any letter case. */
  headers?: Readonly<Record<string, string>>;
  basicAuth?: { username: string; password: string };
}

/** What may be shown of a feed's fetch options: nothing that is a secret. */
export interface FetchOptionsSummary {
  userAgent: string | null;
  headerNames: string[];
  basicAuth: boolean;
}

export const fetchOptionLimits = {
  userAgentChars: 256,
  headers: 16,
  headerNameChars: 64,
  headerValueChars: 4096,
  /** Every header's name and value together (characters are bytes: values are ASCII). */
  headersTotalChars: 8192,
  usernameChars: 256,
  passwordChars: 256,
} as const;

/**
 * The headers a source may be sent. A short list of the request headers sites gate on (API keys,
 * sessions, content negotiation), plus any `X-` header (the usual home of API keys). Everything else
 * is refused: `Host` and `Content-Length` would misroute or desynchronise the request, hop-by-hop
 * headers (`Connection`, `Transfer-Encoding`, `TE`, `Upgrade`, `Proxy-*`…) are the connection's own,
 * and `User-Agent` has its own field.
 */
export const allowedHeaderNames = ['Accept', 'Accept-Language', 'Authorization', 'Cookie', 'Referer'] as const;

/** `X-` then letters, digits and hyphens. */
const extensionHeader = /^X-[A-Za-z0-9-]+$/i;

/** Printable ASCII without leading or trailing spaces: no control character, CR or LF can split a header. */
const headerText = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/;
/** RFC 7617: any text but control characters, and no `:` in the user name. */
// The class names the control characters to refuse them; the rule guards against matching them by mistake.
// eslint-disable-next-line no-control-regex
const usernameText = /^[^\x00-\x1F\x7F-\x9F:]+$/u;
// eslint-disable-next-line no-control-regex
const passwordText = /^[^\x00-\x1F\x7F-\x9F]*$/u;

/** `Accept` → `[Aa][Cc][Cc][Ee][Pp][Tt]`: JSON Schema patterns have no case-insensitive flag. */
const anyCase = (name: string): string => name.replace(/[A-Za-z]/g, (letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`);

/** The same rules as JSON Schema patterns, for the REST schema to publish (src/http/schemas/feed.ts). */
export const fetchOptionPatterns = {
  headerName: `^(?:${allowedHeaderNames.map(anyCase).join('|')}|[Xx]-[A-Za-z0-9-]+)$`,
  headerText: headerText.source,
  username: usernameText.source,
  password: passwordText.source,
} as const;

const allowedNames: ReadonlySet<string> = new Set(allowedHeaderNames.map((name) => name.toLowerCase()));
export const isAllowedHeaderName = (name: string): boolean => allowedNames.has(name.toLowerCase()) || extensionHeader.test(name);

/**
 * Every refusal names its field in the words of the spec and docs/fetch-options.md (`fetch.user_agent`,
 * `fetch.basic_auth.username`), in the message and in `details.field`: the one spelling of the domain.
 * A surface with other names (GraphQL's `userAgent`) hands its input over in these words and spells
 * the refusal its own way at its boundary.
 */
const names = { userAgent: 'user_agent', basicAuth: 'basic_auth' } as const;

// Named in `details.field` too, so a form puts the message beside the input it concerns.
const invalid = (field: string, expected: string, got: { value: unknown } | { said: string }, hint?: string): FeedmillError =>
  fieldRefusal(field, expectedMessage(field, expected, got, hint));

/** A secret's length only: its text never goes into a message (or a log line that quotes it). */
const secretArrival = (value: unknown): { value: unknown } | { said: string } =>
  typeof value === 'string' ? { said: `${lengthOf(value)} characters` } : { value };

function checkedText(
  field: string,
  value: unknown,
  rule: { pattern: RegExp; min: number; max: number; what: string; secret: boolean },
): string {
  const expected = `${rule.what} of ${rule.min} to ${rule.max} characters`;
  const got = rule.secret ? secretArrival(value) : { value };
  if (typeof value !== 'string') throw invalid(field, expected, got);
  const length = lengthOf(value);
  if (length < rule.min || length > rule.max) throw invalid(field, expected, { said: `${length} characters` });
  if (!rule.pattern.test(value)) throw invalid(field, expected, rule.secret ? { said: 'a value outside those characters' } : got);
  return value;
}

const headerValueRule = {
  pattern: headerText,
  min: 1,
  max: fetchOptionLimits.headerValueChars,
  what: 'printable ASCII (no control characters, no leading or trailing space)',
  secret: true,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ name: value }` or `[{ name, value }]` (a list keeps a name given twice, to refuse it) as pairs. */
function headerPairs(field: string, raw: unknown): Array<[string, unknown]> {
  if (isRecord(raw)) return Object.entries(raw);
  const expected = 'an object of header names and values';
  if (!Array.isArray(raw)) throw invalid(field, expected, { value: raw });
  return raw.map((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry['name'] !== 'string')
      throw invalid(`${field}[${index}]`, 'a header with `name` and `value`', { value: entry });
    return [entry['name'], entry['value']];
  });
}

function parseHeaders(field: string, raw: unknown): Record<string, string> {
  const pairs = headerPairs(field, raw);
  if (pairs.length > fetchOptionLimits.headers) {
    throw invalid(field, `at most ${fetchOptionLimits.headers} headers`, { said: `${pairs.length} headers` });
  }
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  let total = 0;
  for (const [name, value] of pairs) {
    const at = `${field}.${name}`;
    if (lengthOf(name) > fetchOptionLimits.headerNameChars || !isAllowedHeaderName(name)) {
      // A name that could carry a line break into a message is not repeated in one.
      const printable = /^[\x21-\x7E]{1,64}$/.test(name);
      const hint = name.toLowerCase() === 'user-agent' ? 'set `user_agent` instead' : undefined;
      throw invalid(
        printable ? at : field,
        `header names among ${allowedHeaderNames.join(', ')} or X-… (letters, digits and hyphens, at most ${fetchOptionLimits.headerNameChars} characters), in any letter case`,
        { said: printable ? 'a name outside them' : 'a name with other characters' },
        hint,
      );
    }
    if (seen.has(name.toLowerCase()))
      throw invalid(at, 'given once: header names are the same in any letter case', { said: 'a second one' });
    seen.add(name.toLowerCase());
    const text = checkedText(at, value, headerValueRule);
    headers[name] = text;
    total += name.length + text.length;
  }
  if (total > fetchOptionLimits.headersTotalChars) {
    throw invalid(field, `headers of at most ${fetchOptionLimits.headersTotalChars} characters altogether, names and values`, {
      said: `${total} characters`,
    });
  }
  return headers;
}

function parseBasicAuth(field: string, raw: unknown): { username: string; password: string } {
  if (!isRecord(raw)) throw invalid(field, 'an object with `username` and `password`', { value: raw });
  for (const key of Object.keys(raw)) {
    if (key !== 'username' && key !== 'password')
      throw invalid(`${field}.${key}`, 'absent: only `username` and `password` are known', { said: 'a value' });
  }
  return {
    username: checkedText(`${field}.username`, raw['username'], {
      pattern: usernameText,
      min: 1,
      max: fetchOptionLimits.usernameChars,
      what: 'text without control characters or `:`',
      secret: true,
    }),
    password: checkedText(`${field}.password`, raw['password'], {
      pattern: passwordText,
      min: 0,
      max: fetchOptionLimits.passwordChars,
      what: 'text without control characters',
      secret: true,
    }),
  };
}

/**
 * A feed's `fetch` as a request sent it, checked; null (or an empty object) means none. Secrets
 * (header values, credentials) are never quoted back in a message: only their lengths are.
 * @throws FeedmillError `validation_failed` naming the field (`fetch.headers.X-Api-Key`, `fetch.user_agent`).
 */
export function parseFetchOptions(raw: unknown, path = 'fetch'): FetchOptions | null {
  if (raw === null || raw === undefined) return null;
  if (!isRecord(raw))
    throw invalid(path, `an object with any of \`${names.userAgent}\`, \`headers\` and \`${names.basicAuth}\``, { value: raw });
  for (const key of Object.keys(raw)) {
    if (key !== names.userAgent && key !== 'headers' && key !== names.basicAuth) {
      throw invalid(`${path}.${key}`, `absent: only \`${names.userAgent}\`, \`headers\` and \`${names.basicAuth}\` are known`, {
        said: 'a value',
      });
    }
  }
  const options: FetchOptions = {};
  const userAgent = raw[names.userAgent];
  if (userAgent !== undefined && userAgent !== null) {
    options.userAgent = checkedText(`${path}.${names.userAgent}`, userAgent, {
      ...headerValueRule,
      max: fetchOptionLimits.userAgentChars,
      secret: false,
    });
  }
  const headers = raw['headers'];
  if (headers !== undefined && headers !== null) {
    const parsed = parseHeaders(`${path}.headers`, headers);
    if (Object.keys(parsed).length > 0) options.headers = parsed;
  }
  const basicAuth = raw[names.basicAuth];
  if (basicAuth !== undefined && basicAuth !== null) {
    options.basicAuth = parseBasicAuth(`${path}.${names.basicAuth}`, basicAuth);
    const authorization = Object.keys(options.headers ?? {}).find((name) => name.toLowerCase() === 'authorization');
    if (authorization !== undefined) {
      throw invalid(`${path}.headers.${authorization}`, `absent when \`${names.basicAuth}\` is given (both set \`Authorization\`)`, {
        said: 'both',
      });
    }
  }
  return Object.keys(options).length === 0 ? null : options;
}

/** The part of a feed's fetch options that may be shown. */
export const summariseFetchOptions = (options: FetchOptions): FetchOptionsSummary => ({
  userAgent: options.userAgent ?? null,
  headerNames: Object.keys(options.headers ?? {}),
  basicAuth: options.basicAuth !== undefined,
});
