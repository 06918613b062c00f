import type { FastifyPluginAsync } from 'fastify';
import { FeedmillError } from '../../domain/errors.js';
import type { DashboardOptions } from '../context.js';
import { principalOf } from '../request.js';

/** Proxies and load balancers close a stream that stays silent for a minute; a comment keeps it open. */
const keepAliveMs = 25_000;
/** Tabs of one account following live updates in one process: each holds a connection and a bus listener. */
const maxStreamsPerAccount = 20;

/**
 * `GET /dashboard/events`: the signed-in account's feed updates as server-sent events, so open pages
 * refresh their live regions. Only which feed changed is sent: the page then reads it through the
 * same use cases as any request, so nothing here can show more than the page itself would.
 */
export const eventRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps }) => {
  const open = new Set<() => void>();
  const perAccount = new Map<string, number>();
  // Shutting down ends every stream, so the server's close does not wait on them.
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  app.get('/events', async (request, reply) => {
    const { accountId } = principalOf(request);
    if ((perAccount.get(accountId) ?? 0) >= maxStreamsPerAccount) {
      throw new FeedmillError('too_many_connections', `At most ${maxStreamsPerAccount} dashboard pages of one account follow live updates at once; close some tabs`);
    }
    perAccount.set(accountId, (perAccount.get(accountId) ?? 0) + 1);
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx would otherwise hold events back until its buffer fills.
      'x-accel-buffering': 'no',
    });
    stream.write('retry: 5000\n\n');
    const unsubscribe = deps.bus.subscribe((envelope) => {
      if (envelope.accountId !== accountId) return;
      stream.write(`event: feed_update\nid: ${envelope.event.id}\ndata: ${JSON.stringify({ feed_id: envelope.feedId, event_id: envelope.event.id })}\n\n`);
    });
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
    const end = (): void => {
      if (!open.delete(end)) return;
      clearInterval(keepAlive);
      unsubscribe();
      const left = (perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) perAccount.set(accountId, left);
      else perAccount.delete(accountId);
      stream.end();
    };
    open.add(end);
    request.raw.once('close', end);
  });
};
