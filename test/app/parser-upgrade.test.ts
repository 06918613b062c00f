import t from 'tap';
import { createFeed } from '../../src/app/create-feed.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { feedItems } from '../../src/app/shown-items.js';
import type { Principal } from '../../src/domain/api-key.js';
import type { FeedParser } from '../../src/ports/feed-parser.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A release whose parser reads an entry differently must not announce the entry as changed: only
// an edit at the source is news (issue #31, point 4). The "upgrade" is the real parser with one
// reading changed after the feed's baseline: it now finds an author in every entry.
const alice: Principal = { accountId: 'alice', keyId: 'fmk_alice', scopes: ['read', 'write'] };

const rss = (second: string): string =>
  '<?xml version="1.0"?><rss version="2.0"><channel><title>Upgrades</title><link>https://example.com/</link>' +
  ['First', second, 'Third']
    .map((title, i) => `<item><title>${title}</title><link>https://example.com/${i}</link><guid>urn:item:${i}</guid></item>`)
    .join('') +
  '</channel></rss>';

t.test('after a parser upgrade, refreshing the same entries announces nothing and one real edit announces one change', async (t) => {
  let body = rss('Second');
  const source = await startFixtureServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
  });
  t.teardown(() => source.close());
  const env = createTestDeps();
  t.teardown(() => env.close());
  const released: FeedParser = env.deps.parser;
  let upgraded = false;
  const parser: FeedParser = {
    ...released,
    async parse(document, meta) {
      const feed = await released.parse(document, meta);
      if (upgraded) for (const item of feed.items) item.authors = [{ name: 'Found by the new parser' }];
      return feed;
    },
  };
  const deps = { ...env.deps, parser };
  const events: FeedEventEnvelope[] = [];
  deps.bus.subscribe(alice.accountId, (envelope) => {
    events.push(envelope);
  });

  const { feed } = await createFeed(deps, alice, { url: `${source.url}/feed.xml` });
  upgraded = true;
  // A new document whose entries are the same: the refresh reads them all differently.
  body = `${rss('Second')}\n<!-- regenerated -->`;
  const reread = await refreshFeed(deps, feed.id);
  t.equal(reread?.status, 'unchanged', 'nothing changed at the source');
  t.same(events, [], 'and nothing is announced');
  const shown = await feedItems(deps, feed, 'last_added');
  t.ok(
    shown.every((item) => item.authors[0]?.name === 'Found by the new parser'),
    'yet the items now show what the new parser reads',
  );

  body = rss('Second, corrected');
  const edited = await refreshFeed(deps, feed.id);
  t.equal(edited?.status, 'changed');
  t.equal(events.length, 1, 'one event');
  const data = events[0]?.event.data;
  t.same(data?.items_new, []);
  t.same(
    data?.items_changed.map((item) => item.title),
    ['Second, corrected'],
    'exactly one items_changed, for the edit',
  );
});
