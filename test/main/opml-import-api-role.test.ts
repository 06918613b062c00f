import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Agent, request } from 'undici';
import { sleep } from '../fixtures/eventually.js';
import { freePort, startFeedmill } from '../fixtures/feedmill-process.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { startRssSource } from '../fixtures/rss-source.js';

// `feedmill api` in embedded mode with no worker beside it: the import it takes is a job of its own
// in-process queue, and it must still run there.
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-opml-api-'));
const env = {
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_METRICS_PORT: '0',
  FEEDMILL_DATA_DIR: dataDir,
  FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'true',
  FEEDMILL_PARSER_THREADS: '1',
  FEEDMILL_LOG_LEVEL: 'warn',
};
const source = await startRssSource(1);
const service = await startFeedmill(env, 'api');
const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8') } });
t.teardown(async () => {
  await agent.close();
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const { authorization } = await createKey(env, 'alice');

t.test('an import taken by an embedded-mode API with no worker runs to its end', async (t) => {
  const started = await request(`${service.baseUrl}/v1/opml`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'text/x-opml' },
    body: `<opml version="2.0"><body><outline text="A" xmlUrl="${source.url}"/></body></opml>`,
    dispatcher: agent,
  });
  t.equal(started.statusCode, 202);
  const { id } = (await started.body.json()) as { id: string };
  let status = '';
  let outcomes: { outcome: string }[] = [];
  for (let polls = 0; polls < 300 && status !== 'finished'; polls++) {
    await sleep(100);
    const progress = JSON.parse((await service.call('GET', `/v1/opml/imports/${id}`, { authorization })).text) as {
      status: string;
      outcomes: { outcome: string }[];
    };
    ({ status, outcomes } = progress);
  }
  t.equal(status, 'finished');
  t.same(
    outcomes.map((outcome) => outcome.outcome),
    ['created'],
  );
});
