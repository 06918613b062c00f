import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import { sleep } from '../fixtures/eventually.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
// Imports run as jobs of the delivery queue, as in `feedmill all`.
await env.deps.deliveryScheduler.start(deliveryQueueHandler(env.deps));
const morning = await startRssSource(2);
const loose = await startRssSource(1);
t.teardown(async () => {
  await app.close();
  await morning.close();
  await loose.close();
  await env.close();
});
const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const call = (method: 'GET' | 'POST', url: string, authorization: string, body?: string, type = 'text/x-opml') =>
  app.inject({
    method,
    url,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': type }) },
    ...(body === undefined ? {} : { payload: body }),
  });
const json = (method: 'POST', url: string, authorization: string, body: unknown) =>
  app.inject({ method, url, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

interface Status {
  id: string;
  status: string;
  total: number;
  done: number;
  outcomes: { xml_url: string; outcome: string; bundle: string | null; error: { code: string } | null }[];
}
/** Starts an import and reads its progress until it has finished. */
async function importOpml(authorization: string, opml: string): Promise<Status> {
  const started = await call('POST', '/v1/opml', authorization, opml);
  if (started.statusCode !== 202) throw new Error(`import refused: ${started.body}`);
  const location = String(started.headers.location);
  for (;;) {
    const status = (await call('GET', location, authorization)).json<Status>();
    if (status.status === 'finished') return status;
    await sleep(20);
  }
}
const sourcesOf = async (authorization: string) =>
  (await call('GET', '/v1/feeds?limit=100', authorization)).json<{ data: { id: string; source_url: string }[] }>().data;

const feedA = (await json('POST', '/v1/feeds', alice, { url: morning.url })).json<{ id: string }>().id;
const feedB = (await json('POST', '/v1/feeds', alice, { url: loose.url })).json<{ id: string }>().id;
await json('POST', '/v1/bundles', alice, { name: 'Morning reads', feeds: [feedA] });

t.test('round trip: export, import into another account, the same feeds and bundles; again, no duplicates', async (t) => {
  const exported = await call('GET', '/v1/opml', alice);
  t.equal(exported.statusCode, 200);
  t.match(exported.headers['content-type'], /^text\/x-opml/);
  t.match(exported.body, `xmlUrl="${morning.url}"`);
  t.match(exported.body, `feedmill:hostedUrl="https://feeds.example.test/feeds/${feedB}.xml"`);
  t.match(exported.body, /<outline text="Morning reads"[^>]*feedmill:hostedUrl="https:\/\/feeds\.example\.test\/feeds\/_/);

  const first = await importOpml(bob, exported.body);
  t.same(
    first.outcomes.map((outcome) => [outcome.xml_url, outcome.outcome, outcome.bundle]),
    [
      [morning.url, 'created', 'Morning reads'],
      [loose.url, 'created', null],
    ],
  );
  t.same((await sourcesOf(bob)).map((feed) => feed.source_url).sort(), [morning.url, loose.url].sort());
  const bundles = (await call('GET', '/v1/bundles', bob)).json<{ data: { name: string; feeds: string[] }[] }>().data;
  const bobA = (await sourcesOf(bob)).find((feed) => feed.source_url === morning.url)?.id;
  t.same(
    bundles.map((bundle) => [bundle.name, bundle.feeds]),
    [['Morning reads', [bobA]]],
  );

  const again = await importOpml(bob, exported.body);
  t.same(
    again.outcomes.map((outcome) => outcome.outcome),
    ['existing', 'existing'],
  );
  t.equal((await sourcesOf(bob)).length, 2, 'no feed twice');
  t.equal((await call('GET', '/v1/bundles', bob)).json<{ data: unknown[] }>().data.length, 1, 'no bundle twice');
});

t.test('OPML 1.0 with nested groups; one bad outline gets its own outcome and the rest go on', async (t) => {
  const opml = `<?xml version="1.0"?><opml version="1.0"><head><title>t</title></head><body>
    <outline text="Outer"><outline text="Inner"><outline text="Broken" xmlUrl="http://127.0.0.1:1/gone.xml"/><outline text="Good" xmlUrl="${loose.url}"/></outline></outline>
  </body></opml>`;
  const carol = await env.bearer('carol');
  const status = await importOpml(carol, opml);
  t.equal(status.total, 2);
  t.equal(status.done, 2);
  t.match(status.outcomes, [
    { outcome: 'failed', bundle: 'Inner', error: { code: 'source_unreachable' } },
    { outcome: 'created', bundle: 'Inner', error: null },
  ]);
});

t.test('an outline whose address is too long to be a source is its own failure; the document is taken', async (t) => {
  const long = `http://example.com/${'0'.repeat(3_000)}`;
  const opml = `<opml version="2.0"><head><title>t</title></head><body><outline text="Long" xmlUrl="${long}"/><outline text="Good" xmlUrl="${loose.url}"/></body></opml>`;
  const status = await importOpml(await env.bearer('dave'), opml);
  t.match(status.outcomes, [
    { outcome: 'failed', error: { code: 'invalid_url', message: /at most 2048 characters/ } },
    { outcome: 'created', error: null },
  ]);
});

t.test('hostile OPML is refused before anything is created: 400 or 413 in our shape', async (t) => {
  const cases: [string, string, number, RegExp][] = [
    ['not XML', 'just some words', 400, /Expected an OPML 1\.0 or 2\.0 document/],
    ['another vocabulary', '<rss version="2.0"><channel/></rss>', 400, /its root element is <rss>/],
    [
      'an entity bomb',
      '<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><opml version="2.0"><body><outline text="&b;" xmlUrl="http://x/"/></body></opml>',
      400,
      /DTD or entity/,
    ],
    [
      '10,000 outlines',
      `<opml version="2.0"><body>${'<outline text="x" xmlUrl="http://127.0.0.1:1/x"/>'.repeat(10_000)}</body></opml>`,
      413,
      /at most 1000 outlines/,
    ],
    ['over the size cap', `<opml version="2.0"><body><outline text="${'x'.repeat(1_100_000)}"/></body></opml>`, 413, /./],
  ];
  const before = (await sourcesOf(alice)).length;
  for (const [what, body, status, message] of cases) {
    const response = await call('POST', '/v1/opml', alice, body);
    t.equal(response.statusCode, status, what);
    t.match(response.json(), { statusCode: status, message, errors: [{ code: String }] }, what);
  }
  t.equal((await sourcesOf(alice)).length, before);
});

t.test("another account's import is not found; export needs read, import write", async (t) => {
  const mine = await call('POST', '/v1/opml', alice, `<opml version="2.0"><body/></opml>`);
  t.equal(mine.statusCode, 202);
  t.equal((await call('GET', String(mine.headers.location), bob)).statusCode, 404);
  const readOnly = await env.bearer('alice', ['read']);
  t.equal((await call('POST', '/v1/opml', readOnly, '<opml version="2.0"><body/></opml>')).statusCode, 403);
  t.equal((await call('GET', '/v1/opml', readOnly)).statusCode, 200);
});
