import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HostedFeedRenderer } from '../../app/hosted-feed.js';
import { FeedmillError } from '../../domain/errors.js';
import { formatForAccept, hostedFormats, isHostedFormat } from '../../formats/hosted-formats.js';
import type { RenderableFeed } from '../../formats/rss.js';
import { tag } from '../openapi-tags.js';
import { ErrorBody } from '../schemas/common.js';
import { feedExample, feedItemExample } from '../schemas/examples.js';
import { codingForAcceptEncoding, createCompressedCopies } from './content-coding.js';

const HostedParams = Type.Object({
  file: Type.String({ maxLength: 80, description: 'The id, with `.xml`, `.atom`, `.json` or `.csv`, or without an extension.' }),
});

// JSON Feed is JSON: its schema says so, so a client (or Schemathesis) checking the body finds an object.
// The optional fields are the ones renderJsonFeed writes when they have a value.
const JsonFeedDocument = Type.Object(
  {
    version: Type.Literal('https://jsonfeed.org/version/1.1'),
    title: Type.String(),
    home_page_url: Type.Optional(Type.String()),
    feed_url: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    hubs: Type.Optional(Type.Array(Type.Object({ type: Type.String(), url: Type.String() }))),
    items: Type.Array(
      Type.Object({
        id: Type.String(),
        url: Type.Optional(Type.String()),
        title: Type.Optional(Type.String()),
        content_html: Type.Optional(Type.String()),
        image: Type.Optional(Type.String()),
        date_published: Type.Optional(Type.String()),
        authors: Type.Optional(Type.Array(Type.Object({ name: Type.String() }))),
        tags: Type.Optional(Type.Array(Type.String())),
        attachments: Type.Optional(
          Type.Array(Type.Object({ url: Type.String(), mime_type: Type.String(), size_in_bytes: Type.Optional(Type.Integer()) })),
        ),
      }),
    ),
  },
  { description: hostedFormats.json.name },
);
// Each format's example is rendered by its own renderer from the document's example feed, so it shows what a reader gets.
const exampleFeed: RenderableFeed = {
  title: feedExample.title,
  description: feedExample.description,
  link: 'https://blog.example.com/',
  selfUrl: feedExample.rss_feed_url,
  hubUrl: 'https://feeds.example.org/websub',
  icon: feedExample.icon,
  updatedAt: feedItemExample.date_published,
  items: [{ ...feedItemExample, key: feedItemExample.url, categories: ['computing'], enclosures: [] }],
};
const documentContent = Object.fromEntries(
  Object.values(hostedFormats).map((format) => {
    const example = format.render(exampleFeed);
    return [
      format.mediaType,
      format === hostedFormats.json
        ? { schema: JsonFeedDocument, example: JSON.parse(example) as unknown }
        : { schema: Type.String({ description: format.name }), example },
    ];
  }),
);

/** Every answer a hosted feed gives: the document, 304 for a fresh conditional GET, or an error in our shape. */
const hostedResponses = {
  200: {
    description:
      'The feed as RSS 2.0 (`.xml`), Atom 1.0 (`.atom`), JSON Feed 1.1 (`.json`) or CSV (`.csv`); the extensionless address by `Accept`.',
    content: documentContent,
  },
  304: { description: 'Not modified since the ETag or date the reader sent.', type: 'null' },
  400: ErrorBody,
  404: ErrorBody,
  414: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
};

// A coded copy has its own strong ETag (RFC 9110 §8.8.3: a different representation), derived from
// the document's, so a conditional GET is fresh whichever coding the reader's copy came in.
const codedEtag = (etag: string, coding: string): string => (coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`);
const documentTag = (tag: string): string =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/-(?:br|gzip)"$/, '"');

/** RFC 9110 §13.1.2: If-None-Match is a list of entity tags, or `*`; weak tags compare weakly. */
function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === '*' || header.split(',').some((tag) => documentTag(tag) === etag);
}

/**
 * Hosted feeds: `/feeds/{id}.{xml,atom,json,csv}` and `/feeds/{id}` by `Accept`, no authentication
 * (feed readers can't send a header; ids are unguessable), each with its own ETag and
 * Last-Modified answering conditional GETs with 304, gzip or brotli by `Accept-Encoding`, and the
 * self and WebSub hub links (RFC 8288 `Link`, as WebSub §4 asks) beside the ones in the document.
 */
export const hostedRoutes: FastifyPluginAsyncTypebox<{ render: HostedFeedRenderer }> = async (app, { render }) => {
  const compressed = createCompressedCopies();
  const schema = {
    operationId: 'getHostedFeed',
    summary: 'Read a hosted feed or bundle',
    description:
      'A feed (`{id}`) or bundle (`_{id}`) as RSS 2.0 (`.xml`), Atom 1.0 (`.atom`), JSON Feed 1.1 (`.json`) or CSV (`.csv`); without an extension, by `Accept`. No key: feed readers cannot send one, and ids are unguessable. Answers conditional GETs (`If-None-Match`, `If-Modified-Since`) with 304.',
    tags: [tag.hosted],
    params: HostedParams,
    response: hostedResponses,
  };
  app.get('/feeds/:file', { schema }, async (request, reply) => {
    const match = /^([A-Za-z0-9_-]{1,64})(?:\.([a-z]{1,8}))?$/.exec(request.params.file);
    const extension = match?.[2];
    const format = extension === undefined ? formatForAccept(request.headers.accept) : isHostedFormat(extension) ? extension : undefined;
    const document = match?.[1] && format ? await render(match[1], format) : undefined;
    if (!document || !format) {
      throw new FeedmillError(
        'feed_not_found',
        `No hosted feed at ${request.url}; expected the feed's \`rss_feed_url\` with .xml, .atom, .json, .csv or no extension`,
      );
    }
    const coding = codingForAcceptEncoding(request.headers['accept-encoding']);
    void reply
      .header('etag', codedEtag(document.etag, coding))
      .header('last-modified', document.lastModified)
      .header('cache-control', 'public, max-age=60')
      .header('vary', extension === undefined ? 'Accept, Accept-Encoding' : 'Accept-Encoding')
      .header('link', `<${document.selfUrl}>; rel="self", <${document.hubUrl}>; rel="hub"`);
    const inm = request.headers['if-none-match'];
    const ims = request.headers['if-modified-since'];
    // RFC 9110 §13.2.2: If-Modified-Since is ignored when If-None-Match is present.
    const fresh =
      inm !== undefined ? matchesEtag(inm, document.etag) : ims !== undefined && Date.parse(ims) >= Date.parse(document.lastModified);
    if (fresh) return reply.status(304).send();
    void reply.type(`${hostedFormats[format].mediaType}; charset=utf-8`);
    if (coding === 'identity') return reply.send(document.body);
    return reply.header('content-encoding', coding).send(await compressed(document.body, coding));
  });
};
