import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../domain/errors.js';
import { errorBody } from './errors.js';
import type { SecurityHeaders } from './security-header-set.js';

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
 * large, 408, a request line it cannot parse) are answered in the spec's error shape, with the
 * security headers of every other response, and the connection is closed, as Node itself does.
 */
export function clientErrorHandlerWith(headersFor: SecurityHeaders) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer (Node docs, event 'clientError').
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { code, message } = parserErrors[error.code ?? ''] ?? malformed;
    const shaped = errorBody(code, message);
    const body = JSON.stringify(shaped);
    const status = shaped.statusCode;
    // The API's listener is TLS; nothing said by a proxy can be read from a request Node could not parse.
    const https = 'encrypted' in socket && socket.encrypted === true;
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...headersFor({ html: false, https }),
      connection: 'close',
    };
    if (socket.writable) {
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`);
    }
    socket.destroy(error);
  };
}
