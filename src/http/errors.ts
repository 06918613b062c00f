import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { statusOf } from '../web/status.js';
import { isFeedmillError, type ErrorCode, type FeedmillError } from '../domain/errors.js';
import { describeValidation } from './validation-messages.js';
import { maxParamLength } from './path-limits.js';
import type { SecurityHeaders } from './security-header-set.js';

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
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
};

const fastifyMessages: Partial<Record<ErrorCode, string>> = {
  unsupported_media_type: 'Expected `Content-Type: application/json`',
  invalid_json: 'Expected a JSON body',
};

/** Fastify's own messages for these repeat the whole path, which may be kilobytes long; ours say what was expected. */
const replacedMessages: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: `Expected each path segment to be at most ${maxParamLength} characters; check the id in the path`,
  FST_ERR_BAD_URL: 'Expected a path of valid percent-encoded UTF-8; a `%` must be followed by two hex digits',
};

function translate(error: FastifyError): { code: ErrorCode; message: string; titles?: string[] } {
  if (error.validation) {
    const { code, titles } = describeValidation(error.validation, error.validationContext ?? 'request');
    return { code, message: titles.join('; '), titles };
  }
  const code = fastifyCodes[error.code];
  const replaced = replacedMessages[error.code];
  if (code && replaced) return { code, message: replaced };
  if (code) {
    const hint = fastifyMessages[code];
    return { code, message: hint ? `${hint}: ${error.message}` : error.message };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: 'validation_failed', message: error.message };
  }
  return { code: 'internal_error', message: 'Something went wrong on our side; try again, and report it if it persists' };
}

function send(error: FastifyError | FeedmillError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // A domain refusal names its fields in the spec's words, which are REST's: its message is sent as it is
  // (GraphQL spells them its own way: src/graphql/field-names.ts).
  const mapped = isFeedmillError(error) ? { code: error.code, message: error.message } : translate(error);
  const body = errorBody(mapped.code, mapped.message, 'titles' in mapped ? mapped.titles : undefined);
  if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  if (isFeedmillError(error) && error.details.retryAfter !== undefined) void reply.header('retry-after', String(error.details.retryAfter));
  return reply.status(body.statusCode).send(body);
}

/**
 * Fastify's `frameworkErrors` option: errors met while routing (a bad percent-encoding, a path
 * segment over `maxParamLength`) leave in our shape too. No hook runs for them, so the security
 * headers the `onSend` hook gives every other response are set here.
 */
export function frameworkErrorsWith(headersFor: SecurityHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void send(error, request, reply.headers(headersFor({ html: false, https: request.protocol === 'https' })));
  };
}

/** Every failure leaves in the spec's error shape, including unknown routes and Fastify's own errors. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | FeedmillError, request, reply) => send(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const body = errorBody(
      'route_not_found',
      `No route ${request.method} ${request.url.split('?')[0] ?? ''}; docs/api.md lists every route`,
    );
    return reply.status(404).send(body);
  });
}
