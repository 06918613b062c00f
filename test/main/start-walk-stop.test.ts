import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openEmbeddedStore } from '../../src/adapters/embedded-store/index.js';
import { defaultFeedSettings } from '../../src/domain/feed.js';
import { embeddedStoreFile } from '../../src/main/stores.js';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { repoRoot } from '../fixtures/repo-root.js';

// A start walks every feed to schedule its refresh, a thousand at a time: about a minute at a
// million feeds, longer than an orchestrator waits after its SIGTERM. The binary must end the walk
// after the page it is on and shut down cleanly (the next start walks again), not finish the walk
// first or die mid-write. Enough feeds that the walk is still going when the signal lands.
t.setTimeout(600_000);

const feedCount = 100_000;
const cli = join(repoRoot, 'dist', 'src', 'main', 'cli.js');
const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FEEDMILL_')));

t.test('a SIGTERM while a start walks the feeds ends the walk after its page, and the process exits cleanly', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-walk-stop-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openEmbeddedStore({ file: embeddedStoreFile(dir), schemaDir: join(repoRoot, 'schema', 'embedded') });
  const created = new Date().toISOString();
  const later = new Date(Date.now() + 3_600_000).toISOString();
  for (let n = 0; n < feedCount; n += 1) {
    // An address nothing answers at, due in an hour: the walk schedules them, nothing fetches.
    const url = `http://127.0.0.1:9/${n}.xml`;
    await store.feeds.insert({
      id: `feed-${String(n).padStart(6, '0')}`,
      accountId: 'acct-walk',
      title: `Feed ${n}`,
      description: '',
      icon: '',
      sourceUrl: url,
      fetchUrl: url,
      link: 'http://127.0.0.1:9/',
      createdAt: created,
      updatedAt: created,
      settings: defaultFeedSettings,
      fetch: { errorCount: 0, unchangedStreak: 0, nextFetchAt: later },
    });
  }
  store.close();

  const env = { ...(await binaryEnv(dir)), FEEDMILL_LOG_LEVEL: 'debug', FEEDMILL_LOG_FORMAT: 'json' };
  const child = spawn(process.execPath, [cli, 'all'], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      // The first page is walked: the walk is under way.
      if (!signalled && entry.msg === 'walking the feeds to schedule their refreshes') {
        signalled = true;
        child.kill('SIGTERM');
      }
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));

  t.ok(signalled, 'the walk was seen under way, and the signal sent then');
  t.equal(code, 0, 'the process exits cleanly');
  const walked = lines.filter((line) => line.msg === 'walking the feeds to schedule their refreshes').map((line) => line.feeds as number);
  const ended = lines.find((line) => typeof line.msg === 'string' && line.msg.startsWith('stopping: the walk of the feeds ended early'));
  t.ok(ended, 'it says the walk ended early and the next start walks again');
  t.ok((ended?.feeds as number) < feedCount, `part of the feeds walked (${String(ended?.feeds)} of ${feedCount})`);
  t.equal(ended?.feeds, walked.at(-1), 'the walk ended after the page it was on');
  t.notOk(
    lines.some((line) => line.msg === 'feed actors scheduled'),
    'no line claims every feed was scheduled',
  );
});
