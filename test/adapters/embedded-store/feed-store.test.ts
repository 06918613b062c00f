import t from 'tap';
import { feedFixture as feed, openTempStore } from './temp-store.js';
import { everyDueFeed } from '../../fixtures/due-feeds.js';

const idOf = (n: number): string => `feed${String(n).padStart(12, '0')}`;

t.test('a stored feed reads back as it was written', async (t) => {
  const { feeds } = openTempStore(t);
  const written = feed({
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
    fetch: { errorCount: 2, unchangedStreak: 1, etag: 'W/"x"', nextFetchAt: '2024-03-02T00:00:00.000Z' },
  });
  await feeds.insert(written);
  t.same(await feeds.get('acct-1', written.id), { state: 'present', feed: written });
  t.same(await feeds.getById(written.id), written);
});

t.test('a feed that never existed is missing', async (t) => {
  const { feeds } = openTempStore(t);
  t.same(await feeds.get('acct-1', 'nope'), { state: 'missing' });
  t.equal(await feeds.getById('nope'), undefined);
});

t.test("another account's feed is missing, not forbidden and not shown", async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  t.same(await feeds.get('acct-2', 'AAAAAAAAAAAAAAAA'), { state: 'missing' });
  t.same(await feeds.list('acct-2', { limit: 10, offset: 0 }), { total: 0, feeds: [] });
  t.equal(await feeds.update('acct-2', 'AAAAAAAAAAAAAAAA', { title: 'hijacked' }, '2024-03-02T00:00:00.000Z'), undefined);
  t.equal(
    await feeds.updateSettings(
      'acct-2',
      'AAAAAAAAAAAAAAAA',
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
      '2024-03-02T00:00:00.000Z',
    ),
    undefined,
  );
  t.equal(await feeds.markDeleted('acct-2', 'AAAAAAAAAAAAAAAA', '2024-03-02T00:00:00.000Z'), false);
  const lookup = await feeds.get('acct-1', 'AAAAAAAAAAAAAAAA');
  t.equal(lookup.state === 'present' && lookup.feed.title, 'Example', 'the owner still sees it unchanged');
  t.same(lookup.state === 'present' && lookup.feed.settings, {
    customAuthor: null,
    sort: 'last_added',
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

t.test('a deleted feed says it was deleted, and deleting it again says false', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  t.equal(await feeds.markDeleted('acct-1', 'AAAAAAAAAAAAAAAA', '2024-03-02T00:00:00.000Z'), true);
  t.same(await feeds.get('acct-1', 'AAAAAAAAAAAAAAAA'), { state: 'deleted' });
  t.equal(await feeds.getById('AAAAAAAAAAAAAAAA'), undefined, 'hosted feeds and refreshes no longer see it');
  t.equal(await feeds.markDeleted('acct-1', 'AAAAAAAAAAAAAAAA', '2024-03-03T00:00:00.000Z'), false);
  t.same(await feeds.get('acct-2', 'AAAAAAAAAAAAAAAA'), { state: 'missing' }, 'another account cannot learn it existed');
  t.equal(await feeds.markDeleted('acct-1', 'never-existed', '2024-03-03T00:00:00.000Z'), false);
});

t.test('a deleted feed cannot be edited', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  await feeds.markDeleted('acct-1', 'AAAAAAAAAAAAAAAA', '2024-03-02T00:00:00.000Z');
  t.equal(await feeds.update('acct-1', 'AAAAAAAAAAAAAAAA', { title: 'zombie' }, '2024-03-03T00:00:00.000Z'), undefined);
  t.equal(
    await feeds.updateSettings(
      'acct-1',
      'AAAAAAAAAAAAAAAA',
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
      '2024-03-03T00:00:00.000Z',
    ),
    undefined,
  );
  t.same(await feeds.list('acct-1', { limit: 10, offset: 0 }), { total: 0, feeds: [] });
});

t.test('feeds are listed newest first, with the total and the page asked for', async (t) => {
  const { feeds } = openTempStore(t);
  // inserted out of order: the list orders by creation time, not by insertion
  for (const n of [3, 1, 5, 2, 4]) await feeds.insert(feed({ id: idOf(n), createdAt: `2024-03-0${n}T00:00:00.000Z` }));
  await feeds.insert(feed({ id: 'other-account-01', accountId: 'acct-2', createdAt: '2024-03-09T00:00:00.000Z' }));
  const all = await feeds.list('acct-1', { limit: 10, offset: 0 });
  t.equal(all.total, 5);
  t.same(
    all.feeds.map((f) => f.id),
    [5, 4, 3, 2, 1].map(idOf),
  );
  const page = await feeds.list('acct-1', { limit: 2, offset: 1 });
  t.equal(page.total, 5, 'total counts every feed, not the page');
  t.same(
    page.feeds.map((f) => f.id),
    [idOf(4), idOf(3)],
  );
  t.same(await feeds.list('acct-1', { limit: 10, offset: 5 }), { total: 5, feeds: [] }, 'past the end: empty data');
  await feeds.markDeleted('acct-1', idOf(4), '2024-03-10T00:00:00.000Z');
  const after = await feeds.list('acct-1', { limit: 10, offset: 0 });
  t.equal(after.total, 4, 'deleted feeds are not counted');
  t.same(
    after.feeds.map((f) => f.id),
    [5, 3, 2, 1].map(idOf),
  );
});

t.test('feeds created in the same millisecond list the later one first', async (t) => {
  const { feeds } = openTempStore(t);
  for (const n of [1, 2, 3]) await feeds.insert(feed({ id: idOf(n) }));
  t.same(
    (await feeds.list('acct-1', { limit: 10, offset: 0 })).feeds.map((f) => f.id),
    [3, 2, 1].map(idOf),
  );
});

t.test('an update changes only the fields given', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  const updated = await feeds.update('acct-1', 'AAAAAAAAAAAAAAAA', { title: 'Renamed' }, '2024-03-02T00:00:00.000Z');
  t.equal(updated?.title, 'Renamed');
  t.equal(updated?.description, 'An example feed');
  t.equal(updated?.icon, 'https://example.com/favicon.ico');
  t.equal(updated?.updatedAt, '2024-03-02T00:00:00.000Z');
  t.equal(updated?.createdAt, '2024-03-01T00:00:00.000Z');
  const cleared = await feeds.update(
    'acct-1',
    'AAAAAAAAAAAAAAAA',
    { description: '', icon: 'https://example.com/new.png' },
    '2024-03-03T00:00:00.000Z',
  );
  t.equal(cleared?.description, '', 'an empty string is a value, not "unchanged"');
  t.equal(cleared?.icon, 'https://example.com/new.png');
  t.equal(cleared?.title, 'Renamed');
  const lookup = await feeds.get('acct-1', 'AAAAAAAAAAAAAAAA');
  t.same(lookup.state === 'present' && lookup.feed, cleared, 'what update returned is what is stored');
});

t.test('settings are replaced and read back', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  const changed = await feeds.updateSettings(
    'acct-1',
    'AAAAAAAAAAAAAAAA',
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
    '2024-03-02T00:00:00.000Z',
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
  t.equal(changed?.updatedAt, '2024-03-02T00:00:00.000Z');
  const reset = await feeds.updateSettings(
    'acct-1',
    'AAAAAAAAAAAAAAAA',
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
    '2024-03-03T00:00:00.000Z',
  );
  t.same((await feeds.getById('AAAAAAAAAAAAAAAA'))?.settings, {
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
});

t.test('a refresh records its fetch state and the address it ended at', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  const state = {
    errorCount: 0,
    unchangedStreak: 3,
    etag: '"abc"',
    lastModified: 'Tue, 05 Mar 2024 06:07:08 GMT',
    bodyHash: 'h',
    lastFetchedAt: '2024-03-05T00:00:00.000Z',
    nextFetchAt: '2024-03-05T01:00:00.000Z',
    lastStatus: 'not_modified',
  };
  await feeds.saveFetchState('AAAAAAAAAAAAAAAA', state, 'https://example.com/moved.xml');
  const stored = await feeds.getById('AAAAAAAAAAAAAAAA');
  t.same(stored?.fetch, state);
  t.equal(stored?.fetchUrl, 'https://example.com/moved.xml');
  t.equal(stored?.sourceUrl, 'https://example.com/', 'the address the user gave is kept');
});

t.test('start-up finds every live feed with when it is due, and no deleted ones', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed({ id: idOf(1), fetch: { errorCount: 0, unchangedStreak: 0, nextFetchAt: '2024-03-05T01:00:00.000Z' } }));
  await feeds.insert(feed({ id: idOf(2) }));
  await feeds.insert(feed({ id: idOf(3), accountId: 'acct-2' }));
  await feeds.insert(feed({ id: idOf(4) }));
  await feeds.markDeleted('acct-1', idOf(4), '2024-03-05T00:00:00.000Z');
  const due = (await everyDueFeed(feeds)).sort((a, b) => a.id.localeCompare(b.id));
  t.ok(
    due.every((one) => one.settings.render === 'auto'),
    'with the settings that pick its queue',
  );
  t.same(
    due.map(({ id, fetch }) => ({ id, nextFetchAt: fetch.nextFetchAt })),
    [
      { id: idOf(1), nextFetchAt: '2024-03-05T01:00:00.000Z' },
      { id: idOf(2), nextFetchAt: undefined },
      { id: idOf(3), nextFetchAt: undefined },
    ],
  );
});

t.test('inserting a feed id twice is refused', async (t) => {
  const { feeds } = openTempStore(t);
  await feeds.insert(feed());
  await t.rejects(feeds.insert(feed({ title: 'duplicate' })));
  t.equal((await feeds.getById('AAAAAAAAAAAAAAAA'))?.title, 'Example');
});
