import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../domain/errors.js';
import { errorBody } from './errors.js';

/** What Node's HTTP parser refused, by its error code; anything else it refused is a malformed request. */
const parserErrors: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'Expected the request line and headers to fit in 16 KiB together; send a shorter URL or fewer headers',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'Expected the whole request within the request timeout; it arrived too slowly',
  },
};

const malformed = {
  code: 'validation_failed',
  message: 'Expected an HTTP/1.1 request, but it could not be parsed (an unknown method, or a malformed request line or header)',
} as const;

/**
 * Fastify's `clientErrorHandler`: requests Node refuses before Fastify sees them (431 headers too
 * large, 408, a request line it cannot parse) are answered in the spec's error shape too, and the
 * connection is closed, as Node itself does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer (Node docs, event 'clientError').
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, message } = parserErrors[error.code ?? ''] ?? malformed;
  const shaped = errorBody(code, message);
  const body = JSON.stringify(shaped);
  const status = shaped.statusCode;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
