import type { ErrorCode } from '../domain/errors.js';

/**
 * The one place codes become HTTP statuses (spec "Status codes"; 402: valid parameters, but the
 * request failed: the domain's source failures). REST answers with it, the dashboard too; GraphQL
 * carries it as `extensions.statusCode`, documented as "what REST would answer", so it reads this
 * table rather than keep a copy (.dependency-cruiser.cjs allows graphql this one file of src/http).
 * The domain knows codes only.
 */
export const statusOf: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_url: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  idempotency_conflict: 409,
  rate_limited: 429,
  refresh_throttled: 429,
  too_many_subscriptions: 429,
  too_many_subscribers: 409,
  too_many_connections: 429,
  payload_too_large: 413,
  route_not_found: 404,
  method_not_allowed: 405,
  uri_too_long: 414,
  headers_too_large: 431,
  request_timeout: 408,
  unauthorized: 401,
  sign_in_failed: 401,
  forbidden: 403,
  https_required: 403,
  feed_not_found: 404,
  feed_already_deleted: 404,
  bundle_not_found: 404,
  bundle_already_deleted: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  event_not_found: 404,
  import_not_found: 404,
  key_not_found: 404,
  user_not_found: 404,
  user_exists: 409,
  address_not_allowed: 402,
  source_unreachable: 402,
  upstream_timeout: 402,
  upstream_status: 402,
  too_many_redirects: 402,
  body_too_large: 402,
  not_a_feed: 402,
  no_items_found: 402,
  parse_timeout: 402,
  fetch_options_unreadable: 409,
  store_unavailable: 503,
  render_unavailable: 503,
  internal_error: 500,
};
