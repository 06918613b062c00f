import type { FastifyInstance } from 'fastify';

/**
 * Graceful close. Node closes only the keep-alive connections that are idle when `close()` starts;
 * one whose request is still running would go idle afterwards and hold the server open until its
 * keep-alive timeout. Answers sent while closing say `Connection: close`, so each such socket ends
 * right after its last response.
 */
export function registerDrain(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
}
