import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Issue 31: `a*`×99 then `$`, as a `matches` filter over titles of 28 `a`, took 37 s to preview
// while `/healthz` waited. Sources here serve 30 items whose titles are a run of `a` and a `!`,
// of the length the path names.
const source = await startFixtureServer((request, response) => {
  const length = Number(/(\d+)/.exec(request.url ?? '')?.[1] ?? '1');
  const items = Array.from(
    { length: 30 },
    (_, n) => `<item><title>${'a'.repeat(length)}!</title><link>https://example.com/${n}</link><guid>urn:a:${n}</guid></item>`,
  ).join('');
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(`<rss version="2.0"><channel><title>Runs of a</title>${items}</channel></rss>`);
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: alice, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
const feedOf = async (length: number): Promise<string> =>
  (await call('POST', '/v1/feeds', { url: `${source.url}/a-${length}.xml` })).json<{ id: string }>().id;

// Every condition holds (an empty run of `a` matches at the end), so each one is judged.
const attack = { field: 'title', op: 'matches', value: `${'a*'.repeat(99)}$` };
const keep = { all: Array.from({ length: 8 }, () => attack) };

/** Wall-clock ms of a request; compared with another, never with a number. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

t.test('a preview with the attack pattern answers, in time growing with the text, and /healthz is not held up', async (t) => {
  const small = await feedOf(2_000);
  const large = await feedOf(4_000);
  const short = await feedOf(28);
  const preview = (feedId: string) => call('POST', `/v1/feeds/${feedId}/filters/preview`, { filters: { keep } });

  const report = (await preview(short)).json<{ kept: number; dropped: number }>();
  t.same(report, { ...report, kept: 30, dropped: 0 }, 'the titles of the report: judged, all kept');

  // While a preview runs, a liveness probe is sent: it waits at most for the matching in progress.
  const round = async (feedId: string) => {
    const running = timed(() => preview(feedId));
    const probe = await timed(() => app.inject({ method: 'GET', url: '/healthz' }));
    const answered = await running;
    t.equal(answered.value.statusCode, 200);
    t.equal(probe.value.statusCode, 200);
    return { preview: answered.ms, probe: probe.ms };
  };
  let smallRun = { preview: Infinity, probe: Infinity };
  let largeRun = { preview: Infinity, probe: Infinity };
  for (let n = 0; n < 3; n++) {
    const one = await round(small);
    const two = await round(large);
    smallRun = { preview: Math.min(smallRun.preview, one.preview), probe: Math.min(smallRun.probe, one.probe) };
    largeRun = { preview: Math.min(largeRun.preview, two.preview), probe: Math.min(largeRun.probe, two.probe) };
  }
  const ratio = largeRun.preview / smallRun.preview;
  t.ok(ratio < 4, `twice the text: ${smallRun.preview.toFixed(0)} ms → ${largeRun.preview.toFixed(0)} ms (×${ratio.toFixed(1)})`);
  // Held up at all, the probe waits for the matching that runs; that is linear, so at twice the text it
  // waits less than four times what the whole smaller preview took. Backtracking never answered.
  t.ok(
    largeRun.probe < 4 * smallRun.preview,
    `/healthz during the larger preview: ${largeRun.probe.toFixed(0)} ms (the smaller preview: ${smallRun.preview.toFixed(0)} ms)`,
  );
});

t.test('saved as a keep filter, the pattern leaves the feed and its hosted output readable', async (t) => {
  const feedId = await feedOf(28);
  const set = await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: { keep: attack } });
  t.equal(set.statusCode, 200);
  const feed = await call('GET', `/v1/feeds/${feedId}`);
  t.equal(feed.statusCode, 200);
  t.equal(feed.json<{ items: unknown[] }>().items.length, 30, 'every item kept');
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${feedId}.xml` });
  t.equal(hosted.statusCode, 200);
  t.equal([...hosted.body.matchAll(/<item>/g)].length, 30);
});

t.test('a pattern RE2 cannot compile is 400 validation_failed naming the path, with its reason', async (t) => {
  const feedId = await feedOf(28);
  const refused = await call('POST', `/v1/feeds/${feedId}/filters/preview`, {
    filters: {
      block: {
        any: [
          { field: 'title', op: 'contains', value: 'x' },
          { field: 'title', op: 'matches', value: '(a)\\1' },
        ],
      },
    },
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), {
    statusCode: 400,
    errors: [
      {
        code: 'validation_failed',
        title:
          /^Expected `filters\.block\.any\[1\]\.value` to be a regular expression in RE2 syntax .*RE2 says: invalid escape sequence: `\\1`$/,
      },
    ],
  });
});

t.test("the route takes RE2's syntax where JavaScript's differs", async (t) => {
  const feedId = await feedOf(28);
  // `(?P<name>` is RE2's and JavaScript's RegExp refuses it; `\x{61}` is a code point only in RE2.
  const preview = await call('POST', `/v1/feeds/${feedId}/filters/preview`, {
    filters: { keep: { field: 'title', op: 'matches', value: '^(?P<run>\\x{61}+)!$' } },
  });
  t.equal(preview.statusCode, 200, preview.body);
  t.match(preview.json(), { kept: 30, dropped: 0 });
});
