import type { FastifyError, FastifyInstance } from 'fastify';
import type { FeedmillError} from '../domain/errors.js';
import { isFeedmillError, type ErrorCode } from '../domain/errors.js';

/** The one place codes become HTTP statuses. 402: valid parameters, but the request failed (spec). */
export const statusOf: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_url: 400,
  invalid_json: 400,
  unsupported_media_type: 415,
  idempotency_conflict: 409,
  rate_limited: 429,
  payload_too_large: 413,
  route_not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  https_required: 403,
  feed_not_found: 404,
  feed_already_deleted: 404,
  bundle_not_found: 404,
  bundle_already_deleted: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  key_not_found: 404,
  address_not_allowed: 402,
  source_unreachable: 402,
  upstream_timeout: 402,
  upstream_status: 402,
  too_many_redirects: 402,
  body_too_large: 402,
  not_a_feed: 402,
  no_items_found: 402,
  parse_timeout: 402,
  internal_error: 500,
};

export interface ErrorBody {
  message: string;
  statusCode: number;
  errors: { title: string; code: string }[];
}

export function errorBody(code: ErrorCode, message: string, titles: readonly string[] = [message]): ErrorBody {
  return { message, statusCode: statusOf[code], errors: titles.map((title) => ({ title, code })) };
}

/** Fastify's own request errors, by their FST_ code. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
};

const fastifyMessages: Partial<Record<ErrorCode, string>> = {
  unsupported_media_type: 'Expected `Content-Type: application/json`',
  invalid_json: 'Expected a JSON body',
};

function translate(error: FastifyError): { code: ErrorCode; message: string; titles?: string[] } {
  if (error.validation) {
    const titles = error.validation.map((issue) => {
      const where = `${error.validationContext ?? 'request'}${issue.instancePath.replaceAll('/', '.')}`;
      const extra = issue.keyword === 'additionalProperties' ? ` \`${String(issue.params.additionalProperty)}\`` : '';
      return `\`${where}\` ${issue.message ?? 'is invalid'}${extra}`;
    });
    return { code: 'validation_failed', message: titles.join('; '), titles };
  }
  const code = fastifyCodes[error.code];
  if (code) {
    const hint = fastifyMessages[code];
    return { code, message: hint ? `${hint}: ${error.message}` : error.message };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: 'validation_failed', message: error.message };
  }
  return { code: 'internal_error', message: 'Something went wrong on our side; try again, and report it if it persists' };
}

/** Every failure leaves in the spec's error shape, including unknown routes and Fastify's own errors. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | FeedmillError, request, reply) => {
    const mapped = isFeedmillError(error) ? { code: error.code, message: error.message } : translate(error);
    const body = errorBody(mapped.code, mapped.message, 'titles' in mapped ? mapped.titles : undefined);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    if (isFeedmillError(error) && error.details.retryAfter !== undefined) void reply.header('retry-after', String(error.details.retryAfter));
    return reply.status(body.statusCode).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body = errorBody('route_not_found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}; the README lists every route`);
    return reply.status(404).send(body);
  });
}
