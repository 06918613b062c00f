import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

/** True when the store and the parser pool can take work. */
export type ReadinessCheck = () => Promise<boolean>;

const Status = Type.Object({ status: Type.String() });

/** `/healthz`: the process answers. `/readyz`: it can also do work (503 when not). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ ready: ReadinessCheck }> = async (app, { ready }) => {
  app.get('/healthz', { config: { rateLimit: false }, schema: { response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { rateLimit: false }, schema: { response: { 200: Status, 503: Status } } }, async (_request, reply) =>
    (await ready().catch(() => false)) ? { status: 'ready' } : reply.status(503).send({ status: 'not_ready' }),
  );
};
