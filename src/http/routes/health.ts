import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { tag } from '../openapi-tags.js';
import { ErrorBody, Health } from '../schemas/common.js';

/** True when the store and the parser pool can take work. */
export type ReadinessCheck = () => Promise<boolean>;

/** `/healthz`: the process answers. `/readyz`: it can also do work (503 when not). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ ready: ReadinessCheck }> = async (app, { ready }) => {
  // 403: behind a trusted proxy, a probe that reached it over plain HTTP is refused like any request (https-only.ts).
  const probe = { tags: [tag.health] };
  const readiness = (status: string, description: string) =>
    Type.Object({ status: Type.String() }, { description, examples: [{ status }] });
  app.get(
    '/healthz',
    {
      config: { rateLimit: false },
      schema: {
        ...probe,
        operationId: 'getHealth',
        summary: 'Liveness probe',
        description: 'The process answers: `{"status": "ok"}`.',
        response: { 200: Health, 403: ErrorBody },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: {
        ...probe,
        operationId: 'getReadiness',
        summary: 'Readiness probe',
        description: 'The store, Redis in cluster mode and the parser pool each answer within 2 s: `ready`; otherwise 503 `not_ready`.',
        response: {
          200: readiness('ready', 'Ready to work.'),
          503: readiness('not_ready', 'Some part did not answer in time.'),
          403: ErrorBody,
        },
      },
    },
    async (_request, reply) => ((await ready().catch(() => false)) ? { status: 'ready' } : reply.status(503).send({ status: 'not_ready' })),
  );
};
