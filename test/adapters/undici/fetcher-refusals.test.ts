import t from 'tap';
import { isPublicAddress } from '../../../src/adapters/undici/address-policy.js';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';
import { startFixtureServer } from '../../fixtures/http-fixture.js';

/** A fixture that counts the requests that reached it. */
async function countingFixture(body = '<rss/>') {
  const hits: string[] = [];
  const server = await startFixtureServer((req, res) => {
    hits.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    res.end(body);
  });
  return { ...server, hits, port: new URL(server.url).port };
}

/** The real address rule, plus exactly the fixture's own address: it stands in for a public server. */
const publicOrFixture = (address: string): boolean => address === '127.0.0.1' || isPublicAddress(address);

function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

t.test('loopback in every spelling is refused and nothing reaches the server', async (t) => {
  const fixture = await countingFixture();
  t.teardown(fixture.close);
  const fetcher = createUndiciFetcher({ timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const spellings = [
    `http://127.0.0.1:${fixture.port}/feed.xml`,
    `http://localhost:${fixture.port}/feed.xml`,
    `http://[::1]:${fixture.port}/feed.xml`,
    `http://0x7f000001:${fixture.port}/feed.xml`,
    `http://2130706433:${fixture.port}/feed.xml`,
    `http://[::ffff:127.0.0.1]:${fixture.port}/feed.xml`,
    `http://[::ffff:7f00:1]:${fixture.port}/feed.xml`,
    `http://0.0.0.0:${fixture.port}/feed.xml`,
  ];
  for (const url of spellings) {
    await t.rejects(fetcher.fetch({ url }), { code: 'address_not_allowed' }, url);
  }
  t.same(fixture.hits, [], 'the fixture saw no request');
});

t.test('the same server is reachable once private networks are allowed', async (t) => {
  const fixture = await countingFixture('hello');
  t.teardown(fixture.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const result = await fetcher.fetch({ url: `http://localhost:${fixture.port}/feed.xml` });
  t.equal(result.status, 200);
  t.equal(fixture.hits.length, 1);
});

t.test('the cloud metadata address is refused without a connection attempt', async (t) => {
  const fetcher = createUndiciFetcher({ timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const error = await fetcher.fetch({ url: 'http://169.254.169.254/latest/meta-data/' }).catch((e: unknown) => e);
  t.match(error, { code: 'address_not_allowed', message: /169\.254\.169\.254 is in the link-local range/ });
});

t.test('a public-looking name that resolves to loopback is refused after DNS', async (t) => {
  const fixture = await countingFixture();
  t.teardown(fixture.close);
  const dns = fakeDns({ 'feeds.example.test': ['127.0.0.1'] });
  const fetcher = createUndiciFetcher({ lookup: dns.lookup, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const error = await fetcher.fetch({ url: `http://feeds.example.test:${fixture.port}/` }).catch((e: unknown) => e);
  t.match(error, { code: 'address_not_allowed', message: /feeds\.example\.test resolves to a non-public address/ });
  t.notMatch((error as Error).message, /127\.0\.0\.1/, 'the resolved address is not disclosed');
  t.same(dns.asked, ['feeds.example.test'], 'the name was resolved by the fetcher');
  t.same(fixture.hits, []);
});

t.test('the connection goes to the address the fetcher resolved and checked', async (t) => {
  const fixture = await countingFixture('via checked address');
  t.teardown(fixture.close);
  // feeds.example.test exists in no real DNS: success proves the socket went to the looked-up address.
  const dns = fakeDns({ 'feeds.example.test': ['127.0.0.1'] });
  const allowedAsked: string[] = [];
  const fetcher = createUndiciFetcher({
    lookup: dns.lookup,
    isAddressAllowed: (address) => (allowedAsked.push(address), publicOrFixture(address)),
    timeoutMs: 2000,
  });
  t.teardown(() => fetcher.close());
  const result = await fetcher.fetch({ url: `http://feeds.example.test:${fixture.port}/feed.xml` });
  t.equal(result.status, 200);
  t.equal(result.status === 200 && Buffer.from(result.body).toString(), 'via checked address');
  t.same(allowedAsked, ['127.0.0.1'], 'the resolved address was checked');
  t.same(fixture.hits, [`feeds.example.test:${fixture.port}/feed.xml`], 'the Host header keeps the name');
});

t.test('a name with one allowed and one refused address is refused entirely', async (t) => {
  const fixture = await countingFixture();
  t.teardown(fixture.close);
  // The fixture address stands in for the public one; the DNS owner could make it fail at will.
  const dns = fakeDns({ 'feeds.example.test': ['127.0.0.1', '10.0.0.7'] });
  const fetcher = createUndiciFetcher({ lookup: dns.lookup, isAddressAllowed: publicOrFixture, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const error = await fetcher.fetch({ url: `http://feeds.example.test:${fixture.port}/feed.xml` }).catch((e: unknown) => e);
  t.match(error, { code: 'address_not_allowed', message: /feeds\.example\.test resolves to a non-public address/ });
  t.notMatch((error as Error).message, /10\.0\.0\.7/, 'the resolved addresses are not disclosed');
  t.same(fixture.hits, [], 'not even the allowed address was reached');
});

t.test('a redirect to a private address is refused on that hop', async (t) => {
  const internal = await countingFixture('internal secret');
  t.teardown(internal.close);
  const entry = await startFixtureServer((_req, res) => {
    res.writeHead(302, { location: `http://internal.example.test:${internal.port}/secret` }).end();
  });
  t.teardown(entry.close);
  const entryPort = new URL(entry.url).port;
  // The entry hop resolves to the fixture address (allowed); the next one to mapped loopback (refused).
  const dns = fakeDns({ 'feeds.example.test': ['127.0.0.1'], 'internal.example.test': ['::ffff:127.0.0.1'] });

  const guarded = createUndiciFetcher({ lookup: dns.lookup, isAddressAllowed: publicOrFixture, timeoutMs: 2000 });
  t.teardown(() => guarded.close());
  await t.rejects(guarded.fetch({ url: `http://feeds.example.test:${entryPort}/feed` }), { code: 'address_not_allowed' });
  t.same(dns.asked, ['feeds.example.test', 'internal.example.test'], 'the redirect target was resolved and checked');
  t.same(internal.hits, [], 'the private server saw no request');

  // Control: with the rule lifted the same chain does reach the private server.
  const open = createUndiciFetcher({ lookup: dns.lookup, allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => open.close());
  const reached = await open.fetch({ url: `http://feeds.example.test:${entryPort}/feed` });
  t.equal(reached.status === 200 && Buffer.from(reached.body).toString(), 'internal secret');
});

t.test('a redirect to the metadata address is refused', async (t) => {
  const entry = await startFixtureServer((_req, res) => {
    res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
  });
  t.teardown(entry.close);
  const fetcher = createUndiciFetcher({ isAddressAllowed: publicOrFixture, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  await t.rejects(fetcher.fetch({ url: `${entry.url}/feed` }), { code: 'address_not_allowed' });
});
