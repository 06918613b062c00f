import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../app/idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, to settle when the response leaves. */
    idempotencyKey: string | null;
  }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Outcomes a retry with the same key must see again: successes, and failures that say something
 * about the resource or its source. Refusals a retry could change (auth, limits, conflicts, our
 * own 5xx) free the key instead; validation failures never claimed it (they fail before this hook).
 */
const kept = (status: number): boolean => status < 400 || status === 402 || status === 404;

const fingerprint = (request: FastifyRequest): string =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('base64url');

/** DESIGN.md: `Idempotency-Key` on any non-GET; the first response is replayed for 24 h. */
export function registerIdempotency(app: FastifyInstance, deps: Pick<AppDeps, 'idempotency' | 'clock'>): void {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (!unsafeMethods.has(request.method) || header === undefined || !request.principal) return;
    const key = Array.isArray(header) ? header.join(',') : header;
    const replay = await claimIdempotencyKey(deps, request.principal, key, fingerprint(request));
    if (replay) {
      return reply.code(replay.statusCode).header('idempotent-replayed', 'true').type(replay.contentType).send(replay.body);
    }
    request.idempotencyKey = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === null || !request.principal) return payload;
    request.idempotencyKey = null;
    if (kept(reply.statusCode) && (typeof payload === 'string' || payload === null)) {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      await completeIdempotencyKey(deps, request.principal, key, { statusCode: reply.statusCode, contentType, body: payload ?? '' });
    } else {
      await releaseIdempotencyKey(deps, request.principal, key);
    }
    return payload;
  });

  // A client that hangs up mid-request must not leave the key claimed.
  app.addHook('onRequestAbort', async (request) => {
    if (request.idempotencyKey !== null && request.principal) await releaseIdempotencyKey(deps, request.principal, request.idempotencyKey);
  });
}
