import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { once } from 'node:events';
import { Type } from 'typebox';
import type { AppDeps } from '../../app/deps.js';
import { resolveEventScope } from '../../app/event-scope.js';
import { eventStream, oldestKept, pastEvents, positionAfter } from '../../app/event-stream.js';
import { FeedmillError } from '../../domain/errors.js';
import { errorBody } from '../errors.js';
import { sseStreams } from '../../web/sse.js';
import { tag } from '../openapi-tags.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas/common.js';
import { sseExample } from '../schemas/examples.js';
import { EventPage, EventsQuery } from '../schemas/events.js';

const split = (list: string | undefined): string[] | undefined => list?.split(',');

/** JSON pages when the client asks for JSON and not for a stream (RFC 9110 §12.5.1, simplified to presence). */
const wantsJson = (accept: string | undefined): boolean =>
  !!accept && accept.includes('application/json') && !accept.includes('text/event-stream');

/**
 * `GET /v1/events`: the account's `feed_update` events as server-sent events, each frame's `id:`
 * the event id; `Last-Event-ID` (or `?since=`) replays the stored events after it first, then
 * the stream continues live (app/event-stream.ts). `Accept: application/json` gives pages of
 * past events instead, for clients that pull.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const { eventStreamsPerAccount } = deps.settings;
  const openStream = sseStreams(app, {
    maxPerAccount: eventStreamsPerAccount,
    tooMany: `At most ${eventStreamsPerAccount} event streams of one account at once on this server (FEEDMILL_EVENT_STREAMS_PER_ACCOUNT); close one first`,
  });

  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream feed_update events',
        description:
          "The account's `feed_update` events as server-sent events, each frame's `id:` the event id; `Last-Event-ID` (or `since`) replays the stored events after it (30 days), then the stream goes on live. With `Accept: application/json`, pages of past events instead.",
        tags: [tag.events],
        querystring: EventsQuery,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 80 })) }),
        response: {
          200: {
            description: 'Server-sent events (`text/event-stream`), or with `Accept: application/json` a page of past events.',
            content: { 'text/event-stream': { schema: Type.String(), example: sseExample }, 'application/json': { schema: EventPage } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { query } = request;
      const scope = await resolveEventScope(
        deps,
        principal,
        { feedIds: split(query.feeds), bundleIds: split(query.bundles) },
        { feeds: 'feeds', bundles: 'bundles' },
      );
      const lastEventId = request.headers['last-event-id'];
      const since = lastEventId ?? query.since;
      const after =
        since === undefined
          ? undefined
          : await positionAfter(deps, principal, since, lastEventId === undefined ? 'since' : 'Last-Event-ID');

      if (wantsJson(request.headers.accept)) {
        const page = await pastEvents(deps, scope, after ?? oldestKept(deps), query.limit === undefined ? 50 : Number(query.limit));
        // The untyped reply: TypeBox infers `changed_fields` of the event schema as never[]; the schema still serializes it.
        return (reply as FastifyReply)
          .type('application/json; charset=utf-8')
          .send({ data: page.events.map((envelope) => envelope.event), next_since: page.next?.id ?? null });
      }

      const stream = openStream(request, reply, principal.accountId);
      try {
        for await (const envelope of eventStream(deps, scope, after, stream.signal)) {
          // Pulled one at a time: a client that reads slowly holds the replay, not our memory.
          if (!stream.raw.write(`id: ${envelope.event.id}\nevent: feed_update\ndata: ${JSON.stringify(envelope.event)}\n\n`)) {
            await Promise.race([once(stream.raw, 'drain'), once(stream.signal, 'abort')]);
          }
        }
      } catch (error) {
        const known =
          error instanceof FeedmillError
            ? error
            : new FeedmillError('internal_error', 'The event stream failed; reconnect with the last event id');
        if (!(error instanceof FeedmillError)) request.log.error({ err: error }, 'event stream failed');
        stream.raw.write(`event: error\ndata: ${JSON.stringify(errorBody(known.code, known.message))}\n\n`);
      } finally {
        stream.end();
      }
    },
  );
};
