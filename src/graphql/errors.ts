import { GraphQLError } from 'graphql';
import { statusOf } from '../web/status.js';
import { graphqlFieldPath, graphqlMessage } from './field-names.js';
import { isErrorCode, isFeedmillError, type ErrorCode, type FeedmillError } from '../domain/errors.js';

/**
 * Failures of the whole request also set the HTTP status (yoga reads `extensions.http`, and strips
 * it from the body). Anything else fails one field, so the response stays 200 with partial data
 * (GraphQL over HTTP).
 */
const requestLevel: ReadonlySet<ErrorCode> = new Set(['unauthorized', 'forbidden', 'https_required', 'rate_limited']);

export interface FeedmillErrorExtensions {
  code: ErrorCode;
  statusCode: number;
  /** The refused field, in GraphQL's names (`fetch.basicAuth.username`), when one field was refused. */
  field?: string;
}

/**
 * A coded GraphQL error; `at` carries the path and locations of the field that failed. A
 * request-level failure with `retryAfter` sends `Retry-After` too, as REST does.
 */
export function codedError(
  code: ErrorCode,
  message: string,
  at?: GraphQLError,
  retryAfter?: string | number,
  field?: string,
): GraphQLError {
  const statusCode = statusOf[code];
  const headers = retryAfter === undefined ? {} : { headers: { 'retry-after': String(retryAfter) } };
  return new GraphQLError(message, {
    nodes: at?.nodes,
    source: at?.source,
    positions: at?.positions,
    path: at?.path,
    extensions: {
      code,
      statusCode,
      ...(field === undefined ? {} : { field }),
      ...(requestLevel.has(code) ? { http: { status: statusCode, ...headers } } : {}),
    },
  });
}

/** A domain failure as GraphQL says it: the fields it names spelt in GraphQL's names (field-names.ts). */
export function toGraphqlError(error: FeedmillError, at?: GraphQLError): GraphQLError {
  const field = error.details.field;
  return codedError(
    error.code,
    graphqlMessage(error.message),
    at,
    error.details.retryAfter,
    typeof field === 'string' ? graphqlFieldPath(field) : undefined,
  );
}

/** The FeedmillError behind a resolver's GraphQLError, however deeply wrapped. */
function feedmillCause(error: unknown): FeedmillError | undefined {
  for (let current = error; current; current = current instanceof GraphQLError ? current.originalError : undefined) {
    if (isFeedmillError(current)) return current;
  }
  return undefined;
}

/**
 * A bad variable value: graphql-js wraps the enum's or scalar's own GraphQLError ("Enum "ItemSort"
 * cannot represent value") with the variable's name, outside any field (no path).
 */
const fromGraphqlItself = (error: GraphQLError): boolean => error.path === undefined && error.originalError instanceof GraphQLError;

/**
 * yoga's `maskedErrors.maskError`: domain failures keep their code and message; errors graphql
 * itself raised about the request (syntax, unknown field, bad variable) become `validation_failed`;
 * anything else is our fault and leaves as `internal_error` without its details.
 */
export function maskError(error: unknown, message: string): Error {
  const at = error instanceof GraphQLError ? error : undefined;
  const cause = feedmillCause(error);
  if (cause) return toGraphqlError(cause, at);
  if (at && (at.originalError === undefined || fromGraphqlItself(at))) return isErrorCode(at.extensions.code) ? at : asValidationError(at);
  return codedError('internal_error', `${message} Something went wrong on our side; try again, and report it if it persists`, at);
}

/**
 * graphql-js ends a complaint about an unknown field, argument, type or enum value with its nearest
 * names (`didYouMean`: ' Did you mean "title"?'), always last in the message. They would let
 * anyone, signed in or not, read the schema field by field with introspection off.
 */
const suggestion = / Did you mean .*\?$/s;

/**
 * graphql's own complaint about the request, with our code and without name suggestions; its HTTP
 * status (if any) is kept. Every validation, parse and variable error passes here, on every transport.
 */
export function asValidationError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message.replace(suggestion, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code: 'validation_failed', statusCode: statusOf.validation_failed },
  });
}
