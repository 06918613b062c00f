/**
 * Failures of the source behind a feed: the request was valid, the source let it down. A create
 * that meets one created nothing (create-feed.ts); REST answers them 402 (src/web/status.ts).
 */
export const sourceFailureCodes = [
  'address_not_allowed',
  'source_unreachable',
  'upstream_timeout',
  'upstream_status',
  'too_many_redirects',
  'body_too_large',
  'not_a_feed',
  'no_items_found',
  'parse_timeout',
] as const;

/**
 * The closed set of failure codes. Failures are classified where they happen and mapped once per
 * surface: `src/web/status.ts` (status), `src/http/errors.ts` (body), `src/graphql/errors.ts`
 * (extensions), `src/jobs/retry-policy.ts` (retry or give up).
 */
export const errorCodes = [
  // the request itself
  'validation_failed',
  'invalid_url',
  'invalid_json',
  'unsupported_media_type',
  'idempotency_conflict',
  'rate_limited',
  'refresh_throttled',
  'too_many_subscriptions',
  'too_many_subscribers',
  'too_many_connections',
  'payload_too_large',
  'route_not_found',
  'method_not_allowed',
  'uri_too_long',
  'headers_too_large',
  'request_timeout',
  // authentication and transport
  'unauthorized',
  'sign_in_failed',
  'forbidden',
  'https_required',
  // resources
  'feed_not_found',
  'feed_already_deleted',
  'bundle_not_found',
  'bundle_already_deleted',
  'webhook_not_found',
  'delivery_not_found',
  'event_not_found',
  'import_not_found',
  'key_not_found',
  'user_not_found',
  'user_exists',
  ...sourceFailureCodes,
  // ours
  'fetch_options_unreadable',
  'store_unavailable',
  'render_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** A failure with a code from the closed set; `message` is for humans and says what to do next. */
export class FeedmillError extends Error {
  override readonly name: string = 'FeedmillError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra facts for the surface that maps the error (e.g. the upstream status or Retry-After). */
    readonly details: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
  }
}

/**
 * A refusal of one field's value. `details.field` names the field as the client wrote it
 * (`filters.any[0].op`), so a form puts the message beside its input without reading the words;
 * a subject in words (`{ whole: 'the request body' }`) names no field.
 */
export function fieldRefusal(field: string | { whole: string }, message: string, code: ErrorCode = 'validation_failed'): FeedmillError {
  return new FeedmillError(code, message, typeof field === 'string' ? { field } : {});
}

export function isFeedmillError(error: unknown): error is FeedmillError {
  return error instanceof FeedmillError;
}

export type SourceFailureCode = (typeof sourceFailureCodes)[number];

const sourceFailures: ReadonlySet<string> = new Set(sourceFailureCodes);
const allCodes: ReadonlySet<string> = new Set(errorCodes);

export const isSourceFailure = (code: ErrorCode): code is SourceFailureCode => sourceFailures.has(code);

/** Whether a code read from outside (a GraphQL extension, a stored row) is one of ours. */
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && allCodes.has(code);
