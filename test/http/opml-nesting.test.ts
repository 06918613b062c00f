import t from 'tap';
import { maxXmlDepth } from '../../src/domain/xml-depth.js';
import { buildHttpApp } from '../../src/http/app.js';
import { parseOpml } from '../../src/http/opml-read.js';
import { asyncGrowth } from '../fixtures/growth.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await env.close();
});
const alice = await env.bearer('alice');
const upload = (body: string) =>
  app.inject({ method: 'POST', url: '/v1/opml', headers: { authorization: alice, 'content-type': 'text/x-opml' }, payload: body });

const nested = (depth: number, inner = ''): string => `${'<x>'.repeat(depth)}${inner}${'</x>'.repeat(depth)}`;
const outline = '<outline text="A" xmlUrl="http://127.0.0.1:1/a.xml"/>';
// Issue 31: `<x>`×N…`</x>`×N was read in time quadratic in N (15 s at 149k, a 1 MB upload) and imported.
const inBody = (depth: number): string => `<opml version="2.0"><head/><body>${outline}${nested(depth)}</body></opml>`;
const inHead = (depth: number): string => `<opml version="2.0"><head>${nested(depth)}</head><body>${outline}</body></opml>`;

t.test('deep nesting anywhere in an upload is refused with 400, and nothing is imported', async (t) => {
  for (const [where, document] of [
    ['<body>', inBody],
    ['<head>', inHead],
  ] as const) {
    const body = document(149_000);
    t.ok(Buffer.byteLength(body) < 1024 * 1024, 'under the upload cap');
    const refused = await upload(body);
    t.equal(refused.statusCode, 400, where);
    t.match(refused.json(), {
      statusCode: 400,
      message: `Expected an OPML 1.0 or 2.0 document (<opml> with a <body> of <outline>s), but its elements nest deeper than ${maxXmlDepth} levels`,
      errors: [{ code: 'validation_failed' }],
    });
  }
  t.equal((await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: alice } })).json<{ total: number }>().total, 0);
});

t.test('refusing costs time linear in the upload, not quadratic in the depth', async (t) => {
  for (const document of [inBody, inHead]) {
    const { small, large, ratio } = await asyncGrowth(document(25_000), document(100_000), async (body) => {
      if ((await upload(body)).statusCode !== 400) throw new Error('not refused');
    });
    // 4× the depth: 4× the bytes to take in when linear, 16× when quadratic (before: 0.14 s → 6.0 s).
    t.ok(ratio < 8, `${small.toFixed(1)} ms → ${large.toFixed(1)} ms for 4× the depth (×${ratio.toFixed(1)})`);
  }
});

t.test('the cap is the one feeds have: 100 levels in all, counting <opml>', async (t) => {
  // <opml> and <head> are two levels: 98 more is the deepest allowed.
  const at = (depth: number) => `<opml version="2.0"><head>${nested(depth)}</head><body>${outline}</body></opml>`;
  t.equal(parseOpml(at(maxXmlDepth - 2)).length, 1);
  t.throws(() => parseOpml(at(maxXmlDepth - 1)), { code: 'validation_failed', message: /nest deeper than 100 levels$/ });
  // A group outline nests within the 16-level rule for groups, which stays as it was.
  t.throws(() => parseOpml(`<opml><body>${'<outline text="g">'.repeat(17)}${'</outline>'.repeat(17)}</body></opml>`), {
    message: 'Expected outlines nested at most 16 deep',
  });
});
