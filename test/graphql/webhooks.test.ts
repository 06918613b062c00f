import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, filterSelection, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(1);
t.teardown(async () => {
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const created = await graphql<{ createFeed: { id: string } }>(
  yoga,
  alice,
  'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }',
  { url: source.url },
);
const feedId = created.data?.createFeed.id ?? '';

interface Webhook {
  id: string;
  url: string;
  scope: string;
  feeds: string[];
  filters: unknown;
  enabled: boolean;
  secret: string | null;
}
const fields = `id url scope feeds filters { ${filterSelection} } enabled secret`;

t.test('a webhook is created with its secret shown once, then read, changed and deleted', async (t) => {
  const filter = {
    any: [
      { field: 'TITLE', op: 'CONTAINS', value: 'release' },
      { field: 'CATEGORY', op: 'MATCHES', value: '^rust' },
    ],
  };
  const made = await graphql<{ createWebhook: Webhook }>(
    yoga,
    alice,
    `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { ${fields} } }`,
    { input: { url: 'https://hooks.example.test/in', feeds: [feedId], filters: filter } },
  );
  const webhook = made.data?.createWebhook;
  t.match(webhook?.id, /^wh_/);
  t.match(webhook?.secret, /^whsec_/, 'the signing secret comes with the creation');
  t.same([webhook?.scope, webhook?.feeds, webhook?.enabled], ['FEEDS', [feedId], true]);
  const condition = (field: string, op: string, value: string) => ({ field, op, value, all: null, any: null });
  t.same(
    webhook?.filters,
    {
      field: null,
      op: null,
      value: null,
      all: null,
      any: [condition('TITLE', 'CONTAINS', 'release'), condition('CATEGORY', 'MATCHES', '^rust')],
    },
    'the filter reads back typed',
  );

  const read = await graphql<{ webhook: Webhook }>(yoga, alice, `query ($id: ID!) { webhook(id: $id) { ${fields} } }`, { id: webhook?.id });
  t.equal(read.data?.webhook.secret, null, 'and never again');
  const list = await graphql<{ webhooks: { totalCount: number } }>(yoga, alice, '{ webhooks { totalCount } }');
  t.equal(list.data?.webhooks.totalCount, 1);

  const changed = await graphql<{ updateWebhook: Webhook }>(
    yoga,
    alice,
    `mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: false, filters: null }) { ${fields} } }`,
    { id: webhook?.id },
  );
  t.same(
    [changed.data?.updateWebhook.enabled, changed.data?.updateWebhook.filters, changed.data?.updateWebhook.url],
    [false, null, 'https://hooks.example.test/in'],
  );

  const rotated = await graphql<{ rotateWebhookSecret: Webhook }>(
    yoga,
    alice,
    'mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
    { id: webhook?.id },
  );
  t.match(rotated.data?.rotateWebhookSecret.secret, /^whsec_/);
  t.not(rotated.data?.rotateWebhookSecret.secret, webhook?.secret, 'a new secret');

  const history = await graphql<{ webhook: { deliveries: { totalCount: number } } }>(
    yoga,
    alice,
    'query ($id: ID!) { webhook(id: $id) { deliveries { totalCount } } }',
    { id: webhook?.id },
  );
  t.equal(history.data?.webhook.deliveries.totalCount, 0);

  t.same(
    codesOf(await graphql(yoga, bob, 'query ($id: ID!) { webhook(id: $id) { url } }', { id: webhook?.id })),
    ['webhook_not_found'],
    "another account's webhook is not found",
  );
  const removed = await graphql<{ deleteWebhook: { deleted: boolean } }>(
    yoga,
    alice,
    'mutation ($id: ID!) { deleteWebhook(id: $id) { deleted } }',
    { id: webhook?.id },
  );
  t.equal(removed.data?.deleteWebhook.deleted, true);
  t.same(codesOf(await graphql(yoga, alice, 'query ($id: ID!) { webhook(id: $id) { url } }', { id: webhook?.id })), ['webhook_not_found']);
});

t.test("bad filters, or another account's feed, create no webhook", async (t) => {
  const asString = await graphql(
    yoga,
    alice,
    'mutation { createWebhook(input: { url: "https://hooks.example.test/in", filters: "{\\"field\\": \\"title\\"}" }) { id } }',
  );
  t.same(codesOf(asString), ['validation_failed'], 'a filter is an input object, not a JSON string');
  const badOp = await graphql(
    yoga,
    alice,
    'mutation { createWebhook(input: { url: "https://hooks.example.test/in", filters: { field: URL, op: NEWER_THAN, value: "7d" } }) { id } }',
  );
  t.same(codesOf(badOp), ['validation_failed']);
  t.equal(
    badOp.errors?.[0]?.message,
    'Expected `filters.field` to be `date_published` (the only field `older_than` or `newer_than` apply to), got "url"',
  );
  const foreign = await graphql(
    yoga,
    bob,
    'mutation ($f: ID!) { createWebhook(input: { url: "https://hooks.example.test/in", feeds: [$f] }) { id } }',
    { f: feedId },
  );
  t.same(codesOf(foreign), ['feed_not_found']);
  t.equal((await graphql<{ webhooks: { totalCount: number } }>(yoga, bob, '{ webhooks { totalCount } }')).data?.webhooks.totalCount, 0);
});
