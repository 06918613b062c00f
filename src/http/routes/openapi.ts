import type { FastifyPluginAsync } from 'fastify';

/** The OpenAPI document at `/v1/openapi.json` (and under every API prefix); public, like any API docs. */
export const openApiRoutes: FastifyPluginAsync<{ prefixes: string[] }> = async (app, { prefixes }) => {
  for (const prefix of prefixes) {
    app.get(`${prefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  }
};
