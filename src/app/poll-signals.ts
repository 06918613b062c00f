import type { FetchHints } from '../ports/fetcher.js';

/** `Cache-Control: max-age=N` in seconds (RFC 9111 §5.2.2.1), when present. */
export function maxAgeSeconds(cacheControl: string | undefined): number | undefined {
  const match = cacheControl ? /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl) : null;
  return match?.[1] ? Number(match[1]) : undefined;
}

/** `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(retryAfter: string | number | undefined, now: Date): number | undefined {
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (typeof retryAfter === 'number' || /^\d+$/.test(retryAfter)) return Number(retryAfter);
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now.getTime()) / 1000));
}

export function hintSignals(hints: FetchHints, now: Date): { maxAgeSeconds?: number; retryAfterSeconds?: number } {
  return { maxAgeSeconds: maxAgeSeconds(hints.cacheControl), retryAfterSeconds: retryAfterSeconds(hints.retryAfter, now) };
}
