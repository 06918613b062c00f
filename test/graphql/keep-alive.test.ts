import t from 'tap';
import { keepAliveMs } from '../../src/web/keep-alive.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { openWebSocket, startGraphqlHttps } from './transport-fixtures.js';

// graphql-ws pings every 12 s unless told otherwise; a quiet socket should hear from the server
// once per keepAliveMs instead, like an SSE stream, and no sooner.
const env = createTestDeps();
const server = await startGraphqlHttps(env.deps);
t.teardown(async () => {
  await server.close();
  await env.close();
});

t.test('a quiet WebSocket is pinged once per keep-alive interval, not at graphql-ws’s 12 s', async (t) => {
  const opened = await openWebSocket(server, await env.bearer('keep-alive'));
  if (opened.code !== undefined) throw new Error(`closed with ${opened.code}: ${opened.reason}`);
  const { socket } = opened;
  t.teardown(() => socket.terminate());
  const since = Date.now();
  const firstPing = await new Promise<number>((resolve, reject) => {
    socket.once('ping', () => resolve(Date.now() - since));
    socket.once('close', (code) => reject(new Error(`closed with ${code} before a ping`)));
  });
  t.ok(firstPing >= keepAliveMs - 1000, `the first ping came after ${firstPing} ms, not before ${keepAliveMs - 1000}`);
  t.ok(firstPing < keepAliveMs + 5000, `and it came (after ${firstPing} ms)`);
  t.equal(socket.readyState, socket.OPEN, 'the socket answered the ping by itself and stays open');
});
