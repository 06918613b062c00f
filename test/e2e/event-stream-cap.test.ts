import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Agent, request } from 'undici';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';

// FEEDMILL_EVENT_STREAMS_PER_ACCOUNT as an operator sets it: the binary over HTTPS caps the
// `GET /v1/events` streams one account holds open (the route's own test builds the app directly).
t.setTimeout(120_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-stream-cap-'));
const env = { ...(await binaryEnv(dataDir)), FEEDMILL_EVENT_STREAMS_PER_ACCOUNT: '2' };
const { service, key } = await startServiceAs(env, 'alice');
const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8') } });
const open: { destroy(): void }[] = [];
t.teardown(async () => {
  for (const body of open) body.destroy();
  await agent.close();
  await service.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a stream and leaves it open; its status and, when refused, its body. */
async function stream(): Promise<{ status: number; text: string }> {
  const response = await request(`${service.baseUrl}/v1/events`, {
    headers: { authorization: key.authorization, accept: 'text/event-stream' },
    dispatcher: agent,
  });
  if (response.statusCode === 200) {
    open.push(response.body);
    return { status: 200, text: '' };
  }
  return { status: response.statusCode, text: await response.body.text() };
}

t.test('the third stream of an account is refused with 429, naming the setting', async (t) => {
  t.equal((await stream()).status, 200);
  t.equal((await stream()).status, 200);
  const third = await stream();
  t.equal(third.status, 429);
  const body = JSON.parse(third.text) as { errors: { code: string }[]; message: string };
  t.equal(body.errors[0]?.code, 'too_many_connections');
  t.match(body.message, /At most 2 event streams .*FEEDMILL_EVENT_STREAMS_PER_ACCOUNT/);
});
