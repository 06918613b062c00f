import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { FeedmillError } from '../domain/errors.js';
import { keepAliveMs } from './keep-alive.js';

export interface SseStream {
  /** The response, for `write` (false when its buffer is full: wait for `drain`). */
  readonly raw: ServerResponse;
  /** Aborted when the stream ends, whoever ends it: the client, the server's close, or `end`. */
  readonly signal: AbortSignal;
  end(): void;
}

export type OpenSse = (request: FastifyRequest, reply: FastifyReply, accountId: string) => SseStream;

/**
 * The plumbing of a server-sent-event route, in one place for the API's `/v1/events` and the
 * dashboard's live updates: at most `maxPerAccount` streams of one account in this process (each
 * holds a connection and a listener), the headers that keep proxies from buffering, a keep-alive
 * comment, and every stream ended when the server closes so its close does not wait on them.
 */
export function sseStreams(app: FastifyInstance, options: { maxPerAccount: number; tooMany: string }): OpenSse {
  const open = new Set<() => void>();
  const perAccount = new Map<string, number>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  return (request, reply, accountId) => {
    if ((perAccount.get(accountId) ?? 0) >= options.maxPerAccount) throw new FeedmillError('too_many_connections', options.tooMany);
    perAccount.set(accountId, (perAccount.get(accountId) ?? 0) + 1);
    const stop = new AbortController();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx would otherwise hold events back until its buffer fills.
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 5000\n\n');
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), keepAliveMs);
    const end = (): void => {
      if (!open.delete(end)) return;
      stop.abort();
      clearInterval(keepAlive);
      const left = (perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) perAccount.set(accountId, left);
      else perAccount.delete(accountId);
      raw.end();
    };
    open.add(end);
    request.raw.once('close', end);
    return { raw, signal: stop.signal, end };
  };
}
