import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually } from '../fixtures/eventually.js';
import { binaryEnv, freePort } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';

// The binary over HTTPS, polling a source on 127.0.0.1 every second or two (issue #14's "done means").
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-health-'));
const metricsPort = await freePort();
const env = await binaryEnv(dataDir, { metricsPort });
let failing = false;
const source = await startFixtureServer((_request, response) => {
  if (failing) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('down for maintenance');
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end('<rss version="2.0"><channel><title>Flaky</title><item><title>One</title><guid>urn:one</guid></item></channel></rss>');
});
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Status {
  state: string;
  consecutive_errors: number;
  last_outcome: string | null;
  last_error: { code: string; message: string } | null;
}

const created = await call('POST', '/v1/feeds', { url: `${source.url}/feed.xml` });
const feedId = (JSON.parse(created.text) as { id: string }).id;

const restStatus = async (): Promise<Status> => ((await call('GET', `/v1/feeds/${feedId}`)).json as { status: Status }).status;
/** The same status over GraphQL, in its names. */
interface GraphqlStatus {
  state: string;
  consecutiveErrors: number;
  lastOutcome: string | null;
  lastError: { code: string; message: string } | null;
}
const graphqlStatus = async (): Promise<GraphqlStatus> => {
  const response = await call('POST', '/graphql', {
    query: 'query ($id: ID!) { feed(id: $id) { status { state consecutiveErrors lastOutcome lastError { code message } } } }',
    variables: { id: feedId },
  });
  return (JSON.parse(response.text) as { data: { feed: { status: GraphqlStatus } } }).data.feed.status;
};
const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
const sample = (exposition: string, series: string): number => {
  const line = exposition.split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

let seen: Status | undefined;
t.test('a source that starts answering 500 shows failing, with consecutive errors growing, in REST', async (t) => {
  t.equal(created.status, 200, created.text);
  t.equal((JSON.parse(created.text) as { status: Status }).status.state, 'active');
  failing = true;
  await eventually(
    60_000,
    async () => (seen = await restStatus()).consecutive_errors >= 2,
    () => `REST status: ${JSON.stringify(seen)}`,
  );
  const status = await restStatus();
  t.match(status, { state: 'failing', last_outcome: 'upstream_status', last_error: { code: 'upstream_status' } });
  const later = status.consecutive_errors;
  await eventually(
    60_000,
    async () => (await restStatus()).consecutive_errors > later,
    () => 'the error count stopped growing',
  );
});

t.test('GraphQL shows the same status', async (t) => {
  const status = await graphqlStatus();
  t.match(status, { state: 'FAILING', lastOutcome: 'upstream_status', lastError: { code: 'upstream_status' } });
  t.ok(status.consecutiveErrors >= 3);
  t.match(status.lastError?.message, /500/);
});

t.test('/metrics counts the feed as failing and its failed fetches under its host', async (t) => {
  let exposition = '';
  await eventually(
    60_000,
    async () => sample((exposition = await scrape()), 'feedmill_feeds{state="failing",role="all"}') === 1,
    () =>
      exposition
        .split('\n')
        .filter((line) => line.startsWith('feedmill_feeds'))
        .join('\n'),
  );
  t.equal(sample(exposition, 'feedmill_feeds{state="active",role="all"}'), 0);
  t.ok(
    sample(exposition, 'feedmill_fetches_total{host="127.0.0.1",outcome="upstream_status",role="all"}') >= 3,
    'failed fetches by host and outcome',
  );
});

t.test('once the source answers again the feed recovers to active everywhere', async (t) => {
  failing = false;
  await eventually(
    60_000,
    async () => (seen = await restStatus()).state === 'active',
    () => `REST status: ${JSON.stringify(seen)}`,
  );
  t.match(await restStatus(), { consecutive_errors: 0, last_error: null });
  t.match(await graphqlStatus(), { state: 'ACTIVE', consecutiveErrors: 0, lastError: null });
  let exposition = '';
  await eventually(
    60_000,
    async () => sample((exposition = await scrape()), 'feedmill_feeds{state="active",role="all"}') === 1,
    () =>
      exposition
        .split('\n')
        .filter((line) => line.startsWith('feedmill_feeds'))
        .join('\n'),
  );
  t.equal(sample(exposition, 'feedmill_feeds{state="failing",role="all"}'), 0);
  t.ok(
    sample(exposition, 'feedmill_fetches_total{host="127.0.0.1",outcome="unchanged",role="all"}') >= 1,
    'the successful fetch is counted too',
  );
});
