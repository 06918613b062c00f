import t from 'tap';
import { createUndiciFetcher } from '../../src/adapters/undici/fetcher.js';
import type { LookupAll } from '../../src/adapters/undici/guarded-connector.js';
import { createUndiciWebhookSender } from '../../src/adapters/undici/webhook-sender.js';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { buildHttpApp } from '../../src/http/app.js';
import { codesOf, graphql } from '../graphql/graphql-client.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A stub resolver: no test resolves a real host name. 93.184.216.34 stands for any public address.
const dnsTable: Record<string, string[]> = {
  'hooks.example.test': ['93.184.216.34'],
  'mixed.example.test': ['93.184.216.34', '10.0.0.7'],
};
const asked: string[] = [];
const lookup: LookupAll = async (hostname) => {
  asked.push(hostname);
  const addresses = dnsTable[hostname];
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

// The address rule as shipped (FEEDMILL_ALLOW_PRIVATE_NETWORKS unset), with the stub resolver.
const webhookSender = createUndiciWebhookSender({ lookup, timeoutMs: 2_000 });
const fetcher = createUndiciFetcher({ lookup, timeoutMs: 2_000 });
const env = createTestDeps({ webhookSender, fetcher });
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const yoga = createGraphqlServer(env.deps);
t.teardown(async () => {
  await app.close();
  await env.close();
  await webhookSender.close();
  await fetcher.close();
});

const authorization = await env.bearer('alice');
const alice = apiClient(app, authorization);

const refusedTargets = [
  'http://169.254.169.254/latest/meta-data/',
  'http://127.0.0.1:8080/hook',
  'http://[::1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'https://mixed.example.test/hook',
];

t.test('a webhook cannot be created for a target the address rule refuses', async (t) => {
  for (const url of refusedTargets) {
    const response = await alice.post('/v1/webhooks', { url });
    const { message } = assertError(t, response, 402, 'address_not_allowed');
    t.notMatch(message, /10\.0\.0\.7/, `${url}: the resolved addresses are not disclosed`);
  }
  t.equal((await alice.get('/v1/webhooks')).json<{ total: number }>().total, 0, 'none was stored');
});

t.test('a target with another scheme is refused before any address is looked at', async (t) => {
  asked.length = 0;
  const { message } = assertError(t, await alice.post('/v1/webhooks', { url: 'ftp://hooks.example.test/in' }), 400, 'invalid_url');
  t.match(message, /Expected `url` to be an absolute http or https URL/);
  t.same(asked, [], 'no lookup');
});

t.test('a webhook cannot be moved to a refused target, and keeps its own', async (t) => {
  const created = await alice.post('/v1/webhooks', { url: 'https://hooks.example.test/in' });
  t.equal(created.statusCode, 200, 'a name that resolves to public addresses only is accepted');
  const { id } = created.json<{ id: string }>();
  for (const url of refusedTargets) assertError(t, await alice.patch(`/v1/webhooks/${id}`, { url }), 402, 'address_not_allowed');
  assertError(t, await alice.patch(`/v1/webhooks/${id}`, { url: 'ftp://hooks.example.test/in' }), 400, 'invalid_url');
  t.equal((await alice.get(`/v1/webhooks/${id}`)).json<{ url: string }>().url, 'https://hooks.example.test/in');
});

t.test('a name that does not resolve yet is accepted; every send checks it again', async (t) => {
  const response = await alice.post('/v1/webhooks', { url: 'https://not-yet.example.test/in' });
  t.equal(response.statusCode, 200);
});

t.test('GraphQL webhook mutations apply the same rule', async (t) => {
  for (const url of [...refusedTargets, 'ftp://hooks.example.test/in']) {
    const expected = url.startsWith('ftp:') ? 'invalid_url' : 'address_not_allowed';
    const created = await graphql(yoga, authorization, 'mutation ($url: String!) { createWebhook(input: { url: $url }) { id } }', { url });
    t.same(codesOf(created), [expected], `create ${url}`);
  }
  const made = await graphql<{ createWebhook: { id: string } }>(
    yoga,
    authorization,
    'mutation { createWebhook(input: { url: "https://hooks.example.test/gql" }) { id } }',
  );
  const id = made.data?.createWebhook.id;
  t.ok(id, 'a public target is accepted');
  for (const url of refusedTargets) {
    const updated = await graphql(
      yoga,
      authorization,
      'mutation ($id: ID!, $url: String!) { updateWebhook(id: $id, input: { url: $url }) { id } }',
      { id, url },
    );
    t.same(codesOf(updated), ['address_not_allowed'], `update to ${url}`);
  }
});

t.test('a feed source whose name has one public and one private address is refused entirely', async (t) => {
  asked.length = 0;
  const response = await alice.post('/v1/feeds', { url: 'https://mixed.example.test/feed.xml' });
  const { message } = assertError(t, response, 402, 'address_not_allowed');
  t.match(message, /mixed\.example\.test resolves to a non-public address/);
  t.same(asked, ['mixed.example.test'], 'resolved once by the fetcher, never connected');
});
