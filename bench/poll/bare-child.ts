/**
 * The bare baselines, each an HTTPS server with the same certificate as feedmill's API:
 * - `fastify-bytes`: one Fastify route sending a response of the API, already serialized, from a
 *   Buffer (the JSON of GET /v1/feeds/:id; the hosted XML, to tell Fastify's share from ours);
 * - `fastify-object`: the same route sending the parsed JSON object (serialized per request);
 * - `node-https`: `node:https` writing the hosted XML from a Buffer.
 * Started with a `BareRequest` as JSON in argv; answers over IPC with the port it listens on.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

export interface BareRequest {
  kind: 'fastify-bytes' | 'fastify-object' | 'node-https';
  /** File holding the bytes to serve. */
  bodyFile: string;
  contentType: string;
  cert: string;
  key: string;
}

async function listen(request: BareRequest): Promise<number> {
  const body = readFileSync(request.bodyFile);
  if (request.kind === 'node-https') {
    const server = createServer({ cert: request.cert, key: request.key }, (_req, res) => {
      res.writeHead(200, { 'content-type': request.contentType, 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }
  const app = Fastify({ https: { cert: request.cert, key: request.key } });
  const object: unknown = request.kind === 'fastify-object' ? JSON.parse(body.toString('utf8')) : undefined;
  app.get('/*', async (_req, reply) => (request.kind === 'fastify-bytes' ? reply.type(request.contentType).send(body) : object));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

listen(JSON.parse(process.argv[2] ?? '{}') as BareRequest).then(
  (port) => process.send?.({ port }),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
