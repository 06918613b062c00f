import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'cassandra-driver';
import t from 'tap';
import { clusterEnv, freePort, runCommand, startFeedmill, testContactPoints, type FeedmillProcess } from '../fixtures/feedmill-process.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { startGrowingFeeds } from '../fixtures/growing-feeds.js';
import { startRedisServer } from '../fixtures/redis-server.js';

/**
 * Two `feedmill api` processes on one Cassandra keyspace and one Redis: each keeps the feed and
 * key records it reads in memory, and a write on one (or by the CLI) reaches the other through the
 * change notices on Redis. A record is kept at most 60 s without a notice, so seeing a change
 * well before that shows the notice, not the expiry, brought it.
 */
const contactPoints = testContactPoints();
t.setTimeout(300_000);

/** Far below the 60 s a record may be kept without a notice. */
const noticeDeadlineMs = 15_000;

const keyspace = `cache_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-cache-'));
const redis = await startRedisServer();
const source = await startGrowingFeeds(1);
const env = clusterEnv({ dataDir, keyspace, redisUrl: redis.url, contactPoints });
// The first applies the migrations; the second finds them done.
const apiA: FeedmillProcess = await startFeedmill(
  { ...env, FEEDMILL_PORT: String(await freePort()), FEEDMILL_METRICS_PORT: String(await freePort()) },
  'api',
);
const apiB: FeedmillProcess = await startFeedmill(
  { ...env, FEEDMILL_PORT: String(await freePort()), FEEDMILL_METRICS_PORT: String(await freePort()) },
  'api',
);
const cql = new Client({ contactPoints: contactPoints.split(','), localDataCenter: 'datacenter1', keyspace });
t.teardown(async () => {
  await apiA.stop('SIGKILL');
  await apiB.stop('SIGKILL');
  await cql.shutdown();
  await redis.stop();
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
  const admin = new Client({ contactPoints: contactPoints.split(','), localDataCenter: 'datacenter1' });
  await admin.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`, [], { readTimeout: 120_000 });
  await admin.shutdown();
});

const createCacheKey = async (): Promise<string> => (await createKey(env, 'cache')).authorization;
const authorization = await createCacheKey();

/** Polls `check` as fast as the process answers until it holds; returns how long that took. */
async function until(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > noticeDeadlineMs)
      throw new Error(`Expected ${what} within ${noticeDeadlineMs / 1000} s (a notice), but it was still not so`);
  }
  return Date.now() - started;
}

const titleOn = async (api: FeedmillProcess, feedId: string): Promise<string> => {
  const response = await api.call('GET', `/v1/feeds/${feedId}`, { authorization });
  if (response.status !== 200) throw new Error(`GET /v1/feeds/${feedId}: ${response.status} ${response.text}`);
  return (JSON.parse(response.text) as { title: string }).title;
};
const hostedOn = async (api: FeedmillProcess, feedId: string): Promise<string> => (await api.call('GET', `/feeds/${feedId}.xml`)).text;

const created = await apiA.call('POST', '/v1/feeds', { authorization, body: { url: source.url(0) } });
if (created.status !== 200) throw new Error(`POST /v1/feeds: ${created.status} ${created.text}`);
const feedId = (JSON.parse(created.text) as { id: string }).id;

t.test('the other API process serves a feed from memory and sees an edit made on the first through the notice', async (t) => {
  t.equal(await titleOn(apiB, feedId), 'Feed 0');
  t.match(await hostedOn(apiB, feedId), '<title>Feed 0</title>');
  // Written behind feedmill's back (no notice): B still answers from what it keeps.
  await cql.execute('UPDATE feeds SET title = ? WHERE id = ?', ['Changed behind its back', feedId], { prepare: true });
  t.equal(await titleOn(apiB, feedId), 'Feed 0', 'the feed record is kept in memory, not read per request');
  t.match(await hostedOn(apiB, feedId), '<title>Feed 0</title>', 'the hosted document too');

  const patched = await apiA.call('PATCH', `/v1/feeds/${feedId}`, { authorization, body: { title: 'Renamed on A' } });
  t.equal(patched.status, 200, patched.text);
  const json = await until('GET /v1/feeds/:id on B to show the new title', async () => (await titleOn(apiB, feedId)) === 'Renamed on A');
  const hosted = await until('the hosted feed on B to show the new title', async () =>
    (await hostedOn(apiB, feedId)).includes('<title>Renamed on A</title>'),
  );
  t.comment(
    `seen on the other process after ${json} ms (JSON) and ${json + hosted} ms (hosted) under load ${(await import('node:os')).loadavg()[0]?.toFixed(2)}`,
  );
});

t.test('a key revoked with the CLI is refused at once by both API processes, which had it in memory', async (t) => {
  const second = await createCacheKey();
  for (const api of [apiA, apiB]) t.equal((await api.call('GET', `/v1/feeds/${feedId}`, { authorization: second })).status, 200);
  const keyId = second.slice('Bearer '.length).split(':')[0] ?? '';
  await runCommand(['keys', 'revoke', keyId], env);
  const refusedB = await until(
    'B to refuse the revoked key',
    async () => (await apiB.call('GET', `/v1/feeds/${feedId}`, { authorization: second })).status === 401,
  );
  const refusedA = await until(
    'A to refuse the revoked key',
    async () => (await apiA.call('GET', `/v1/feeds/${feedId}`, { authorization: second })).status === 401,
  );
  t.comment(`refused after ${refusedB} ms (B) and ${refusedA} ms more (A), counted from the CLI's exit`);
  t.equal((await apiB.call('GET', `/v1/feeds/${feedId}`, { authorization })).status, 200, 'the other key still works');
});

t.test('revoking without the Redis URL says the API processes were not told, and how to fix that', async (t) => {
  const third = await createCacheKey();
  const keyId = third.slice('Bearer '.length).split(':')[0] ?? '';
  const withoutRedis = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'FEEDMILL_REDIS_URL'));
  const said = await runCommand(['keys', 'revoke', keyId], { ...withoutRedis, FEEDMILL_REDIS_URL: '' });
  t.match(said, `Revoked ${keyId}.`);
  t.match(said, /FEEDMILL_REDIS_URL is not set, so running API processes were not told/);
});
