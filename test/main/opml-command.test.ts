import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { progressLine } from '../../src/main/progress-bar.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { startRssSource } from '../fixtures/rss-source.js';

const cli = join(repoRoot, 'dist', 'src', 'main', 'cli.js');
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-opml-cli-'));
const source = await startRssSource(2);
t.teardown(async () => {
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `feedmill opml …` with its output piped (not a terminal). */
function opml(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, 'opml', ...args], {
    env: {
      ...process.env,
      FEEDMILL_DATA_DIR: dataDir,
      FEEDMILL_STORE: 'embedded',
      FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'true',
      FEEDMILL_PUBLIC_URL: 'https://feeds.example.test',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

t.test('opml import prints a plain line per outline off a terminal, then a summary; export prints the OPML', async (t) => {
  const file = join(dataDir, 'in.opml');
  writeFileSync(
    file,
    `<opml version="2.0"><body><outline text="Group"><outline text="A" xmlUrl="${source.url}"/></outline><outline text="Gone" xmlUrl="http://127.0.0.1:1/x.xml"/></body></opml>`,
  );
  const first = await opml(['import', file, '--account', 'alice']);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stderr, new RegExp(`^created ${source.url}\\nfailed http://127\\.0\\.0\\.1:1/x\\.xml \\(source_unreachable: `, 'm'));
  t.notMatch(first.stderr, /\r|\[#/, 'no bar when the output is not a terminal');
  t.match(first.stdout, 'Imported 2 feed outlines into account alice: 1 created, 0 already there, 1 failed.');
  const again = await opml(['import', file, '--account', 'alice']);
  t.match(again.stdout, '0 created, 1 already there, 1 failed.');
  const exported = await opml(['export', '--account', 'alice']);
  t.equal(exported.code, 0);
  t.match(exported.stdout, /^<\?xml[\s\S]*<outline text="Group"[^>]*><outline type="rss"/, 'the group holds the feed');
  t.match(exported.stdout, `xmlUrl="${source.url}"`);
});

t.test('a refused file changes nothing and says why', async (t) => {
  const file = join(dataDir, 'bad.opml');
  writeFileSync(file, '<rss/>');
  const refused = await opml(['import', file, '--account', 'alice']);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /feedmill: Expected an OPML 1\.0 or 2\.0 document .* its root element is <rss>/);
  t.match((await opml(['import', '--account', 'alice'])).stderr, /the OPML file is required/);
});

t.test('a file nested deeper than 100 levels is refused by the same reader, importing nothing', async (t) => {
  const file = join(dataDir, 'deep.opml');
  const deep = 100_000;
  writeFileSync(
    file,
    `<opml version="2.0"><head/><body><outline text="A" xmlUrl="${source.url}?deep"/>${'<x>'.repeat(deep)}${'</x>'.repeat(deep)}</body></opml>`,
  );
  const refused = await opml(['import', file, '--account', 'alice']);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /feedmill: Expected an OPML 1\.0 or 2\.0 document .* its elements nest deeper than 100 levels/);
  const exported = await opml(['export', '--account', 'alice']);
  t.equal(exported.code, 0);
  t.match(exported.stdout, `xmlUrl="${source.url}"`, 'the feeds imported before');
  t.notMatch(exported.stdout, '?deep', 'and not the outline of the refused file');
});

t.test('on a terminal, one bar redrawn in place', async (t) => {
  t.equal(progressLine(0, 4, { created: 0 }, 8), '[--------] 0/4  created 0');
  t.equal(progressLine(3, 4, { created: 2, failed: 1 }, 8), '[######--] 3/4  created 2 · failed 1');
  t.equal(progressLine(0, 0, {}, 4), '[####] 0/0');
});
