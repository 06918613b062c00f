import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const app = await buildHttpApp(env.deps, { httpsOnly: false, version });
t.teardown(async () => {
  await app.close();
  await env.close();
});

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

t.test('the OpenAPI document is served without a key and matches the checked-in schema/openapi.json', async (t) => {
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  t.equal(response.statusCode, 200);
  const served = response.json<OpenApi>();
  const checkedIn = JSON.parse(readFileSync(join(repoRoot, 'schema', 'openapi.json'), 'utf8')) as OpenApi;
  t.same(served, checkedIn, 'run `npm run schema` after changing a route');
  t.equal(served.openapi, '3.1.0');
  t.equal((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode, 200);
});

t.test('every operation of the spec is documented once, with its security', async (t) => {
  const { paths } = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<OpenApi>();
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  for (const expected of [
    'POST /v1/feeds',
    'GET /v1/feeds',
    'GET /v1/feeds/{id}',
    'PATCH /v1/feeds/{id}',
    'DELETE /v1/feeds/{id}',
    'GET /v1/feeds/{id}/settings',
    'PATCH /v1/feeds/{id}/settings',
    'POST /v1/bundles',
    'GET /v1/bundles',
    'GET /v1/bundles/{id}',
    'PATCH /v1/bundles/{id}',
    'DELETE /v1/bundles/{id}',
    'PUT /v1/bundles/{id}/feeds/{feedId}',
    'DELETE /v1/bundles/{id}/feeds/{feedId}',
  ]) {
    t.ok(operations.includes(expected), expected);
  }
  t.notOk(
    operations.some((operation) => operation.includes('/api/v1') || operation.includes('/v1/feed/') || operation.includes('/bundled')),
    'variants are not repeated',
  );
  t.ok(paths['/v1/feeds']?.post?.security, 'API operations declare the bearer scheme');
  t.same(paths['/feeds/{file}']?.get?.security, [], 'hosted feeds need no key, and say so');
});

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; content?: Record<string, Media> }>;
}
interface Media {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: unknown;
}
interface Document {
  tags: { name: string; description: string }[];
  servers: { url: string }[];
  info: { license?: { name: string } };
  components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, Media> }> };
  paths: Record<string, Record<string, Operation>>;
}

const documented = async (): Promise<Document> => (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<Document>();
const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );

t.test('every operation has a camelCase operationId of its own, a summary, a description and a declared tag', async (t) => {
  const doc = await documented();
  const declared = new Set(doc.tags.map((tag) => tag.name));
  t.ok(
    doc.tags.every((tag) => tag.description.length > 0),
    'every tag is described',
  );
  const ids = new Set<string>();
  for (const { name, operation } of operationsOf(doc)) {
    t.match(operation.operationId, /^[a-z][A-Za-z]+$/, `${name} has a camelCase operationId`);
    t.notOk(ids.has(operation.operationId ?? ''), `${name}'s operationId is its own`);
    ids.add(operation.operationId ?? '');
    t.ok(operation.summary && operation.description, `${name} has a summary and a description`);
    t.ok(operation.tags?.length === 1 && declared.has(operation.tags[0] ?? ''), `${name} has one declared tag`);
    t.ok(Array.isArray(operation.security), `${name} states its security, [] when public`);
  }
  t.ok(ids.has('listFeeds') && ids.has('createFeed') && ids.has('getFeed'));
  t.equal(doc.info.license?.name, 'MIT');
  t.ok(doc.servers.length > 0, 'servers are listed');
});

t.test('the shapes are named components, referred to instead of repeated', async (t) => {
  const doc = await documented();
  for (const name of [
    'Feed',
    'FeedWithItems',
    'FeedItem',
    'Author',
    'FeedStatus',
    'FeedList',
    'FeedSettings',
    'ItemFilter',
    'Bundle',
    'BundleList',
    'BundleSettings',
    'DeletionResult',
    'Error',
    'Webhook',
    'WebhookList',
    'Delivery',
    'DeliveryList',
    'WebhookEvent',
    'OpmlImport',
  ]) {
    t.ok(name in doc.components.schemas, `${name} is a component`);
  }
  const media = (path: string, method: string, status: string) =>
    doc.paths[path]?.[method]?.responses[status]?.content?.['application/json'];
  t.same(media('/v1/feeds/{id}', 'get', '200')?.schema, { $ref: '#/components/schemas/FeedWithItems' });
  t.same(media('/v1/feeds', 'get', '200')?.schema, { $ref: '#/components/schemas/FeedList' });
  t.same(
    doc.paths['/v1/feeds/{id}']?.get?.responses['404'],
    { $ref: '#/components/responses/NotFound' },
    'an error answer is a named response',
  );
  t.same(doc.paths['/v1/webhooks']?.post?.requestBody?.content['application/json']?.schema, {
    $ref: '#/components/schemas/CreateWebhookRequest',
  });
  t.notMatch(
    JSON.stringify(doc.components.schemas.UpdateFeedSettingsRequest),
    /not_contains/,
    "a request's filters refer to ItemFilter rather than repeat it",
  );
});

t.test('every request body and every response body shows an example', async (t) => {
  const doc = await documented();
  const hasExample = (media: Media): boolean => media.example !== undefined || media.examples !== undefined;
  for (const [name, response] of Object.entries(doc.components.responses)) {
    t.ok(Object.values(response.content).every(hasExample), `the ${name} response`);
  }
  for (const { name, operation } of operationsOf(doc)) {
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) t.ok(hasExample(media), `${name} request ${type}`);
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) t.ok(hasExample(media), `${name} ${status} ${type}`);
    }
  }
});
