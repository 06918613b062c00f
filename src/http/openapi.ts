import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** Variants the spec allows (`/api/v1`, `/v1/feed`, `/v1/bundled`) work, but are documented once. */
const isVariant = (url: string): boolean => url.startsWith('/api/') || /^\/v1\/(feed|bundled)(\/|$)/.test(url);

/**
 * OpenAPI 3.1 from the route schemas themselves (STYLE.md habit 8): the schema that validates a
 * request and whitelists a response is the one published, so the document cannot drift.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'feedmill',
        version,
        description:
          'Feed aggregation service: feeds from native feeds, bundles, settings. Every path also works under `/api/v1`; `/v1/feed` equals `/v1/feeds` and `/v1/bundled` equals `/v1/bundles`. Errors are `{message, statusCode, errors: [{title, code}]}`; the codes are listed in README.md.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>:<API_SECRET>`' },
        },
      },
    },
    // A schema nested under a response with an `$id` (FeedStatus) is published under that name, not `def-N`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      // A route without a schema (`/graphql`, which documents itself by introspection) is not part of the REST contract.
      if ((schema as typeof schema | undefined) === undefined) return { schema: { hide: true }, url };
      const scope = route.config?.scope;
      const documented = { ...schema, hide: isVariant(url) || schema.hide === true };
      // A prefix's `/` route answers with and without the slash; the spec writes it without.
      const path = url.length > 1 ? url.replace(/\/$/, '') : url;
      return { schema: scope ? { ...documented, security: [{ apiKey: [] }] } : documented, url: path };
    },
  });
}
