import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(1);
t.teardown(async () => {
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const created = await graphql<{ createFeed: { id: string } }>(yoga, alice, 'mutation ($url: String!) { createFeed(url: $url) { id } }', { url: source.url });
const feedId = created.data?.createFeed.id ?? '';

interface Webhook {
  id: string;
  url: string;
  scope: string;
  feeds: string[];
  filters: string | null;
  enabled: boolean;
  secret: string | null;
}
const fields = 'id url scope feeds filters enabled secret';

t.test('a webhook is created with its secret shown once, then read, changed and deleted', async (t) => {
  const filter = JSON.stringify({ field: 'title', op: 'contains', value: 'release' });
  const made = await graphql<{ createWebhook: Webhook }>(
    yoga,
    alice,
    `mutation ($f: ID!, $filters: String) { createWebhook(url: "https://hooks.example.test/in", feeds: [$f], filters: $filters) { ${fields} } }`,
    { f: feedId, filters: filter },
  );
  const webhook = made.data?.createWebhook;
  t.match(webhook?.id, /^wh_/);
  t.match(webhook?.secret, /^whsec_/, 'the signing secret comes with the creation');
  t.same([webhook?.scope, webhook?.feeds, webhook?.enabled], ['feeds', [feedId], true]);
  t.same(JSON.parse(webhook?.filters ?? 'null'), JSON.parse(filter));

  const read = await graphql<{ webhook: Webhook }>(yoga, alice, `query ($id: ID!) { webhook(id: $id) { ${fields} } }`, { id: webhook?.id });
  t.equal(read.data?.webhook.secret, null, 'and never again');
  const list = await graphql<{ webhooks: { total: number } }>(yoga, alice, '{ webhooks { total } }');
  t.equal(list.data?.webhooks.total, 1);

  const changed = await graphql<{ updateWebhook: Webhook }>(yoga, alice, `mutation ($id: ID!) { updateWebhook(id: $id, enabled: false, filters: null) { ${fields} } }`, { id: webhook?.id });
  t.same([changed.data?.updateWebhook.enabled, changed.data?.updateWebhook.filters, changed.data?.updateWebhook.url], [false, null, 'https://hooks.example.test/in']);

  const rotated = await graphql<{ rotateWebhookSecret: Webhook }>(yoga, alice, 'mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: webhook?.id });
  t.match(rotated.data?.rotateWebhookSecret.secret, /^whsec_/);
  t.not(rotated.data?.rotateWebhookSecret.secret, webhook?.secret, 'a new secret');

  const history = await graphql<{ webhook: { deliveries: { total: number } } }>(yoga, alice, 'query ($id: ID!) { webhook(id: $id) { deliveries { total } } }', { id: webhook?.id });
  t.equal(history.data?.webhook.deliveries.total, 0);

  t.same(codesOf(await graphql(yoga, bob, 'query ($id: ID!) { webhook(id: $id) { url } }', { id: webhook?.id })), ['webhook_not_found'], "another account's webhook is not found");
  const removed = await graphql<{ deleteWebhook: { deleted: boolean } }>(yoga, alice, 'mutation ($id: ID!) { deleteWebhook(id: $id) { deleted } }', { id: webhook?.id });
  t.equal(removed.data?.deleteWebhook.deleted, true);
  t.same(codesOf(await graphql(yoga, alice, 'query ($id: ID!) { webhook(id: $id) { url } }', { id: webhook?.id })), ['webhook_not_found']);
});

t.test('bad filters, or another account\'s feed, create no webhook', async (t) => {
  const badJson = await graphql(yoga, alice, 'mutation { createWebhook(url: "https://hooks.example.test/in", filters: "{oops") { id } }');
  t.same(codesOf(badJson), ['validation_failed']);
  t.match(badJson.errors?.[0]?.message, /Expected `filters` to be JSON/);
  const foreign = await graphql(yoga, bob, 'mutation ($f: ID!) { createWebhook(url: "https://hooks.example.test/in", feeds: [$f]) { id } }', { f: feedId });
  t.same(codesOf(foreign), ['feed_not_found']);
  t.equal((await graphql<{ webhooks: { total: number } }>(yoga, bob, '{ webhooks { total } }')).data?.webhooks.total, 0);
});
