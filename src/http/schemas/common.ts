import { Type } from 'typebox';
import type { ErrorCode } from '../../domain/errors.js';
import { deletionResultExample, healthExample } from './examples.js';

/** Spec "Error body". */
export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: 'What went wrong and what to do next, for humans.' }),
    statusCode: Type.Integer({ description: 'The HTTP status, repeated.' }),
    errors: Type.Array(
      Type.Object({
        title: Type.String({ description: 'One problem, saying what was expected and what arrived.' }),
        code: Type.String({ description: 'A snake_case code from the closed list in docs/errors.md; what a program branches on.' }),
      }),
    ),
  },
  { description: 'Every failure, whatever its status.' },
);

/** The error responses every authenticated route can give. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  414: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  431: ErrorBody,
  500: ErrorBody,
  503: ErrorBody,
} as const;

/** `/healthz` and `/readyz`. */
export const Health = Type.Object(
  { status: Type.String({ description: '`ok` (alive), `ready`, or `not_ready`.' }) },
  { description: 'Whether the process answers, or can also do work.', examples: [healthExample] },
);

/** Path ids are plain strings here: an id of the wrong shape is simply not found (404), never a 400 or 500. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * What each error status means, with a typical body, for the OpenAPI document: openapi.ts makes each
 * a named response (`components.responses`) that every error answer of that status refers to. The
 * codes a status can carry are listed in docs/errors.md.
 */
export const errorStatuses: Record<number, { name: string; description: string; code: ErrorCode; message: string }> = {
  400: {
    name: 'BadRequest',
    description: 'The request does not match the schema: a field, the query or the path.',
    code: 'validation_failed',
    message: 'Expected `limit` to be an integer from 1 to 100, got `0`',
  },
  401: {
    name: 'Unauthorized',
    description: 'No API key, or one that is unknown, revoked or wrong.',
    code: 'unauthorized',
    message:
      'Expected `Authorization: Bearer <API_KEY>:<API_SECRET>` naming a live key and its secret; create a pair with `feedmill keys create`',
  },
  402: {
    name: 'SourceUnusable',
    description:
      "The request is valid, but the source (or webhook target) can't be used: unreachable, refused by the address rule, not a feed, or without items.",
    code: 'source_unreachable',
    message: 'The source at https://blog.example.com/feed.xml answered without a document; check the address',
  },
  403: {
    name: 'Forbidden',
    description: 'The key lacks the scope this operation needs (`read` or `write`), or the request did not arrive over HTTPS.',
    code: 'forbidden',
    message: 'This API key has the scopes [read]; this operation needs `write`',
  },
  404: {
    name: 'NotFound',
    description:
      "No such resource (another account's resource is not found either); the code says which, e.g. `feed_not_found`, or `feed_already_deleted` after a delete.",
    code: 'feed_not_found',
    message: 'Feed `Vw3kQ9xZpL2mRt7a` does not exist in this account; list your feeds with GET /v1/feeds',
  },
  409: {
    name: 'Conflict',
    description: 'The `Idempotency-Key` is still in flight, or was used with a different body.',
    code: 'idempotency_conflict',
    message: 'This Idempotency-Key was used with a different body',
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The body is larger than the limit.',
    code: 'payload_too_large',
    message: 'Expected a body of at most 65536 bytes',
  },
  414: {
    name: 'UriTooLong',
    description: 'A path segment is longer than the limit.',
    code: 'uri_too_long',
    message: 'Expected each path segment to be at most 2048 characters; check the id in the path',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not of a media type this operation takes.',
    code: 'unsupported_media_type',
    message: 'Expected `Content-Type: application/json`',
  },
  429: {
    name: 'TooManyRequests',
    description: 'The key (or client) spent its request budget; `Retry-After` says when to try again.',
    code: 'rate_limited',
    message: 'Too many requests: this key may make 600 per 60 s; retry in 12 s, backing off exponentially if it happens again',
  },
  431: {
    name: 'HeadersTooLarge',
    description: 'The request line and headers together are over 16 KiB (a query string counts): Node refuses them before routing.',
    code: 'headers_too_large',
    message: 'Expected the request line and headers to fit in 16 KiB together; send a shorter URL or fewer headers',
  },
  500: {
    name: 'InternalError',
    description: 'feedmill failed; the request may be retried.',
    code: 'internal_error',
    message: 'Something went wrong on our side; retry later',
  },
  503: {
    name: 'Unavailable',
    description:
      'A part feedmill needs is not there right now: the store (`store_unavailable`), or a browser for a feed with `render: always` (`render_unavailable`).',
    code: 'render_unavailable',
    message:
      'This feed asks for rendering (`render: always`), but no browser is available to this service; install Chromium and set FEEDMILL_CHROMIUM_PATH, or use `render: auto`',
  },
};

/** Spec "Deletion result". */
export const DeletionResult = Type.Object(
  {
    id: Type.String({ description: 'The id that was deleted.' }),
    deleted: Type.Boolean({ description: 'Always `true`: deleting twice is 404 `…_already_deleted`.' }),
  },
  { description: 'The outcome of a delete.', examples: [deletionResultExample] },
);

// The same ranges `parsePage` checks (spec "Limits"), so a value the schema allows is one the route takes.
const limitPattern = '^0*([1-9][0-9]?|100)$';
const offsetPattern = '^[0-9]{1,15}$';
export const Limit = (description: string) =>
  Type.String({ maxLength: 20, pattern: limitPattern, description, 'x-expected': 'an integer from 1 to 100' });
const Offset = (description: string) =>
  Type.String({ maxLength: 20, pattern: offsetPattern, description, 'x-expected': 'an integer of at least 0' });

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Limit('Integer 1 to 100. @default 10')),
    offset: Type.Optional(Offset('Integer ≥ 0. @default 0')),
    $limit: Type.Optional(Limit('Alias of `limit`.')),
    $offset: Type.Optional(Offset('Alias of `offset`.')),
  },
  { additionalProperties: false },
);

/** `sort` on feed and bundle retrieval; without it the resource's own preference applies. */
export const SortQuery = Type.Object(
  { sort: Type.Optional(Type.Union([Type.Literal('last_added'), Type.Literal('date')])) },
  { additionalProperties: false },
);

const octet = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const ipv4 = `${octet}(\\.${octet}){3}`;
const h16 = '[0-9A-Fa-f]{1,4}';
// RFC 4291 §2.2 text forms, the IPv4-mapped one included.
const ipv6 = [
  `(${h16}:){7}${h16}`,
  `(${h16}:){1,7}:`,
  `(${h16}:){1,6}:${h16}`,
  `(${h16}:){1,5}(:${h16}){1,2}`,
  `(${h16}:){1,4}(:${h16}){1,3}`,
  `(${h16}:){1,3}(:${h16}){1,4}`,
  `(${h16}:){1,2}(:${h16}){1,5}`,
  `${h16}:(:${h16}){1,6}`,
  `:((:${h16}){1,7}|:)`,
  `::[Ff]{4}:${ipv4}`,
].join('|');
const label = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// The last label starts with a letter: WHATWG URL parsing reads a host ending in a number as IPv4.
const lastLabel = '[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const host = `((${label}\\.)*${lastLabel}|${ipv4}|\\[(${ipv6})\\])`;

/**
 * An absolute http(s) URL without credentials: what `parseSourceUrl` accepts, written so that every
 * string the pattern allows also parses (host names of ASCII labels, IPv4, bracketed IPv6, printable
 * ASCII after the host). Whether the host may be reached is decided later, by the address rule.
 */
const port = '(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})';
const httpUrlPattern = `^https?://${host}(:${port})?([/?#][!-~]*)?$`;

/** The keywords of such a URL field; a value that fails them is `invalid_url`, as the use case would say. */
export const httpUrl = {
  maxLength: 2048,
  pattern: httpUrlPattern,
  'x-expected': 'an absolute http or https URL without credentials',
  'x-error-code': 'invalid_url',
} as const;

/** An icon: such a URL (credentials refused here too), or "" for none. */
export const httpUrlOrEmpty = {
  maxLength: 2048,
  pattern: `^$|${httpUrlPattern}`,
  'x-expected': 'an absolute http or https URL, or "" for none',
  'x-error-code': 'invalid_url',
} as const;
