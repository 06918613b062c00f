import { statSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook as Verifier } from 'standardwebhooks';
import t from 'tap';
import { binaryEnv, runCommand, startFeedmill, type FeedmillProcess } from '../fixtures/feedmill-process.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

// `feedmill backup` under write load and `feedmill restore` into a new data directory, through the
// binary as an operator runs them (issue #31, point 3).
t.setTimeout(300_000);
const scratch = mkdtempSync(join(tmpdir(), 'feedmill-backup-'));
const original = join(scratch, 'original');
const restored = join(scratch, 'restored');
const backupFile = join(scratch, 'feedmill.backup');
// The write load below makes a few hundred requests a second with one key.
const env = { ...(await binaryEnv(original)), FEEDMILL_RATE_LIMIT: '1000000' };
// Its ports are chosen when it is used: a port chosen now and left unbound until then could be
// handed to the first service meanwhile.
let restoredEnv: Record<string, string> = {};
const source = await startRssSource(3);
const sink = await startWebhookSink();
let service: FeedmillProcess | undefined = await startFeedmill(env);
let second: FeedmillProcess | undefined;
t.teardown(async () => {
  await service?.stop('SIGKILL');
  await second?.stop('SIGKILL');
  await source.close();
  await sink.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A command that is expected to fail: its exit code and what it printed on stderr. */
const failing = async (args: string[], commandEnv: Record<string, string>): Promise<{ code: number; stderr: string }> => {
  try {
    await promisify(execFile)(process.execPath, [join(repoRoot, 'dist', 'src', 'main', 'cli.js'), ...args], {
      env: { ...process.env, ...commandEnv },
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    return { code: failure.code, stderr: failure.stderr };
  }
};

const { authorization } = await createKey(env, 'alice');
const json = <T>(text: string): T => JSON.parse(text) as T;

const feedIds: string[] = [];
for (const name of ['one', 'two', 'three']) {
  const created = await service.call('POST', '/v1/feeds', { authorization, body: { url: `${source.url}?${name}` } });
  if (created.status !== 200) throw new Error(`the feed was not created: ${created.text}`);
  feedIds.push(json<{ id: string }>(created.text).id);
}
const firstHook = json<{ id: string; secret: string }>(
  (await service.call('POST', '/v1/webhooks', { authorization, body: { url: sink.url } })).text,
);
const tested = await service.call('POST', `/v1/webhooks/${firstHook.id}/test`, { authorization });
if (tested.status !== 200) throw new Error(`the test delivery failed: ${tested.text}`);

// Write load: webhooks created one after another until told to stop, each noted with when it was acknowledged.
const acknowledged: { id: string; at: number }[] = [];
const refusals: string[] = [];
let writing = true;
const load = (async () => {
  while (writing) {
    const response = await service?.call('POST', '/v1/webhooks', { authorization, body: { url: `${sink.url}?n=${acknowledged.length}` } });
    if (response?.status === 200) acknowledged.push({ id: json<{ id: string }>(response.text).id, at: Date.now() });
    else refusals.push(`${response?.status}: ${response?.text}`);
  }
})();
t.teardown(async () => {
  writing = false;
  await load.catch(() => undefined);
});
while (acknowledged.length < 5) {
  if (refusals.length > 0) throw new Error(`the write load was refused: ${refusals[0]}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

let backupBegan = 0;
t.test('a backup taken under write load is written with mode 0600 and says it holds the key', async (t) => {
  backupBegan = Date.now();
  const printed = await runCommand(['backup', backupFile], env);
  const writesDuring = acknowledged.filter(({ at }) => at > backupBegan).length;
  writing = false;
  await load;
  t.match(printed, /Backed up .*feedmill\.sqlite to .*feedmill\.backup/);
  t.match(printed, /holds the key/);
  t.equal(statSync(backupFile).mode & 0o777, 0o600, 'only the owner may read it');
  t.ok(writesDuring > 0, `${writesDuring} webhooks were acknowledged while the backup ran: it ran under write load`);
});

t.test('restore refuses a running store and a file that is not a backup', async (t) => {
  restoredEnv = await binaryEnv(restored);
  const running = await failing(['restore', backupFile], env);
  t.equal(running.code, 1);
  t.match(running.stderr, /is running on .*original: stop it before restoring/);
  const garbage = join(scratch, 'garbage.backup');
  writeFileSync(garbage, 'not sqlite at all, just words '.repeat(200));
  const refused = await failing(['restore', garbage], restoredEnv);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /is not a feedmill backup/);
});

t.test('restored into a new data directory, everything acknowledged before the backup began is there', async (t) => {
  await service?.stop('SIGTERM');
  service = undefined;
  const printed = await runCommand(['restore', backupFile], restoredEnv);
  t.match(printed, /Restored .* into .*restored/);
  t.match(printed, /secret\.key/);
  t.equal(statSync(join(restored, 'secret.key')).mode & 0o777, 0o600);
  second = await startFeedmill(restoredEnv);
  const feeds = json<{ data: { id: string }[] }>((await second.call('GET', '/v1/feeds?limit=100', { authorization })).text).data;
  t.same(feeds.map(({ id }) => id).sort(), [...feedIds].sort(), 'every feed, with the API key that made them');
  const hooks = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const page = json<{ data: { id: string }[] }>(
      (await second.call('GET', `/v1/webhooks?limit=100&offset=${offset}`, { authorization })).text,
    ).data;
    for (const { id } of page) hooks.add(id);
    if (page.length < 100) break;
  }
  const before = acknowledged.filter(({ at }) => at < backupBegan);
  t.ok(before.length >= 5);
  t.same(
    before.filter(({ id }) => !hooks.has(id)),
    [],
    `all ${before.length} webhooks acknowledged before the backup began are there`,
  );
  t.ok(hooks.has(firstHook.id));
  const deliveries = json<{ data: unknown[] }>(
    (await second.call('GET', `/v1/webhooks/${firstHook.id}/deliveries`, { authorization })).text,
  ).data;
  t.equal(deliveries.length, 1, 'the test delivery made before the backup');
});

t.test('the restored key still signs with the secret the webhook was given before the backup', async (t) => {
  const calls = sink.calls.length;
  const tested = await second?.call('POST', `/v1/webhooks/${firstHook.id}/test`, { authorization });
  t.equal(tested?.status, 200, tested?.text ?? '');
  const [call] = (await sink.received(calls + 1)).slice(calls);
  if (!call) throw new Error('no delivery arrived');
  t.doesNotThrow(() =>
    new Verifier(firstHook.secret).verify(call.body, {
      'webhook-id': String(call.headers['webhook-id']),
      'webhook-timestamp': String(call.headers['webhook-timestamp']),
      'webhook-signature': String(call.headers['webhook-signature']),
    }),
  );
});

t.test('restoring over a stopped store sets the old one aside instead of deleting it', async (t) => {
  await second?.stop('SIGTERM');
  second = undefined;
  const printed = await runCommand(['restore', backupFile], restoredEnv);
  t.match(printed, /The store that was there is kept as .*feedmill\.sqlite\.before-restore-/);
});
