import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(3);
t.teardown(async () => {
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const aliceReader = await env.bearer('alice', ['read']);
const aliceWriter = await env.bearer('alice', ['write']);
const count = async () =>
  (await graphql<{ feeds: { totalCount: number } }>(yoga, alice, '{ feeds { totalCount } }')).data?.feeds.totalCount;

t.test('without valid credentials every operation is refused with 401 `unauthorized`', async (t) => {
  for (const [why, authorization] of [
    ['missing', undefined],
    ['malformed', 'Bearer nocolon'],
    ['wrong secret', `${alice.slice(0, -2)}xx`],
    ['not Bearer', 'Basic abc:def'],
  ] as const) {
    const response = await graphql(yoga, authorization, '{ feeds { totalCount } }');
    t.equal(response.status, 401, `${why}: HTTP 401`);
    t.same(codesOf(response), ['unauthorized'], `${why}: code`);
    t.equal(response.errors?.[0]?.extensions?.statusCode, 401, `${why}: statusCode`);
    t.match(response.errors?.[0]?.message, /Authorization/, `${why}: says what to send`);
    t.notOk(response.data, `${why}: no data`);
  }
  const mutation = await graphql(yoga, undefined, 'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }', {
    url: source.url,
  });
  t.same(codesOf(mutation), ['unauthorized']);
  t.equal(await count(), 0, 'nothing was created');
});

t.test('a read key reads but cannot change anything; a write-only key cannot read', async (t) => {
  t.equal((await graphql<{ feeds: { totalCount: number } }>(yoga, aliceReader, '{ feeds { totalCount } }')).data?.feeds.totalCount, 0);
  const refused = await graphql(yoga, aliceReader, 'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }', {
    url: source.url,
  });
  t.equal(refused.status, 403);
  t.same(codesOf(refused), ['forbidden']);
  t.match(refused.errors?.[0]?.message, /needs `write`/);
  t.equal(await count(), 0, 'nothing was created');
  const blind = await graphql(yoga, aliceWriter, '{ feeds { totalCount } }');
  t.same(codesOf(blind), ['forbidden']);
  const subscription = await graphql(yoga, aliceWriter, 'subscription { feedUpdate { id } }');
  t.same(codesOf(subscription), ['forbidden'], 'subscriptions need `read` too');
});

t.test('requests graphql itself rejects say `validation_failed`', async (t) => {
  const unknown = await graphql(yoga, alice, '{ feeds { totalCount colour } }');
  t.equal(unknown.status, 400);
  t.same(codesOf(unknown), ['validation_failed']);
  t.match(unknown.errors?.[0]?.message, /colour/);
  t.same(codesOf(await graphql(yoga, alice, '{ feeds { totalCount ')), ['validation_failed'], 'a syntax error');
  const introspection = await graphql(yoga, alice, '{ __schema { types { name } } }');
  t.equal(introspection.status, 400, 'introspection is off by default');
  t.match(introspection.errors?.[0]?.message, /introspection/);
  t.notOk(introspection.data);
});

t.test('a query nested deeper than 8 levels is refused before anything runs', async (t) => {
  // The schema has no cycles, so depth comes from fragments or (with the explorer on) introspection.
  const explorer = createGraphqlServer(env.deps, { explorer: true });
  const deep = '{ __type(name: "Feed") { fields { type { fields { type { fields { type { fields { type { name } } } } } } } } } }';
  const refused = await graphql(explorer, alice, deep);
  t.equal(refused.status, 400);
  t.equal(codesOf(refused)[0], 'validation_failed');
  t.match(refused.errors?.[0]?.message, /depth limit of 8 exceeded/);
  t.notOk(refused.data);
  const fragments = Array.from({ length: 9 }, (_, n) => `fragment F${n} on Feed { ${n === 8 ? 'id' : `...F${n + 1}`} }`).join(' ');
  const chained = await graphql(yoga, alice, `{ feeds { nodes { ...F0 } } } ${fragments}`);
  t.match(chained.errors?.[0]?.message, /depth limit of 8 exceeded/, 'fragments count as levels');
  const shallow = await graphql<{ __type: { name: string } }>(explorer, alice, '{ __type(name: "Feed") { name fields { name } } }');
  t.equal(shallow.data?.__type.name, 'Feed', 'an ordinary query passes');
});

t.test('a query costing more than 1000 is refused before anything runs, however it is spread out', async (t) => {
  const full =
    'id title sourceUrl rssFeedUrl description icon settings { customAuthor sort } items { nodes { url title descriptionText descriptionHtml thumbnail datePublished authors { name } } }';
  const aliases = Array.from({ length: 30 }, (_, n) => `f${n}: feeds(limit: 100) { totalCount nodes { ${full} } }`).join(' ');
  const refused = await graphql(yoga, alice, `{ ${aliases} }`);
  t.equal(refused.status, 400);
  t.same(codesOf(refused), ['validation_failed']);
  t.match(refused.errors?.[0]?.message, /Cost limit of 1000 exceeded/);
  t.notOk(refused.data);
  const one = await graphql<{ f0: { totalCount: number } }>(yoga, alice, `{ f0: feeds { totalCount nodes { ${full} } } }`);
  t.same(one.errors, undefined, 'one full listing is well within the limit');
});

t.test('misspelled names get no "Did you mean" hint, signed in or not', async (t) => {
  const misspelled = [
    '{ feeds { totl } }',
    '{ feeds(limt: 5) { totalCount } }',
    '{ feeds { nodes { ... on Fed { id } } } }',
    'query ($s: ItemSrt) { feeds { totalCount } }',
  ];
  for (const query of misspelled) {
    for (const [who, authorization] of [
      ['anonymous', undefined],
      ['signed in', alice],
    ] as const) {
      const response = await graphql(yoga, authorization, query);
      t.ok(codesOf(response).length > 0 && codesOf(response).every((code) => code === 'validation_failed'), `${who}: ${query} is refused`);
      const messages = (response.errors ?? []).map((error) => error.message);
      t.notMatch(messages.join('\n'), /Did you mean/, `${who}: ${query} suggests nothing`);
      t.match(
        messages[0],
        /Cannot query field "totl"|Unknown argument "limt"|Unknown type "Fed"|Unknown type "ItemSrt"/,
        'still says what was wrong',
      );
    }
  }
  const badEnum = await graphql(yoga, alice, '{ feeds { nodes { items(sort: dat) { nodes { url } } } } }');
  t.notMatch(badEnum.errors?.[0]?.message ?? '', /Did you mean/, 'nor for an enum value');
  const badVariable = await graphql(yoga, alice, 'query ($sort: ItemSort) { feeds { nodes { items(sort: $sort) { nodes { url } } } } }', {
    sort: 'dat',
  });
  t.same(codesOf(badVariable), ['validation_failed'], "a bad variable value is the request's fault, not ours");
  t.match(badVariable.errors?.[0]?.message, /\$sort.*"dat"/, 'and says which value of which variable');
  t.notMatch(badVariable.errors?.[0]?.message ?? '', /Did you mean/, 'nor for a variable value');
});
