import { Type } from 'typebox';

/** Spec "Error body". */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    statusCode: Type.Integer(),
    errors: Type.Array(Type.Object({ title: Type.String(), code: Type.String() })),
  },
  { $id: 'ErrorBody', description: 'Every failure, whatever its status.' },
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
  500: ErrorBody,
} as const;

/** Path ids are plain strings here: an id of the wrong shape is simply not found (404), never a 400 or 500. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Spec "Deletion result". */
export const DeletionResult = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

// The same ranges `parsePage` checks (spec "Limits"), so a value the schema allows is one the route takes.
const limitPattern = '^0*([1-9][0-9]?|100)$';
const offsetPattern = '^[0-9]{1,15}$';
export const Limit = (description: string) => Type.String({ maxLength: 20, pattern: limitPattern, description, 'x-expected': 'an integer from 1 to 100' });
const Offset = (description: string) => Type.String({ maxLength: 20, pattern: offsetPattern, description, 'x-expected': 'an integer of at least 0' });

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
