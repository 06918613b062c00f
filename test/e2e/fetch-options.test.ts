import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually } from '../fixtures/eventually.js';
import { binaryEnv, runCommand, startFeedmill, type FeedmillProcess } from '../fixtures/feedmill-process.js';
import { callAs, startServiceAs, type Call } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';

// Fetch options (issue #27 point 5) through the binary over HTTPS: a source that wants an API key
// and a login is refused without them and read with them, and their secrets show up nowhere.
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-fetch-options-'));
const env = { ...(await binaryEnv(dataDir)), FEEDMILL_LOG_LEVEL: 'debug' };

const apiKey = 'APIKEY-e2e-7f3a91c0d2';
const password = 'PASSWORD-e2e-b84c22e1';
const basic = `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;
const secrets = [apiKey, password, basic.slice('Basic '.length)];

let allowed = 0;
const source = await startFixtureServer((request, response) => {
  if (request.headers['x-api-key'] !== apiKey || request.headers.authorization !== basic) {
    return void response.writeHead(401, { 'www-authenticate': 'Basic realm="feed"' }).end('who are you?');
  }
  allowed++;
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(
      `<rss version="2.0"><channel><title>Members only</title><link>${source.url}/</link><item><title>First</title><link>${source.url}/1</link><guid>urn:1</guid></item></channel></rss>`,
    );
});

const started = await startServiceAs(env, 'alice');
let service: FeedmillProcess = started.service;
const logs: string[] = [];
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const responses: string[] = [];
// To the process running now (the test restarts it), keeping every answer to search for secrets.
const callRunning = callAs(() => service, started.key.authorization);
const call: Call = async (method, path, body) => {
  const answer = await callRunning(method, path, body);
  responses.push(answer.text);
  return answer;
};
/** Our error body: `{ message, statusCode, errors: [{ title, code }] }`. */
const codeOf = (body: Record<string, unknown>): unknown => (body.errors as Array<{ code: string }> | undefined)?.[0]?.code;
const feedUrl = `${source.url}/feed.xml`;
const fetchOptions = { user_agent: 'MembersReader/2.0', headers: { 'X-Api-Key': apiKey }, basic_auth: { username: 'reader', password } };

t.test('without its key and login the source refuses, and the create says what to do', async (t) => {
  const refused = await call('POST', '/v1/feeds', { url: feedUrl });
  t.equal(refused.status, 402);
  t.equal(codeOf(refused.json), 'upstream_status');
  t.match(
    String(refused.json.message),
    /^The source answered HTTP 401 at http:\/\/127\.0\.0\.1:\d+\/feed\.xml; the source wants credentials or headers it was not sent: give them as the feed's `fetch` options \(docs\/fetch-options\.md\); nothing was created: check the address, and the `fetch` options the source needs \(docs\/fetch-options\.md\)$/,
  );
  const partial = await call('POST', '/v1/feeds', { url: feedUrl, fetch: { headers: { 'X-Api-Key': apiKey } } });
  t.equal(partial.status, 402, 'the key alone is not enough');
});

t.test('a bad option is a 400 naming its field, without quoting the secret', async (t) => {
  const host = await call('POST', '/v1/feeds', { url: feedUrl, fetch: { headers: { Host: 'evil.example' } } });
  t.equal(host.status, 400);
  t.equal(codeOf(host.json), 'validation_failed');
  t.match(
    String(host.json.message),
    /^Expected `fetch\.headers` to be header names among Accept, Accept-Language, Authorization, Cookie, Referer or X-…/,
  );
  const split = await call('POST', '/v1/feeds', { url: feedUrl, fetch: { headers: { 'X-Api-Key': `${apiKey}\r\nHost: elsewhere` } } });
  t.equal(split.status, 400);
  t.match(
    String(split.json.message),
    /^Expected `fetch\.headers\.X-Api-Key` to be printable ASCII without leading or trailing spaces, at most 4096 characters, got 38 characters$/,
  );
  t.notOk(split.text.includes(apiKey), 'the value refused is not quoted back');
  const both = await call('POST', '/v1/feeds', {
    url: feedUrl,
    fetch: { headers: { authorization: `Bearer ${apiKey}` }, basic_auth: { username: 'reader', password } },
  });
  t.equal(both.status, 400);
  t.equal(codeOf(both.json), 'validation_failed');
  t.match(
    String(both.json.message),
    /Expected `fetch\.headers\.authorization` to be absent when `basic_auth` is given \(both set `Authorization`\), got both/,
  );
  t.notOk(both.text.includes(apiKey));
});

let feedId = '';
t.test('with them the feed is created, and reads back without a secret in REST and GraphQL', async (t) => {
  const created = await call('POST', '/v1/feeds', { url: feedUrl, fetch: fetchOptions });
  t.equal(created.status, 200, created.text);
  feedId = String(created.json.id);
  t.equal((created.json.items as unknown[]).length, 1);
  const settings = await call('GET', `/v1/feeds/${feedId}/settings`);
  t.same(settings.json.fetch, { user_agent: 'MembersReader/2.0', header_names: ['X-Api-Key'], basic_auth_set: true });
  const graphql = await call('POST', '/graphql', {
    query: `{ feed(id: "${feedId}") { settings { fetch { userAgent headerNames basicAuthSet } } } }`,
  });
  t.same(graphql.json, {
    data: { feed: { settings: { fetch: { userAgent: 'MembersReader/2.0', headerNames: ['X-Api-Key'], basicAuthSet: true } } } },
  });
  const before = allowed;
  await eventually(
    30_000,
    async () => allowed > before,
    () => 'the scheduled refreshes send the options again',
  );
  t.equal((await call('GET', `/v1/feeds/${feedId}`)).json.title, 'Members only');
});

t.test('a changed secret key is a clear failure of the feed; sending the options again fixes it', async (t) => {
  logs.push(service.output());
  await service.stop();
  service = await startFeedmill({ ...env, FEEDMILL_SECRET_KEY: randomBytes(32).toString('base64') });
  await eventually(
    30_000,
    async () =>
      ((await call('GET', `/v1/feeds/${feedId}`)).json.status as { last_outcome: string }).last_outcome === 'fetch_options_unreadable',
    () => 'the next refresh fails with fetch_options_unreadable',
  );
  const status = (await call('GET', `/v1/feeds/${feedId}`)).json.status as { last_error: { code: string; message: string } };
  t.match(status.last_error, {
    code: 'fetch_options_unreadable',
    message: new RegExp(
      `^The fetch options of feed ${feedId} were sealed with another secret key than this server's; restore the key they were sealed with \\(FEEDMILL_SECRET_KEY, or \`secret\\.key\` in the data directory\\), or send the feed's \`fetch\` settings again \\(PATCH /v1/feeds/:id/settings\\) to seal them with the current key; feedmill will retry later$`,
    ),
  });
  const patched = await call('PATCH', `/v1/feeds/${feedId}/settings`, { fetch: fetchOptions });
  t.equal(patched.status, 200, patched.text);
  t.same(patched.json.fetch, { user_agent: 'MembersReader/2.0', header_names: ['X-Api-Key'], basic_auth_set: true });
  await eventually(
    30_000,
    async () => ((await call('GET', `/v1/feeds/${feedId}`)).json.status as { last_error: unknown }).last_error === null,
    () => 'refreshes succeed again with the options sealed anew',
  );
  const cleared = await call('PATCH', `/v1/feeds/${feedId}/settings`, { fetch: null });
  t.equal(cleared.json.fetch, null, 'null removes them');
  await call('PATCH', `/v1/feeds/${feedId}/settings`, { fetch: fetchOptions });
});

t.test('no secret in any response, log line, `feedmill config`, OPML export or file of the data directory', async (t) => {
  const opml = await call('GET', '/v1/opml');
  t.equal(opml.status, 200);
  const config = await runCommand(['config'], env);
  logs.push(service.output());
  t.match(logs.join(''), /"level":20/, 'the logs were written at debug');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(dataDir);
  t.ok(files.length > 0);
  const places: Array<[string, string]> = [
    ['responses', responses.join('\n')],
    ['logs', logs.join('\n')],
    ['feedmill config', config],
    ['OPML export', opml.text],
    ...files.map((file): [string, string] => [file, readFileSync(file).toString('latin1')]),
  ];
  for (const [where, text] of places) {
    for (const secret of secrets) t.notOk(text.includes(secret), `${where} does not hold ${secret.slice(0, 8)}…`);
  }
});
