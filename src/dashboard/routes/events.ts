import type { FastifyPluginAsync } from 'fastify';
import { sseStreams } from '../../web/sse.js';
import type { DashboardOptions } from '../context.js';
import { principalOf } from '../request.js';

/**
 * `GET /dashboard/events`: the signed-in account's feed updates as server-sent events, so open pages
 * refresh their live regions. Only which feed changed is sent: the page then reads it through the
 * same use cases as any request, so nothing here can show more than the page itself would.
 */
export const eventRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps }) => {
  // A tab following live updates holds a connection and a bus listener, as a `GET /v1/events`
  // stream does: one setting caps both, each counted on its own.
  const { eventStreamsPerAccount } = deps.settings;
  const openStream = sseStreams(app, {
    maxPerAccount: eventStreamsPerAccount,
    tooMany: `At most ${eventStreamsPerAccount} dashboard pages of one account follow live updates at once on this server (FEEDMILL_EVENT_STREAMS_PER_ACCOUNT); close some tabs`,
  });

  app.get('/events', async (request, reply) => {
    const { accountId } = principalOf(request);
    const stream = openStream(request, reply, accountId);
    const unsubscribe = deps.bus.subscribe(accountId, (envelope) => {
      stream.raw.write(
        `event: feed_update\nid: ${envelope.event.id}\ndata: ${JSON.stringify({ feed_id: envelope.feedId, event_id: envelope.event.id })}\n\n`,
      );
    });
    stream.signal.addEventListener('abort', unsubscribe, { once: true });
  });
};
