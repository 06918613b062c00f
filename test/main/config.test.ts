import { availableParallelism } from 'node:os';
import t from 'tap';
import { ConfigError, loadConfig, publicUrlOf, settings } from '../../src/main/config.js';

/** The message start-up stops with, or undefined when the environment is accepted. */
function problemWith(env: Record<string, string | undefined>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

t.test('an empty environment starts with the documented defaults', async (t) => {
  const config = loadConfig({});
  t.same(config, {
    port: 8443,
    metricsPort: 9464,
    host: 'localhost',
    dataDir: './data',
    publicUrl: undefined,
    tlsCert: undefined,
    tlsKey: undefined,
    trustProxy: false,
    store: 'embedded',
    cassandraContactPoints: ['127.0.0.1:9042'],
    cassandraLocalDataCenter: 'datacenter1',
    cassandraKeyspace: 'feedmill',
    cassandraUsername: undefined,
    cassandraPassword: undefined,
    cassandraConsistency: 'LOCAL_QUORUM',
    redisUrl: undefined,
    allowPrivateNetworks: false,
    pollMinInterval: 300,
    pollMaxInterval: 21_600,
    fetchTimeout: 15,
    fetchMaxBytes: 20_971_520,
    parseTimeout: 10,
    parserThreads: Math.min(availableParallelism(), 256),
    jobLockTimeout: 30,
    fullTextPerHost: 2,
    fullTextHostPause: 1000,
    fullTextPerRefresh: 50,
    fullTextMaxWait: 600,
    refreshConcurrency: 32,
    render: 'on',
    chromiumPath: undefined,
    renderConcurrency: 2,
    renderTimeout: 20,
    renderMaxRequests: 100,
    renderMaxBytes: 10485760,
    renderMaxPages: 100,
    renderMaxMemory: 1073741824,
    renderNoSandbox: false,
    rateLimit: 600,
    authFailureLimit: 5,
    authEmailAddressLimit: 50,
    websubMaxSubscribers: 1000,
    hstsMaxAge: 31_536_000,
    hstsIncludeSubdomains: false,
    rateLimitWindow: 60,
    graphqlSubscriptionsPerConnection: 20,
    graphqlSubscriptionsPerAccount: 100,
    graphqlConnectionsPerKey: 20,
    eventStreamsPerAccount: 20,
    discoverTimeout: 5,
    platformRules: undefined,
    staticHosts: undefined,
    keywordSearchUrl: undefined,
    secretKey: undefined,
    webhookTimeout: 10,
    webhookDisableAfter: 259_200,
    feedDisableAfter: 604_800,
    sessionIdleTimeout: 86_400,
    sessionMaxAge: 1_209_600,
    shutdownTimeout: 25,
    logLevel: 'info',
  });
  t.equal(publicUrlOf(config), 'https://localhost:8443', 'hosted addresses point at the local API');
});

t.test('every setting is read from its variable', async (t) => {
  const config = loadConfig({
    FEEDMILL_PORT: '9443',
    FEEDMILL_DISCOVER_TIMEOUT: '7',
    FEEDMILL_METRICS_PORT: '9100',
    FEEDMILL_SHUTDOWN_TIMEOUT: '5',
    FEEDMILL_HOST: '0.0.0.0',
    FEEDMILL_DATA_DIR: '/var/lib/feedmill',
    FEEDMILL_PUBLIC_URL: 'https://feeds.example.org/',
    FEEDMILL_TLS_CERT: '/etc/tls/cert.pem',
    FEEDMILL_TLS_KEY: '/etc/tls/key.pem',
    FEEDMILL_TRUST_PROXY: '2',
    FEEDMILL_STORE: 'cassandra',
    FEEDMILL_CASSANDRA_CONTACT_POINTS: 'c1:9042, c2',
    FEEDMILL_CASSANDRA_LOCAL_DATA_CENTER: 'dc1',
    FEEDMILL_CASSANDRA_KEYSPACE: 'news',
    FEEDMILL_CASSANDRA_USERNAME: 'feedmill',
    FEEDMILL_CASSANDRA_PASSWORD: 'secret',
    FEEDMILL_CASSANDRA_CONSISTENCY: 'QUORUM',
    FEEDMILL_REDIS_URL: 'redis://:pw@redis:6379/0',
    FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'yes',
    FEEDMILL_POLL_MIN_INTERVAL: '60',
    FEEDMILL_POLL_MAX_INTERVAL: '3600',
    FEEDMILL_FETCH_TIMEOUT: '30',
    FEEDMILL_FETCH_MAX_BYTES: '1048576',
    FEEDMILL_PARSE_TIMEOUT: '5',
    FEEDMILL_PARSER_THREADS: '2',
    FEEDMILL_JOB_LOCK_TIMEOUT: '5',
    FEEDMILL_FULL_TEXT_PER_HOST: '3',
    FEEDMILL_FULL_TEXT_HOST_PAUSE: '250',
    FEEDMILL_FULL_TEXT_PER_REFRESH: '10',
    FEEDMILL_FULL_TEXT_MAX_WAIT: '60',
    FEEDMILL_RENDER: 'off',
    FEEDMILL_CHROMIUM_PATH: '/usr/bin/chromium',
    FEEDMILL_RENDER_CONCURRENCY: '3',
    FEEDMILL_RENDER_TIMEOUT: '30',
    FEEDMILL_RENDER_MAX_REQUESTS: '50',
    FEEDMILL_RENDER_MAX_BYTES: '1000000',
    FEEDMILL_RENDER_MAX_PAGES: '10',
    FEEDMILL_RENDER_MAX_MEMORY: '536870912',
    FEEDMILL_RENDER_NO_SANDBOX: 'true',
    FEEDMILL_REFRESH_CONCURRENCY: '16',
    FEEDMILL_RATE_LIMIT: '100',
    FEEDMILL_AUTH_FAILURE_LIMIT: '10',
    FEEDMILL_AUTH_EMAIL_ADDRESS_LIMIT: '200',
    FEEDMILL_WEBSUB_MAX_SUBSCRIBERS: '20',
    FEEDMILL_HSTS_MAX_AGE: '0',
    FEEDMILL_HSTS_INCLUDE_SUBDOMAINS: 'true',
    FEEDMILL_RATE_LIMIT_WINDOW: '10',
    FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_CONNECTION: '5',
    FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_ACCOUNT: '50',
    FEEDMILL_GRAPHQL_CONNECTIONS_PER_KEY: '4',
    FEEDMILL_EVENT_STREAMS_PER_ACCOUNT: '3',
    FEEDMILL_KEYWORD_SEARCH_URL: 'https://search.example.org/rss?q={keyword}&gl={country}&hl={lang}',
    FEEDMILL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    FEEDMILL_WEBHOOK_TIMEOUT: '5',
    FEEDMILL_WEBHOOK_DISABLE_AFTER: '3600',
    FEEDMILL_FEED_DISABLE_AFTER: '7200',
    FEEDMILL_SESSION_IDLE_TIMEOUT: '900',
    FEEDMILL_SESSION_MAX_AGE: '28800',
    FEEDMILL_LOG_LEVEL: 'debug',
  });
  t.same(config, {
    port: 9443,
    metricsPort: 9100,
    host: '0.0.0.0',
    dataDir: '/var/lib/feedmill',
    publicUrl: 'https://feeds.example.org',
    tlsCert: '/etc/tls/cert.pem',
    tlsKey: '/etc/tls/key.pem',
    trustProxy: 2,
    store: 'cassandra',
    cassandraContactPoints: ['c1:9042', 'c2'],
    cassandraLocalDataCenter: 'dc1',
    cassandraKeyspace: 'news',
    cassandraUsername: 'feedmill',
    cassandraPassword: 'secret',
    cassandraConsistency: 'QUORUM',
    redisUrl: 'redis://:pw@redis:6379/0',
    allowPrivateNetworks: true,
    pollMinInterval: 60,
    pollMaxInterval: 3600,
    fetchTimeout: 30,
    fetchMaxBytes: 1_048_576,
    parseTimeout: 5,
    parserThreads: 2,
    jobLockTimeout: 5,
    fullTextPerHost: 3,
    fullTextHostPause: 250,
    fullTextPerRefresh: 10,
    fullTextMaxWait: 60,
    render: 'off',
    chromiumPath: '/usr/bin/chromium',
    renderConcurrency: 3,
    renderTimeout: 30,
    renderMaxRequests: 50,
    renderMaxBytes: 1000000,
    renderMaxPages: 10,
    renderMaxMemory: 536870912,
    renderNoSandbox: true,
    refreshConcurrency: 16,
    rateLimit: 100,
    authFailureLimit: 10,
    authEmailAddressLimit: 200,
    websubMaxSubscribers: 20,
    hstsMaxAge: 0,
    hstsIncludeSubdomains: true,
    rateLimitWindow: 10,
    graphqlSubscriptionsPerConnection: 5,
    graphqlSubscriptionsPerAccount: 50,
    graphqlConnectionsPerKey: 4,
    eventStreamsPerAccount: 3,
    discoverTimeout: 7,
    platformRules: undefined,
    staticHosts: undefined,
    keywordSearchUrl: 'https://search.example.org/rss?q={keyword}&gl={country}&hl={lang}',
    secretKey: Buffer.alloc(32, 7),
    webhookTimeout: 5,
    webhookDisableAfter: 3600,
    feedDisableAfter: 7200,
    sessionIdleTimeout: 900,
    sessionMaxAge: 28_800,
    shutdownTimeout: 5,
    logLevel: 'debug',
  });
  t.equal(publicUrlOf(config), 'https://feeds.example.org', 'the public URL, without its trailing slash');
});

t.test('switches read the usual spellings of yes and no', async (t) => {
  for (const yes of ['true', 'TRUE', '1', 'yes', ' Yes '])
    t.equal(loadConfig({ FEEDMILL_ALLOW_PRIVATE_NETWORKS: yes }).allowPrivateNetworks, true, yes);
  for (const no of ['false', 'False', '0', 'no', ''])
    t.equal(loadConfig({ FEEDMILL_ALLOW_PRIVATE_NETWORKS: no }).allowPrivateNetworks, false, JSON.stringify(no));
});

t.test('proxy trust is off, a hop count or a list of proxy addresses and CIDRs', async (t) => {
  for (const off of ['false', '0', '']) t.equal(loadConfig({ FEEDMILL_TRUST_PROXY: off }).trustProxy, false, JSON.stringify(off));
  t.equal(loadConfig({ FEEDMILL_TRUST_PROXY: '1' }).trustProxy, 1);
  t.same(loadConfig({ FEEDMILL_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8, ::1, uniquelocal' }).trustProxy, [
    '10.0.0.0/8',
    '192.0.2.7',
    'fd00::/8',
    '::1',
    'uniquelocal',
  ]);
  const expected =
    'expected false, a hop count from 1 to 16 (the proxies in front of the API) or a comma-separated list of proxy addresses and CIDRs (or loopback, linklocal, uniquelocal)';
  for (const bad of [
    'true',
    'yes',
    '17',
    '-1',
    '10.0.0.0/33',
    '10.0.0/8',
    '10.0.0.0/8/1',
    'fd00::/129',
    'proxy.example.org',
    '10.0.0.1,',
    '1.5',
  ]) {
    t.match(problemWith({ FEEDMILL_TRUST_PROXY: bad }), `FEEDMILL_TRUST_PROXY: ${expected}, got \`${bad}\``, bad);
  }
});

t.test('an empty public URL or TLS path means "not set"', async (t) => {
  const config = loadConfig({ FEEDMILL_PUBLIC_URL: '', FEEDMILL_TLS_CERT: '', FEEDMILL_TLS_KEY: '' });
  t.equal(config.publicUrl, undefined);
  t.equal(config.tlsCert, undefined);
  t.equal(config.tlsKey, undefined);
});

t.test('a bad number names the variable, the range expected and the value that arrived', async (t) => {
  t.match(problemWith({ FEEDMILL_PORT: 'https' }), 'FEEDMILL_PORT: expected an integer from 0 to 65535, got `https`');
  t.match(problemWith({ FEEDMILL_PORT: '70000' }), 'FEEDMILL_PORT: expected an integer from 0 to 65535, got `70000`');
  t.match(problemWith({ FEEDMILL_PORT: '-1' }), 'FEEDMILL_PORT: expected an integer from 0 to 65535, got `-1`');
  t.match(problemWith({ FEEDMILL_PORT: '84.43' }), 'FEEDMILL_PORT: expected an integer from 0 to 65535, got `84.43`');
  t.match(problemWith({ FEEDMILL_PORT: '' }), 'FEEDMILL_PORT: expected an integer from 0 to 65535, got ``');
  t.match(problemWith({ FEEDMILL_POLL_MIN_INTERVAL: '0' }), 'FEEDMILL_POLL_MIN_INTERVAL: expected an integer from 1 to 604800, got `0`');
  t.match(
    problemWith({ FEEDMILL_FETCH_MAX_BYTES: '1e6' }),
    'FEEDMILL_FETCH_MAX_BYTES: expected an integer from 1024 to 1073741824, got `1e6`',
  );
  t.match(problemWith({ FEEDMILL_REFRESH_CONCURRENCY: '0' }), 'FEEDMILL_REFRESH_CONCURRENCY: expected an integer from 1 to 1000, got `0`');
  t.match(problemWith({ FEEDMILL_JOB_LOCK_TIMEOUT: '1' }), 'FEEDMILL_JOB_LOCK_TIMEOUT: expected an integer from 2 to 3600, got `1`');
});

t.test('a bad switch names the variable, what was expected and what arrived', async (t) => {
  t.match(problemWith({ FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'on' }), 'FEEDMILL_ALLOW_PRIVATE_NETWORKS: expected true or false, got `on`');
});

t.test('a value outside a fixed list names the choices', async (t) => {
  t.match(problemWith({ FEEDMILL_STORE: 'postgres' }), 'FEEDMILL_STORE: expected one of embedded, cassandra, got `postgres`');
  t.match(
    problemWith({ FEEDMILL_LOG_LEVEL: 'verbose' }),
    'FEEDMILL_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got `verbose`',
  );
  t.match(problemWith({ FEEDMILL_LOG_LEVEL: 'INFO' }), 'FEEDMILL_LOG_LEVEL: expected one of', 'levels are lower-case');
});

t.test('a public URL must be an absolute https URL', async (t) => {
  t.match(
    problemWith({ FEEDMILL_PUBLIC_URL: 'http://feeds.example.org' }),
    'FEEDMILL_PUBLIC_URL: expected an absolute https:// URL, got `http://feeds.example.org`',
  );
  t.match(
    problemWith({ FEEDMILL_PUBLIC_URL: 'feeds.example.org' }),
    'FEEDMILL_PUBLIC_URL: expected an absolute https:// URL, got `feeds.example.org`',
  );
  t.equal(loadConfig({ FEEDMILL_PUBLIC_URL: 'https://example.org/feedmill/' }).publicUrl, 'https://example.org/feedmill');
});

t.test('a minimum poll interval above the maximum is refused', async (t) => {
  t.match(
    problemWith({ FEEDMILL_POLL_MIN_INTERVAL: '7200', FEEDMILL_POLL_MAX_INTERVAL: '3600' }),
    'FEEDMILL_POLL_MIN_INTERVAL: expected at most FEEDMILL_POLL_MAX_INTERVAL (3600), got `7200`',
  );
  t.match(
    problemWith({ FEEDMILL_POLL_MAX_INTERVAL: '60' }),
    'FEEDMILL_POLL_MIN_INTERVAL: expected at most FEEDMILL_POLL_MAX_INTERVAL (60), got `300`',
    'the default minimum counts too',
  );
  t.equal(
    loadConfig({ FEEDMILL_POLL_MIN_INTERVAL: '600', FEEDMILL_POLL_MAX_INTERVAL: '600' }).pollMinInterval,
    600,
    'equal bounds are fine',
  );
});

t.test('a TLS certificate without its key, or a key without its certificate, is refused', async (t) => {
  t.match(
    problemWith({ FEEDMILL_TLS_CERT: '/etc/tls/cert.pem' }),
    'FEEDMILL_TLS_CERT and FEEDMILL_TLS_KEY: expected both or neither, got only one',
  );
  t.match(
    problemWith({ FEEDMILL_TLS_KEY: '/etc/tls/key.pem' }),
    'FEEDMILL_TLS_CERT and FEEDMILL_TLS_KEY: expected both or neither, got only one',
  );
  t.match(problemWith({ FEEDMILL_TLS_CERT: '/etc/tls/cert.pem', FEEDMILL_TLS_KEY: '' }), 'expected both or neither');
});

t.test('several problems are reported together, one line each', async (t) => {
  const message = problemWith({
    FEEDMILL_PORT: 'abc',
    FEEDMILL_LOG_LEVEL: 'loud',
    FEEDMILL_TRUST_PROXY: 'perhaps',
    FEEDMILL_TLS_CERT: '/etc/tls/cert.pem',
    FEEDMILL_POLL_MIN_INTERVAL: '7200',
    FEEDMILL_POLL_MAX_INTERVAL: '3600',
  });
  t.match(message, /^feedmill cannot start; fix these settings:\n/);
  const lines = (message ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim());
  t.same(lines.map((line) => line.split(':')[0]).sort(), [
    'FEEDMILL_LOG_LEVEL',
    'FEEDMILL_POLL_MIN_INTERVAL',
    'FEEDMILL_PORT',
    'FEEDMILL_TLS_CERT and FEEDMILL_TLS_KEY',
    'FEEDMILL_TRUST_PROXY',
  ]);
});

t.test('a problem with one interval does not hide a bad value elsewhere', async (t) => {
  const message = problemWith({ FEEDMILL_POLL_MIN_INTERVAL: 'soon', FEEDMILL_TLS_KEY: '/etc/tls/key.pem' });
  t.match(message, 'FEEDMILL_POLL_MIN_INTERVAL: expected an integer from 1 to 604800, got `soon`');
  t.match(message, 'FEEDMILL_TLS_CERT and FEEDMILL_TLS_KEY: expected both or neither');
  t.notMatch(message, 'expected at most', 'no comparison with a value that did not parse');
});

t.test('the error is a ConfigError so start-up can print it without a stack', async (t) => {
  t.throws(() => loadConfig({ FEEDMILL_PORT: 'x' }), ConfigError);
});

t.test('every setting has its own variable and a description', async (t) => {
  const rows = Object.values(settings);
  t.equal(new Set(rows.map((row) => row.env)).size, rows.length);
  for (const row of rows) {
    t.match(row.env, /^FEEDMILL_[A-Z_]+$/);
    t.ok(row.doc.length > 10, `${row.env} is documented`);
  }
});
