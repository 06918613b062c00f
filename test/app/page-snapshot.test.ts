import t from 'tap';
import { createSnapshotCache, snapshotTtlMs, takePageSnapshot } from '../../src/app/page-snapshot.js';
import type { Principal } from '../../src/domain/api-key.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// The picker's snapshots: the page as a create reads it, kept per account under a token for a while.
let fetches = 0;
const site = await startFixtureServer((request, response) => {
  fetches++;
  if (request.url === '/feed.xml')
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end('<rss version="2.0"><channel><title>F</title></channel></rss>');
  // No links at all: the heuristics find nothing, and a person's selectors are still wanted.
  response.writeHead(200, { 'content-type': 'text/html' }).end('<ul class="l"><li class="i">One</li><li class="i">Two</li></ul>');
});
let now = Date.parse('2026-01-01T00:00:00Z');
const env = createTestDeps({ clock: { now: () => new Date(now) } });
t.teardown(async () => {
  await site.close();
  await env.close();
});
const alice = { accountId: 'alice' } as Principal;
const bob = { accountId: 'bob' } as Principal;
const page = { url: `${site.url}/list`, render: 'never' as const };

t.test('a page the heuristics find nothing on is still a snapshot, read as served', async (t) => {
  const snapshot = await takePageSnapshot(env.deps, page);
  t.match(Buffer.from(snapshot.body).toString(), '<li class="i">One</li>');
  t.equal(snapshot.rendered, false);
  t.equal(snapshot.render, 'never');
});

t.test('a feed address is refused naming `url`', async (t) => {
  await t.rejects(takePageSnapshot(env.deps, { url: `${site.url}/feed.xml`, render: 'auto' }), {
    code: 'validation_failed',
    details: { field: 'url' },
  });
});

t.test('a token reads its snapshot for its account and address until it expires; anything else reads the page again', async (t) => {
  const cache = createSnapshotCache(env.deps);
  const token = cache.newToken();
  t.not(token, cache.newToken(), 'tokens are random');
  const before = fetches;
  const [first, second] = await Promise.all([cache.get(alice, token, page), cache.get(alice, token, page)]);
  t.equal(first, second, 'two asks at once share one reading');
  t.equal(fetches - before, 1);
  await cache.get(alice, token, page);
  t.equal(fetches - before, 1, 'kept');
  await cache.get(bob, token, page);
  t.equal(fetches - before, 2, 'another account never reads it');
  await cache.get(bob, token, { ...page, url: `${site.url}/other` });
  t.equal(fetches - before, 3, 'another address is another page');
  now += snapshotTtlMs;
  await cache.get(bob, token, { ...page, url: `${site.url}/other` });
  t.equal(fetches - before, 4, 'an expired one is read again');
});
