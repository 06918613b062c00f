import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HostedFeedRenderer } from '../../app/hosted-feed.js';
import { FeedmillError } from '../../domain/errors.js';
import { ErrorBody } from '../schemas/common.js';

const HostedParams = Type.Object({ file: Type.String({ maxLength: 80 }) });

/** Every answer a hosted feed gives: the document, 304 for a fresh conditional GET, or an error in our shape. */
const hostedResponses = {
  200: { description: 'The feed as RSS 2.0.', content: { 'application/rss+xml': { schema: Type.String() } } },
  304: { description: 'Not modified since the ETag or date the reader sent.', type: 'null' },
  400: ErrorBody,
  404: ErrorBody,
  414: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
};

/** RFC 9110 §13.1.2: If-None-Match is a list of entity tags, or `*`; weak tags compare weakly. */
function matchesEtag(header: string, etag: string): boolean {
  const bare = (tag: string): string => tag.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((tag) => bare(tag) === bare(etag));
}

/**
 * Hosted feeds: `/feeds/{id}.xml`, no authentication (feed readers can't send a header; ids are
 * unguessable), with ETag and Last-Modified answering conditional GETs with 304.
 */
export const hostedRoutes: FastifyPluginAsyncTypebox<{ render: HostedFeedRenderer }> = async (app, { render }) => {
  app.get('/feeds/:file', { schema: { params: HostedParams, response: hostedResponses } }, async (request, reply) => {
    const match = /^([A-Za-z0-9_-]{1,64})\.xml$/.exec(request.params.file);
    const document = match?.[1] ? await render(match[1]) : undefined;
    if (!document) {
      throw new FeedmillError('feed_not_found', `No hosted feed at ${request.url}; the address is the feed's \`rss_feed_url\``);
    }
    void reply.header('etag', document.etag).header('last-modified', document.lastModified).header('cache-control', 'public, max-age=60');
    const inm = request.headers['if-none-match'];
    const ims = request.headers['if-modified-since'];
    // RFC 9110 §13.2.2: If-Modified-Since is ignored when If-None-Match is present.
    const fresh = inm !== undefined ? matchesEtag(inm, document.etag) : ims !== undefined && Date.parse(ims) >= Date.parse(document.lastModified);
    if (fresh) return reply.status(304).send();
    return reply.type('application/rss+xml; charset=utf-8').send(document.body);
  });
};
