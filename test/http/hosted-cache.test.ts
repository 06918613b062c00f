import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// The real embedded item store, with its reads counted: serving a cached document needs none.
let itemReads = 0;
const base = createTestDeps();
const items: ItemStore = {
  ...base.deps.items,
  list: (...args) => {
    itemReads += 1;
    return base.deps.items.list(...args);
  },
  lastAddedAt: (...args) => {
    itemReads += 1;
    return base.deps.items.lastAddedAt(...args);
  },
};
const deps = { ...base.deps, items };
const app = await buildHttpApp(deps, { httpsOnly: false });
const source = await startRssSource(3);
t.teardown(async () => {
  await app.close();
  await source.close();
  await base.close();
});

const alice = await base.bearer('alice');
const created = await app.inject({
  method: 'POST',
  url: '/v1/feeds',
  headers: { authorization: alice, 'content-type': 'application/json' },
  payload: JSON.stringify({ url: source.url }),
});
const feedId = created.json<{ id: string }>().id;
const hosted = async () => {
  const response = await app.inject({ method: 'GET', url: `/feeds/${feedId}.xml` });
  t.equal(response.statusCode, 200);
  return { etag: String(response.headers.etag), body: response.body };
};
const patch = (url: string, body: unknown) =>
  app.inject({
    method: 'PATCH',
    url,
    headers: { authorization: alice, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

t.test('an unchanged feed is rendered once: later requests read no items and get the same bytes', async (t) => {
  const first = await hosted();
  const reads = itemReads;
  const again = await hosted();
  t.equal(itemReads, reads);
  t.same(again, first);
});

t.test('a refresh that finds nothing new keeps the document', async (t) => {
  const before = await hosted();
  const reads = itemReads;
  t.equal((await refreshFeed(deps, feedId))?.status, 'not_modified');
  t.same(await hosted(), before);
  t.equal(itemReads, reads);
});

t.test('a new item, a changed item, customAuthor and a feed edit each give new bytes and a new ETag', async (t) => {
  const seen = new Set([(await hosted()).etag]);
  const expectNew = async (what: string, check: (body: string) => boolean) => {
    const now = await hosted();
    t.notOk(seen.has(now.etag), `${what}: a new ETag`);
    t.ok(check(now.body), `${what}: shown in the document`);
    seen.add(now.etag);
  };
  source.addItem('Post 4');
  t.equal((await refreshFeed(deps, feedId))?.status, 'changed');
  await expectNew('a new item', (body) => body.includes('<title>Post 4</title>'));
  source.retitle(1, 'Post 1, corrected');
  t.equal((await refreshFeed(deps, feedId))?.status, 'changed');
  await expectNew('a changed item', (body) => body.includes('Post 1, corrected'));
  await patch(`/v1/feeds/${feedId}/settings`, { customAuthor: 'Newsroom Bot' });
  await expectNew('customAuthor', (body) => body.includes('Newsroom Bot'));
  await patch(`/v1/feeds/${feedId}`, { title: 'Renamed feed' });
  await expectNew('a new title', (body) => body.includes('<title>Renamed feed</title>'));
});
