import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'cassandra-driver';
import { Webhook as Verifier } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { openCassandraStore } from '../../src/adapters/cassandra/index.js';
import { openStores } from '../../src/main/stores.js';
import { binaryEnv, runCommand, startFeedmill } from '../fixtures/feedmill-process.js';
import { repoRoot } from '../fixtures/repo-root.js';
import type { UpgradeExpectations } from '../fixtures/upgrade/expectations.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

// Stores written by the release at commit b2abb42 (test/fixtures/upgrade/make-fixture.ts, run at that
// commit) migrate forward with the binary of today, on SQLite and on Cassandra, and keep every feed,
// item, key, webhook, person and session (issue #31, point 5).
t.setTimeout(600_000);
const fixture = join(repoRoot, 'test', 'fixtures', 'upgrade', 'b2abb42');
const expected = JSON.parse(readFileSync(join(fixture, 'expected.json'), 'utf8')) as UpgradeExpectations;
const contactPoint = (process.env['FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS'] ?? '').split(',')[0] ?? '';
const sink = await startWebhookSink();
t.teardown(() => sink.close());

type Written = UpgradeExpectations['stores'][number];

async function checkThroughTheBinary(t: Test, env: Record<string, string>, written: Written): Promise<void> {
  const service = await startFeedmill(env);
  t.teardown(() => service.stop('SIGKILL'));
  const authorization = `Bearer ${written.key}:${written.secret}`;
  const get = async <T>(path: string): Promise<T> => {
    const response = await service.call('GET', path, { authorization });
    t.equal(response.status, 200, `GET ${path}: ${response.text.slice(0, 300)}`);
    return JSON.parse(response.text) as T;
  };
  const feeds = await get<{ data: { id: string; title: string }[] }>('/v1/feeds?limit=100');
  t.same(
    feeds.data.map(({ id, title }) => ({ id, title })).sort((a, b) => a.id.localeCompare(b.id)),
    written.feeds.map(({ id, title }) => ({ id, title })).sort((a, b) => a.id.localeCompare(b.id)),
    'every feed, found with the API key the old release made',
  );
  for (const feed of written.feeds) {
    const read = await get<{ items: { title: string; authors: { name: string }[] }[] }>(`/v1/feeds/${feed.id}`);
    t.same(read.items.map(({ title }) => title).sort(), [...feed.items].sort(), `the items of ${feed.id}`);
    if (feed.id === written.customAuthorFeed)
      t.ok(
        read.items.every(({ authors }) => authors.length === 1 && authors[0]?.name === 'The Upgrader'),
        'its settings (customAuthor) still apply',
      );
    const hosted = await service.call('GET', `/feeds/${feed.id}.xml`);
    t.match(hosted.text, new RegExp(`<title>${feed.items[0] ?? ''}</title>`), 'the hosted feed serves the stored items');
  }
  const bundle = await get<{ feeds: string[] }>(`/v1/bundles/${written.bundle}`);
  t.same([...bundle.feeds].sort(), written.feeds.map(({ id }) => id).sort(), 'the bundle and its feeds');
  // The webhook's secret was sealed by the old release's key: pointed at a sink, it still signs with it.
  const moved = await service.call('PATCH', `/v1/webhooks/${written.webhook.id}`, { authorization, body: { url: sink.url } });
  t.equal(moved.status, 200, moved.text);
  const calls = sink.calls.length;
  const tested = await service.call('POST', `/v1/webhooks/${written.webhook.id}/test`, { authorization });
  t.equal(tested.status, 200, tested.text);
  const [call] = (await sink.received(calls + 1)).slice(calls);
  if (!call) throw new Error('no delivery');
  t.doesNotThrow(
    () =>
      new Verifier(written.webhook.secret).verify(call.body, {
        'webhook-id': String(call.headers['webhook-id']),
        'webhook-timestamp': String(call.headers['webhook-timestamp']),
        'webhook-signature': String(call.headers['webhook-signature']),
      }),
    'signed with the secret the old release gave it',
  );
  await service.stop('SIGTERM');
  const users = JSON.parse(await runCommand(['users', 'list', '--json'], env)) as { email: string }[];
  t.same(
    users.map(({ email }) => email),
    [written.email],
    'the person who signs in to the dashboard',
  );
}

const storeConfig = (env: Record<string, string>) => ({
  store: (env['FEEDMILL_STORE'] ?? 'embedded') as 'embedded' | 'cassandra',
  dataDir: env['FEEDMILL_DATA_DIR'] ?? '',
  cassandraContactPoints: [contactPoint],
  cassandraLocalDataCenter: 'datacenter1',
  cassandraKeyspace: env['FEEDMILL_CASSANDRA_KEYSPACE'] ?? 'feedmill',
  cassandraUsername: undefined,
  cassandraPassword: undefined,
  cassandraConsistency: 'LOCAL_QUORUM' as const,
});

async function checkSession(t: Test, env: Record<string, string>, written: Written): Promise<void> {
  const stores = await openStores(storeConfig(env));
  try {
    t.match(await stores.sessions.get(written.sessionId), { email: written.email, accountId: 'upgrader' }, 'the dashboard session');
  } finally {
    await stores.close();
  }
}

const writtenBy = (store: Written['store']): Written => {
  const found = expected.stores.find((written) => written.store === store);
  if (!found) throw new Error(`expected.json has no ${store} store`);
  return found;
};

t.test('the embedded store the old release wrote migrates forward with everything in it', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-upgrade-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  copyFileSync(join(fixture, 'embedded.sqlite'), join(dataDir, 'feedmill.sqlite'));
  const env = { ...(await binaryEnv(dataDir)), FEEDMILL_SECRET_KEY: expected.secretKey };
  await checkThroughTheBinary(t, env, writtenBy('embedded'));
  await checkSession(t, env, writtenBy('embedded'));
});

t.test('the Cassandra keyspace the old release wrote migrates forward with everything in it', async (t) => {
  const keyspace = `feedmill_test_upgrade_${randomBytes(4).toString('hex')}`;
  // The tables as the old release's migrations made them, then its rows.
  const old = await openCassandraStore({
    contactPoints: [contactPoint],
    localDataCenter: 'datacenter1',
    keyspace,
    schemaDir: join(fixture, 'cql'),
  });
  await old.close();
  const client = new Client({ contactPoints: [contactPoint], localDataCenter: 'datacenter1', keyspace });
  t.teardown(async () => {
    await client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`, [], { readTimeout: 120_000 });
    await client.shutdown();
  });
  const rows = JSON.parse(readFileSync(join(fixture, 'cassandra-rows.json'), 'utf8')) as Record<string, string[]>;
  for (const [table, list] of Object.entries(rows)) for (const row of list) await client.execute(`INSERT INTO ${table} JSON ?`, [row]);
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-upgrade-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...(await binaryEnv(dataDir)),
    FEEDMILL_SECRET_KEY: expected.secretKey,
    FEEDMILL_STORE: 'cassandra',
    FEEDMILL_CASSANDRA_CONTACT_POINTS: contactPoint,
    FEEDMILL_CASSANDRA_KEYSPACE: keyspace,
  };
  await checkThroughTheBinary(t, env, writtenBy('cassandra'));
  await checkSession(t, env, writtenBy('cassandra'));
});
