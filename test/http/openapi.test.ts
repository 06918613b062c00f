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
  const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
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
  t.notOk(operations.some((operation) => operation.includes('/api/v1') || operation.includes('/v1/feed/') || operation.includes('/bundled')), 'variants are not repeated');
  t.ok(paths['/v1/feeds']?.post?.security, 'API operations declare the bearer scheme');
  t.notOk(paths['/feeds/{file}']?.get?.security, 'hosted feeds need no key');
});
