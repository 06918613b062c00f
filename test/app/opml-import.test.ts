import t from 'tap';
import { createFeed } from '../../src/app/create-feed.js';
import { recordOpmlImport, runOpmlImport } from '../../src/app/opml.js';
import type { Principal } from '../../src/domain/api-key.js';
import { importOpmlHandler } from '../../src/jobs/import-opml.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const first = await startRssSource(1);
const second = await startRssSource(1);
t.teardown(async () => {
  await first.close();
  await second.close();
  await env.close();
});
const alice: Principal = { accountId: 'alice', keyId: 'k', scopes: ['read', 'write'] };
const entries = [
  { xmlUrl: first.url, title: 'First', groups: ['News'] },
  { xmlUrl: second.url, title: 'Second', groups: ['News'] },
];

t.test('a retried import job goes on after the outlines already done, and a finished one does nothing', async (t) => {
  const job = await recordOpmlImport(env.deps, alice, entries);
  // A worker died after the first outline's feed was created and its outcome recorded.
  const created = await createFeed(env.deps, alice, { url: first.url });
  await env.deps.imports.addOutcome(job.id, {
    xml_url: first.url,
    title: 'First',
    outcome: 'created',
    feed_id: created.feed.id,
    bundle: 'News',
    error: null,
  });
  const fetched = first.hits[200];
  t.equal(await importOpmlHandler(env.deps)({ id: job.id }), null, 'the job is done after one run');
  const done = await env.deps.imports.get(job.id);
  t.same(
    done?.outcomes.map((outcome) => [outcome.xml_url, outcome.outcome]),
    [
      [first.url, 'created'],
      [second.url, 'created'],
    ],
  );
  t.equal(first.hits[200], fetched, 'the first outline was not imported again');
  const bundles = await env.deps.bundles.list('alice', { limit: 10, offset: 0 });
  t.same(
    bundles.bundles.map((bundle) => [bundle.name, bundle.feedIds.length]),
    [['News', 2]],
    'the bundle holds both, the one from before the retry too',
  );
  t.equal(done?.status, 'finished');
  await runOpmlImport(env.deps, job.id);
  t.equal((await env.deps.imports.get(job.id))?.outcomes.length, 2, 'running it again changes nothing');
});
