import { defaultFeedSettings, type Feed, type FetchState } from '../../src/domain/feed.js';
import { everyDueFeed } from '../fixtures/due-feeds.js';
import type { ContractContext, ContractTest } from './store.js';

const at = (day: number, hour = 0): string => new Date(Date.UTC(2024, 2, day, hour)).toISOString();
const page = (limit: number, offset: number) => ({ limit, offset });

export const feedFixture = ({ ns }: Pick<ContractContext, 'ns'>, fields: Partial<Feed> = {}): Feed => ({
  id: ns('feed'),
  accountId: ns('acct-1'),
  title: 'Example',
  description: 'An example feed',
  icon: 'https://example.com/favicon.ico',
  sourceUrl: 'https://example.com/',
  fetchUrl: 'https://example.com/feed.xml',
  link: 'https://example.com/',
  createdAt: at(1),
  updatedAt: at(1),
  settings: defaultFeedSettings,
  fetch: { errorCount: 0, unchangedStreak: 0 },
  ...fields,
});

export function feedStoreContract(test: ContractTest): void {
  test('a stored feed reads back as it was written', async (t, ctx) => {
    const { feeds } = ctx.store;
    const written = feedFixture(ctx, {
      settings: {
        customAuthor: 'Wire',
        sort: 'date',
        paused: false,
        minIntervalSeconds: null,
        filters: { keep: null, block: null },
        fullText: false,
        fullTextRules: null,
        fetchOptions: null,
        selectors: null,
        render: 'auto',
      },
      fetch: { errorCount: 2, unchangedStreak: 1, etag: 'W/"x"', nextFetchAt: at(2) },
    });
    await feeds.insert(written);
    t.same(await feeds.get(written.accountId, written.id), { state: 'present', feed: written });
    t.same(await feeds.getById(written.id), written);
  });

  test('a feed that never existed is missing', async (t, { store, ns }) => {
    t.same(await store.feeds.get(ns('acct-1'), ns('nope')), { state: 'missing' });
    t.equal(await store.feeds.getById(ns('nope')), undefined);
  });

  test("another account's feed is missing, not forbidden and not shown", async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    const other = ctx.ns('acct-2');
    await feeds.insert(feed);
    t.same(await feeds.get(other, feed.id), { state: 'missing' });
    t.same(await feeds.list(other, page(10, 0)), { total: 0, feeds: [] });
    t.equal(await feeds.update(other, feed.id, { title: 'hijacked' }, at(2)), undefined);
    t.equal(
      await feeds.updateSettings(
        other,
        feed.id,
        {
          customAuthor: 'x',
          sort: 'date',
          paused: false,
          minIntervalSeconds: null,
          filters: { keep: null, block: null },
          fullText: false,
          fullTextRules: null,
          fetchOptions: null,
          selectors: null,
          render: 'auto',
        },
        at(2),
      ),
      undefined,
    );
    t.equal(await feeds.markDeleted(other, feed.id, at(2)), false);
    t.same(await feeds.get(feed.accountId, feed.id), { state: 'present', feed }, 'the owner still sees it unchanged');
  });

  test('a deleted feed says it was deleted, and deleting it again says false', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    t.equal(await feeds.markDeleted(feed.accountId, feed.id, at(2)), true);
    t.same(await feeds.get(feed.accountId, feed.id), { state: 'deleted' });
    t.equal(await feeds.getById(feed.id), undefined, 'hosted feeds and refreshes no longer see it');
    t.equal(await feeds.markDeleted(feed.accountId, feed.id, at(3)), false);
    t.same(await feeds.get(ctx.ns('acct-2'), feed.id), { state: 'missing' }, 'another account cannot learn it existed');
    t.equal(await feeds.markDeleted(feed.accountId, ctx.ns('never-existed'), at(3)), false);
  });

  test('a deleted feed cannot be edited, listed or refreshed back to life', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    await feeds.markDeleted(feed.accountId, feed.id, at(2));
    t.equal(await feeds.update(feed.accountId, feed.id, { title: 'zombie' }, at(3)), undefined);
    t.equal(
      await feeds.updateSettings(
        feed.accountId,
        feed.id,
        {
          customAuthor: 'x',
          sort: 'date',
          paused: false,
          minIntervalSeconds: null,
          filters: { keep: null, block: null },
          fullText: false,
          fullTextRules: null,
          fetchOptions: null,
          selectors: null,
          render: 'auto',
        },
        at(3),
      ),
      undefined,
    );
    await feeds.saveFetchState(feed.id, { errorCount: 0, unchangedStreak: 0, lastStatus: 'ok' }, 'https://example.com/late.xml');
    t.same(await feeds.get(feed.accountId, feed.id), { state: 'deleted' });
    t.same(await feeds.list(feed.accountId, page(10, 0)), { total: 0, feeds: [] });
  });

  test('feeds are listed newest first, with the total and the page asked for', async (t, ctx) => {
    const { feeds } = ctx.store;
    const acct = ctx.ns('acct-1');
    const idOf = (n: number): string => ctx.ns(`feed-${n}`);
    // inserted out of order: the list orders by creation time, not by insertion
    for (const n of [3, 1, 5, 2, 4]) await feeds.insert(feedFixture(ctx, { id: idOf(n), createdAt: at(n) }));
    await feeds.insert(feedFixture(ctx, { id: ctx.ns('other'), accountId: ctx.ns('acct-2'), createdAt: at(9) }));
    const all = await feeds.list(acct, page(10, 0));
    t.equal(all.total, 5);
    t.same(
      all.feeds.map((f) => f.id),
      [5, 4, 3, 2, 1].map(idOf),
    );
    const second = await feeds.list(acct, page(2, 1));
    t.equal(second.total, 5, 'total counts every feed, not the page');
    t.same(
      second.feeds.map((f) => f.id),
      [idOf(4), idOf(3)],
    );
    t.same(await feeds.list(acct, page(10, 5)), { total: 5, feeds: [] }, 'past the end: empty data');
    t.same(await feeds.list(acct, page(10, Number.MAX_SAFE_INTEGER)), { total: 5, feeds: [] }, 'far past the end too');
    await feeds.markDeleted(acct, idOf(4), at(10));
    const after = await feeds.list(acct, page(10, 0));
    t.equal(after.total, 4, 'deleted feeds are not counted');
    t.same(
      after.feeds.map((f) => f.id),
      [5, 3, 2, 1].map(idOf),
    );
  });

  test('feeds created in the same millisecond list the later one first', async (t, ctx) => {
    const { feeds } = ctx.store;
    const idOf = (n: number): string => ctx.ns(`feed-${n}`);
    for (const n of [1, 2, 3]) await feeds.insert(feedFixture(ctx, { id: idOf(n) }));
    t.same(
      (await feeds.list(ctx.ns('acct-1'), page(10, 0))).feeds.map((f) => f.id),
      [3, 2, 1].map(idOf),
    );
  });

  test('an update changes only the fields given', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    const updated = await feeds.update(feed.accountId, feed.id, { title: 'Renamed' }, at(2));
    t.same(updated, { ...feed, title: 'Renamed', updatedAt: at(2) });
    const cleared = await feeds.update(feed.accountId, feed.id, { description: '', icon: 'https://example.com/new.png' }, at(3));
    t.equal(cleared?.description, '', 'an empty string is a value, not "unchanged"');
    t.equal(cleared?.icon, 'https://example.com/new.png');
    t.equal(cleared?.title, 'Renamed');
    const lookup = await feeds.get(feed.accountId, feed.id);
    t.same(lookup.state === 'present' && lookup.feed, cleared, 'what update returned is what is stored');
  });

  test('settings are replaced and read back', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    const changed = await feeds.updateSettings(
      feed.accountId,
      feed.id,
      {
        customAuthor: 'Newsroom',
        sort: 'date',
        paused: false,
        minIntervalSeconds: null,
        filters: { keep: null, block: null },
        fullText: false,
        fullTextRules: null,
        fetchOptions: null,
        selectors: null,
        render: 'auto',
      },
      at(2),
    );
    t.same(changed?.settings, {
      customAuthor: 'Newsroom',
      sort: 'date',
      paused: false,
      minIntervalSeconds: null,
      filters: { keep: null, block: null },
      fullText: false,
      fullTextRules: null,
      fetchOptions: null,
      selectors: null,
      render: 'auto',
    });
    t.equal(changed?.updatedAt, at(2));
    const reset = await feeds.updateSettings(
      feed.accountId,
      feed.id,
      {
        customAuthor: null,
        sort: 'date',
        paused: false,
        minIntervalSeconds: null,
        filters: { keep: null, block: null },
        fullText: false,
        fullTextRules: null,
        fetchOptions: null,
        selectors: null,
        render: 'auto',
      },
      at(3),
    );
    t.same(reset?.settings, {
      customAuthor: null,
      sort: 'date',
      paused: false,
      minIntervalSeconds: null,
      filters: { keep: null, block: null },
      fullText: false,
      fullTextRules: null,
      fetchOptions: null,
      selectors: null,
      render: 'auto',
    });
    t.same((await feeds.getById(feed.id))?.settings, {
      customAuthor: null,
      sort: 'date',
      paused: false,
      minIntervalSeconds: null,
      filters: { keep: null, block: null },
      fullText: false,
      fullTextRules: null,
      fetchOptions: null,
      selectors: null,
      render: 'auto',
    });
  });

  test('a refresh records its fetch state and the address it ended at', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    const state: FetchState = {
      errorCount: 0,
      unchangedStreak: 3,
      etag: '"abc"',
      lastModified: 'Tue, 05 Mar 2024 06:07:08 GMT',
      bodyHash: 'h',
      lastFetchedAt: at(5),
      nextFetchAt: at(5, 1),
      lastStatus: 'not_modified',
    };
    await feeds.saveFetchState(feed.id, state, 'https://example.com/moved.xml');
    const stored = await feeds.getById(feed.id);
    t.same(stored?.fetch, state);
    t.equal(stored?.fetchUrl, 'https://example.com/moved.xml');
    t.equal(stored?.sourceUrl, 'https://example.com/', 'the address the user gave is kept');
    t.equal(stored?.updatedAt, feed.updatedAt, 'a refresh is not a user edit');
  });

  test("a failing refresh's health is kept: when it last succeeded and why it failed", async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    const state: FetchState = {
      errorCount: 2,
      unchangedStreak: 0,
      lastFetchedAt: at(6),
      lastSuccessAt: at(4),
      nextFetchAt: at(6, 1),
      lastStatus: 'upstream_status',
      lastError: { code: 'upstream_status', message: 'The source answered 500' },
    };
    await feeds.saveFetchState(feed.id, state, feed.fetchUrl);
    t.same((await feeds.getById(feed.id))?.fetch, state);
  });

  test('a refresh of a feed that does not exist creates nothing', async (t, ctx) => {
    const { feeds } = ctx.store;
    await feeds.saveFetchState(ctx.ns('ghost'), { errorCount: 1, unchangedStreak: 0 }, 'https://example.com/');
    t.equal(await feeds.getById(ctx.ns('ghost')), undefined);
    t.notOk(
      (await everyDueFeed(feeds)).some((due) => due.id === ctx.ns('ghost')),
      'nor schedules it',
    );
  });

  test('start-up finds every live feed with when it is due, and no deleted ones', async (t, ctx) => {
    const { feeds } = ctx.store;
    const idOf = (n: number): string => ctx.ns(`feed-${n}`);
    await feeds.insert(feedFixture(ctx, { id: idOf(1), fetch: { errorCount: 0, unchangedStreak: 0, nextFetchAt: at(5, 1) } }));
    await feeds.insert(feedFixture(ctx, { id: idOf(2) }));
    await feeds.insert(feedFixture(ctx, { id: idOf(3), accountId: ctx.ns('acct-2') }));
    await feeds.insert(feedFixture(ctx, { id: idOf(4) }));
    await feeds.markDeleted(ctx.ns('acct-1'), idOf(4), at(5));
    const ours = (await everyDueFeed(feeds)).filter((due) => due.id.startsWith(ctx.ns('')));
    t.ok(
      ours.every((due) => due.settings.render === 'auto'),
      'with the settings that pick its queue',
    );
    t.same(
      ours.map(({ id, fetch }) => ({ id, nextFetchAt: fetch.nextFetchAt })).sort((a, b) => a.id.localeCompare(b.id)),
      [
        { id: idOf(1), nextFetchAt: at(5, 1) },
        { id: idOf(2), nextFetchAt: undefined },
        { id: idOf(3), nextFetchAt: undefined },
      ],
    );
  });

  test('start-up reads the live feeds in pages of at most the size asked, each once, and may stop after any', async (t, ctx) => {
    const { feeds } = ctx.store;
    const ids = Array.from({ length: 7 }, (_, n) => ctx.ns(`paged-${n}`));
    for (const id of ids) await feeds.insert(feedFixture(ctx, { id }));
    await feeds.markDeleted(ctx.ns('acct-1'), ids[6] ?? '', at(5));
    const sizes: number[] = [];
    const seen: string[] = [];
    for await (const page of feeds.dueFeeds(2)) {
      sizes.push(page.length);
      seen.push(...page.map((due) => due.id).filter((id) => id.startsWith(ctx.ns('paged-'))));
    }
    t.ok(
      sizes.every((size) => size >= 1 && size <= 2),
      `no page over 2 feeds, and none empty (${sizes.join(', ')})`,
    );
    t.same([...seen].sort(), ids.slice(0, 6).sort(), 'every live feed once, the deleted one not');
    const turns: string[] = [];
    for await (const _page of feeds.dueFeeds(2)) {
      turns.push('page');
      if (turns.length === 1) setImmediate(() => turns.push('a turn of the event loop'));
    }
    t.equal(turns[1], 'a turn of the event loop', 'the event loop turns before the next page: a SIGTERM gets in');
    let pages = 0;
    for await (const _page of feeds.dueFeeds(2)) {
      pages += 1;
      break;
    }
    t.equal(pages, 1, 'a walk stopped after its first page ends cleanly');
  });

  test('inserting a feed id twice is refused and keeps the first', async (t, ctx) => {
    const { feeds } = ctx.store;
    const feed = feedFixture(ctx);
    await feeds.insert(feed);
    await t.rejects(feeds.insert({ ...feed, title: 'duplicate' }));
    t.equal((await feeds.getById(feed.id))?.title, 'Example');
    t.equal((await feeds.list(feed.accountId, page(10, 0))).total, 1, 'and lists it once');
  });
}
