import { FeedmillError, isFeedmillError } from '../../domain/errors.js';

export interface FailureContext {
  /** The hop being fetched when the failure happened. */
  readonly url: string;
  /** Whether the whole-request deadline had passed. */
  readonly timedOut: boolean;
  readonly timeoutMs: number;
}

// undici's own timers (errors.d.ts) and the kernel's.
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

const reasons: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the DNS lookup failed for now',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection closed before the answer was complete',
  HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
};

/**
 * The messages say what failed, not what happens next: the caller knows whether it retries.
 * Turns whatever a fetch threw into a FeedmillError from the closed set: the classification happens
 * here, where the failure is understood, so callers can map codes without looking at undici errors.
 * An error with no code anywhere in its cause chain is a bug, not a network failure: it is returned as is.
 */
export function classifyFailure(error: unknown, context: FailureContext): unknown {
  if (isFeedmillError(error)) return error;
  const code = errorCode(error);
  if (context.timedOut || (code !== undefined && timeoutCodes.has(code))) {
    return new FeedmillError('upstream_timeout', `Expected ${context.url} to answer within ${context.timeoutMs} ms, but it did not`);
  }
  if (code === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new FeedmillError('source_unreachable', `Could not fetch ${context.url}: ${describe(code)} (${code}: ${message})`);
}

function describe(code: string): string {
  const known = reasons[code];
  if (known !== undefined) return known;
  if (code.startsWith('Z_')) return 'the compressed body is corrupt';
  if (/CERT|TLS|SSL|SIGNATURE/.test(code)) return 'the TLS handshake failed';
  if (code.startsWith('HPE_')) return 'the answer is not valid HTTP';
  return 'the connection failed';
}

/** The first string `code` along the `cause` chain (undici wraps socket errors). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}
