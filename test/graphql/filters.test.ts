import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, filterSelection, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(3);
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

const feed = await graphql<{ createFeed: { id: string; items: { nodes: { title: string }[] } } }>(
  yoga,
  alice,
  'mutation ($url: String!) { createFeed(input: { url: $url }) { id items { nodes { title } } } }',
  { url: source.url },
);
const feedId = feed.data?.createFeed.id ?? '';
const titles = feed.data?.createFeed.items.nodes.map((item) => item.title) ?? [];
const [first = '', second = ''] = titles;

/** A condition as the schema reads it back: the fields of a group are null. */
const condition = (field: string, op: string, value: string) => ({ field, op, value, all: null, any: null });
const keepBlock = `keep { ${filterSelection} } block { ${filterSelection} }`;

const setFeedFilters = (filters: unknown) =>
  graphql<{ updateFeedSettings: { filters: { keep: unknown; block: unknown } } }>(
    yoga,
    alice,
    `mutation ($id: ID!, $filters: KeepBlockInput) { updateFeedSettings(feedId: $id, input: { filters: $filters }) { filters { ${keepBlock} } } }`,
    { id: feedId, filters },
  );
const shownTitles = async (): Promise<string[]> =>
  (
    await graphql<{ feed: { items: { nodes: { title: string }[] } } }>(
      yoga,
      alice,
      'query ($id: ID!) { feed(id: $id) { items { nodes { title } } } }',
      {
        id: feedId,
      },
    )
  ).data?.feed.items.nodes.map((item) => item.title) ?? [];

t.test('feed filters are typed both ways, and drop items from Feed.items', async (t) => {
  const set = await setFeedFilters({ block: { field: 'TITLE', op: 'CONTAINS', value: first } });
  t.same(set.errors, undefined);
  t.same(set.data?.updateFeedSettings.filters, { keep: null, block: condition('TITLE', 'CONTAINS', first) });
  t.same(await shownTitles(), titles.slice(1), 'the blocked item is not shown');

  const keep = await setFeedFilters({
    keep: {
      any: [
        { field: 'TITLE', op: 'CONTAINS', value: second },
        { field: 'TITLE', op: 'CONTAINS', value: first },
      ],
    },
  });
  t.same(
    keep.data?.updateFeedSettings.filters,
    {
      keep: {
        field: null,
        op: null,
        value: null,
        all: null,
        any: [condition('TITLE', 'CONTAINS', second), condition('TITLE', 'CONTAINS', first)],
      },
      block: condition('TITLE', 'CONTAINS', first),
    },
    'a rule left out of the object keeps its value',
  );
  t.same(await shownTitles(), [second], 'kept by `keep`, not blocked');

  const dropBlock = await setFeedFilters({ block: null });
  t.same(dropBlock.data?.updateFeedSettings.filters.block, null, 'null removes one rule');
  t.not(dropBlock.data?.updateFeedSettings.filters.keep, null, 'and keeps the other');
  const none = await setFeedFilters(null);
  t.same(none.data?.updateFeedSettings.filters, { keep: null, block: null }, 'null removes both');
  t.same(await shownTitles(), titles);
});

t.test('the JSON a REST body carries is a valid variable, down to the deepest level the language allows', async (t) => {
  const restBody = {
    keep: {
      all: [
        { field: 'URL', op: 'MATCHES', value: '^https?://' },
        {
          any: [
            { field: 'TITLE', op: 'CONTAINS', value: first },
            { field: 'DATE_PUBLISHED', op: 'NEWER_THAN', value: '520w' },
          ],
        },
      ],
    },
  };
  const set = await setFeedFilters(restBody);
  t.same(set.errors, undefined);
  const read = await graphql<{ feed: { settings: { filters: { keep: unknown } } } }>(
    yoga,
    alice,
    `query ($id: ID!) { feed(id: $id) { settings { filters { keep { ${filterSelection} } } } } }`,
    { id: feedId },
  );
  t.same(read.data?.feed.settings.filters.keep, {
    field: null,
    op: null,
    value: null,
    any: null,
    all: [
      condition('URL', 'MATCHES', '^https?://'),
      // A group in a group holds only conditions, which have no `all` / `any`.
      {
        field: null,
        op: null,
        value: null,
        all: null,
        any: [
          { field: 'TITLE', op: 'CONTAINS', value: first },
          { field: 'DATE_PUBLISHED', op: 'NEWER_THAN', value: '520w' },
        ],
      },
    ],
  });
  await setFeedFilters(null);
});

t.test('a filter the language refuses is validation_failed, naming what was expected and where', async (t) => {
  const tooDeep = await setFeedFilters({ keep: { all: [{ all: [{ all: [{ field: 'TITLE', op: 'CONTAINS', value: 'x' }] }] }] } });
  t.ok(
    codesOf(tooDeep).length > 0 && codesOf(tooDeep).every((code) => code === 'validation_failed'),
    'the schema has no level below a group in a group',
  );
  t.match(tooDeep.errors?.map((error) => error.message).join('\n'), /Field "all" is not defined by type "FilterConditionInput"/);

  const unknownField = await setFeedFilters({ keep: { field: 'colour', op: 'CONTAINS', value: 'x' } });
  t.same(codesOf(unknownField), ['validation_failed'], 'fields and operators are enums');

  const wrongOp = await setFeedFilters({ block: { field: 'DATE_PUBLISHED', op: 'CONTAINS', value: '2026' } });
  t.same(codesOf(wrongOp), ['validation_failed']);
  t.equal(
    wrongOp.errors?.[0]?.message,
    'Expected `filters.block.op` to be `older_than` or `newer_than` (the operators of `date_published`), got "contains"',
  );

  const twoShapes = await setFeedFilters({
    keep: { field: 'TITLE', op: 'CONTAINS', value: 'x', any: [{ field: 'URL', op: 'CONTAINS', value: 'y' }] },
  });
  t.same(codesOf(twoShapes), ['validation_failed']);
  t.match(twoShapes.errors?.[0]?.message, /^Unknown fields `field`, `op`, `value` in `filters.keep`; expected `any` alone$/);

  const lookahead = await setFeedFilters({ keep: { any: [{ field: 'TITLE', op: 'MATCHES', value: 'a(?=b)' }] } });
  t.same(codesOf(lookahead), ['validation_failed']);
  t.equal(
    lookahead.errors?.[0]?.message,
    'Expected `filters.keep.any[0].value` to be a regular expression in RE2 syntax (which has no backreferences or lookarounds), got "a(?=b)"; RE2 says: invalid or unsupported Perl syntax: `(?=`',
  );
  t.same(await shownTitles(), titles, 'nothing was saved');
});

t.test('a whole filter, every level, can be read from each list within the depth and cost limits', async (t) => {
  await setFeedFilters({ keep: { any: [{ all: [{ field: 'TITLE', op: 'CONTAINS', value: 'Post' }] }] } });
  t.teardown(async () => void (await setFeedFilters(null)));
  const lists = [
    `{ feeds { nodes { settings { filters { ${keepBlock} } } } } }`,
    `{ bundles { nodes { settings { filters { ${keepBlock} } } } } }`,
    `{ webhooks { nodes { filters { ${filterSelection} } } } }`,
  ];
  for (const query of lists) t.same((await graphql(yoga, alice, query)).errors, undefined, query.slice(0, 12));
  const feeds = await graphql<{ feeds: { nodes: { settings: { filters: { keep: unknown } } }[] } }>(yoga, alice, lists[0] ?? '');
  t.same(feeds.data?.feeds.nodes[0]?.settings.filters.keep, {
    field: null,
    op: null,
    value: null,
    all: null,
    any: [{ field: null, op: null, value: null, any: null, all: [{ field: 'TITLE', op: 'CONTAINS', value: 'Post' }] }],
  });
});

t.test('bundle settings carry keep/block filters too', async (t) => {
  const bundle = await graphql<{ createBundle: { id: string } }>(
    yoga,
    alice,
    'mutation ($f: [ID!]!) { createBundle(input: { name: "B", feeds: $f }) { id } }',
    { f: [feedId] },
  );
  const bundleId = bundle.data?.createBundle.id ?? '';
  const set = await graphql<{ updateBundleSettings: { sort: string; filters: { block: unknown } } }>(
    yoga,
    alice,
    `mutation ($id: ID!) { updateBundleSettings(bundleId: $id, input: { filters: { block: { field: TITLE, op: CONTAINS, value: ${JSON.stringify(first)} } } }) { sort filters { block { ${filterSelection} } } } }`,
    { id: bundleId },
  );
  t.equal(set.data?.updateBundleSettings.sort, 'LAST_ADDED');
  t.same(set.data?.updateBundleSettings.filters.block, condition('TITLE', 'CONTAINS', first));
  const shown = await graphql<{
    bundle: { settings: { filters: { keep: unknown; block: unknown } }; items: { nodes: { title: string }[] } };
  }>(yoga, alice, `query ($id: ID!) { bundle(id: $id) { settings { filters { ${keepBlock} } } items { nodes { title } } } }`, {
    id: bundleId,
  });
  t.same(shown.data?.bundle.settings.filters, { keep: null, block: condition('TITLE', 'CONTAINS', first) });
  t.equal(shown.data?.bundle.items.nodes.length, 2, 'the blocked item is not in the bundle');
  const bad = await graphql(
    yoga,
    alice,
    'mutation ($id: ID!) { updateBundleSettings(bundleId: $id, input: { filters: { keep: { field: TITLE, op: OLDER_THAN, value: "7d" } } }) { sort } }',
    { id: bundleId },
  );
  t.same(codesOf(bad), ['validation_failed']);
  t.match(
    bad.errors?.[0]?.message,
    /^Expected `filters\.keep\.field` to be `date_published` \(the only field `older_than` or `newer_than` apply to\), got "title"/,
  );
});
