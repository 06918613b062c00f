import fc from 'fast-check';
import t from 'tap';
import { createUndiciFetcher } from '../../src/adapters/undici/fetcher.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Whatever arrives, the API answers in its error shape and never with a 5xx. Sources resolve to
// nothing here, so arbitrary URLs in bodies never leave the machine.
const offline = createUndiciFetcher({
  allowPrivateNetworks: false,
  timeoutMs: 2_000,
  lookup: () => Promise.reject(Object.assign(new Error('offline test'), { code: 'ENOTFOUND' })),
});
const env = createTestDeps({ fetcher: offline });
const app = await buildHttpApp(env.deps, { httpsOnly: false, rateLimit: { max: 1_000_000, windowMs: 60_000 } });
const source = await startRssSource(1);
t.teardown(async () => {
  await app.close();
  await offline.close();
  await source.close();
  await env.close();
});

const authorization = await env.bearer('alice');
// Real resources, so routes get past "not found" into their validation and use cases.
const online = createUndiciFetcher({ allowPrivateNetworks: true });
const seedApp = await buildHttpApp({ ...env.deps, fetcher: online }, { httpsOnly: false });
const feedId = (
  await seedApp.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization, 'content-type': 'application/json' },
    payload: { url: source.url },
  })
).json<{ id: string }>().id;
const bundleId = (
  await app.inject({
    method: 'POST',
    url: '/v1/bundles',
    headers: { authorization, 'content-type': 'application/json' },
    payload: { name: 'b', feeds: [feedId] },
  })
).json<{ id: string }>().id;
await seedApp.close();
await online.close();
t.match(feedId, /^[A-Za-z0-9_-]{16}$/, 'a real feed to aim at');
t.match(bundleId, /^_[A-Za-z0-9_-]{16}$/, 'a real bundle to aim at');

const routes: [method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string][] = [
  ['POST', '/v1/feeds'],
  ['GET', '/v1/feeds'],
  ['GET', `/v1/feeds/${feedId}`],
  ['PATCH', `/v1/feeds/${feedId}`],
  ['GET', `/v1/feeds/${feedId}/settings`],
  ['PATCH', `/v1/feeds/${feedId}/settings`],
  ['POST', '/v1/bundles'],
  ['GET', '/v1/bundles'],
  ['GET', `/v1/bundles/${bundleId}`],
  ['PATCH', `/v1/bundles/${bundleId}`],
  ['PUT', `/v1/bundles/${bundleId}/feeds/${feedId}`],
  ['DELETE', '/v1/bundles/nope'],
  ['DELETE', '/v1/feeds/nope'],
  ['GET', '/feeds/nope.xml'],
];

const fieldNames = [
  'url',
  'keyword',
  'region',
  'title',
  'description',
  'icon',
  'name',
  'feeds',
  'customAuthor',
  'sort',
  'limit',
  'offset',
  '$limit',
  '$offset',
];
const key = fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 12 }));
const body = fc.oneof(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), fc.jsonValue({ maxDepth: 3 }));
const rawBody = fc.oneof(
  body.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 60 }),
);
const query = fc.dictionary(key, fc.oneof(fc.string({ maxLength: 10 }), fc.integer().map(String)), { maxKeys: 4 });

t.test('any query and any body: never a 5xx, always our error shape with statusCode equal to the status', async (t) => {
  for (const [method, path] of routes) {
    await fc.assert(
      fc.asyncProperty(query, rawBody, fc.boolean(), async (params, payload, json) => {
        const search = new URLSearchParams(params).toString();
        const response = await app.inject({
          method,
          url: search ? `${path}?${search}` : path,
          headers: {
            authorization,
            ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': json ? 'application/json' : 'text/plain' }),
          },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload }),
        });
        if (response.statusCode >= 500) throw new Error(`${method} ${path} answered ${response.statusCode}: ${response.body}`);
        if (response.statusCode >= 400) {
          const error = response.json<{ message: unknown; statusCode: unknown; errors: { title: unknown; code: unknown }[] }>();
          if (
            typeof error.message !== 'string' ||
            error.statusCode !== response.statusCode ||
            !Array.isArray(error.errors) ||
            typeof error.errors[0]?.code !== 'string'
          ) {
            throw new Error(`${method} ${path} answered ${response.statusCode} outside the error shape: ${response.body}`);
          }
        }
      }),
      { numRuns: 60 },
    );
    t.pass(`${method} ${path}`);
  }
});
