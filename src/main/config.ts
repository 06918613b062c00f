import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { namedRanges, parseTrustEntry, type TrustProxy } from '../http/trust-proxy.js';
import type { PlatformRule } from '../domain/platforms/platform-rule.js';
import { readPlatformRules } from '../domain/platforms/read-platform-rules.js';

/** Thrown when the environment holds a bad value; start-up stops with its message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Parse<T> = (raw: string) => T;

interface Setting<T> {
  env: string;
  /** The raw default, as a user would write it; undefined means "not set". */
  default: string | undefined;
  doc: string;
  parse: Parse<T>;
  /** A credential: readable from `{env}_FILE` (a mounted secret), and redacted by `feedmill config`. */
  secret: boolean;
}

const fail = (expected: string, raw: string): never => {
  throw new Error(`expected ${expected}, got \`${raw}\``);
};

const integer =
  (min: number, max: number): Parse<number> =>
  (raw) => {
    const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
    return Number.isSafeInteger(value) && value >= min && value <= max ? value : fail(`an integer from ${min} to ${max}`, raw);
  };
const boolean: Parse<boolean> = (raw) => {
  const text = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no', ''].includes(text)) return false;
  return fail('true or false', raw);
};
const text: Parse<string> = (raw) => raw;
const optionalText: Parse<string | undefined> = (raw) => (raw === '' ? undefined : raw);
const oneOf =
  <T extends string>(...values: T[]): Parse<T> =>
  (raw) =>
    (values as string[]).includes(raw) ? (raw as T) : fail(`one of ${values.join(', ')}`, raw);
const httpsUrl: Parse<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    return fail('an absolute https:// URL', raw);
  }
  return url.protocol === 'https:' ? url.href.replace(/\/+$/, '') : fail('an absolute https:// URL', raw);
};
const searchTemplate: Parse<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  const probe = raw.replaceAll('{keyword}', 'k').replaceAll('{country}', 'US').replaceAll('{lang}', 'en');
  let url: URL | undefined;
  try {
    url = new URL(probe);
  } catch {
    return fail('an http(s) URL template containing {keyword}', raw);
  }
  return /^https?:$/.test(url.protocol) && raw.includes('{keyword}') ? raw : fail('an http(s) URL template containing {keyword}', raw);
};
const list: Parse<string[]> = (raw) => {
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : fail('a comma-separated list', raw);
};
const keyspace: Parse<string> = (raw) =>
  /^[a-z][a-z0-9_]{0,47}$/.test(raw) ? raw : fail('lower-case letters, digits and _, starting with a letter', raw);
const redisUrl: Parse<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  return /^rediss?:\/\/./.test(raw) ? raw : fail('a redis:// or rediss:// URL', raw.replace(/:[^@/]*@/, ':***@'));
};
const base64Key: Parse<Buffer | undefined> = (raw) => {
  if (raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  return key.length === 32
    ? key
    : fail(
        'base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`)',
        raw.length > 12 ? `${raw.slice(0, 4)}… (${key.length} bytes)` : raw,
      );
};
/** Hops of trusted proxies a hop count may name; more than this is surely a mistake. */
const maxProxyHops = 16;
const trustProxy: Parse<TrustProxy> = (raw) => {
  const expected = `false, a hop count from 1 to ${maxProxyHops} (the proxies in front of the API) or a comma-separated list of proxy addresses and CIDRs (or ${Object.keys(namedRanges).join(', ')})`;
  const value = raw.trim();
  // `true` (trust every hop) would take the client address from the left-most X-Forwarded-For
  // entry, which the client writes itself; say how many proxies there are instead.
  if (value === 'false' || value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value) <= maxProxyHops ? Number(value) : fail(expected, raw);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every((entry) => parseTrustEntry(entry) !== null) ? entries : fail(expected, raw);
};
/** A JSON file of platform rules, read and checked at start-up (docs/discovery.md); its path kept for `feedmill config`. */
const platformRulesFile: Parse<{ file: string; rules: readonly PlatformRule[] } | undefined> = (raw) => {
  if (raw === '') return undefined;
  let text: string;
  try {
    text = readFileSync(raw, 'utf8');
  } catch (error) {
    return fail(`a readable JSON file of platform rules (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, raw);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`a JSON file of platform rules (${(error as Error).message})`, raw);
  }
  return { file: raw, rules: readPlatformRules(json, raw) };
};
/** `name=address,…`: host names the fetcher resolves to fixed addresses, before DNS. */
const staticHosts: Parse<ReadonlyMap<string, string[]> | undefined> = (raw) => {
  if (raw.trim() === '') return undefined;
  const hosts = new Map<string, string[]>();
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, address] = entry.split('=').map((part) => part.trim());
    if (!name || !address || isIP(address) === 0 || !/^[a-z0-9.-]+$/i.test(name)) {
      return fail('comma-separated `host=address` pairs with an IP address, e.g. `feeds.internal=10.0.0.5`', entry);
    }
    hosts.set(name.toLowerCase(), [...(hosts.get(name.toLowerCase()) ?? []), address]);
  }
  return hosts;
};
const optionalOneOf =
  <T extends string>(...values: T[]): Parse<T | undefined> =>
  (raw) =>
    raw === '' ? undefined : oneOf(...values)(raw);
const logLevel = oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent');

const setting = <T>(env: string, defaultValue: string | undefined, doc: string, parse: Parse<T>): Setting<T> => ({
  env,
  default: defaultValue,
  doc,
  parse,
  secret: false,
});
const secretSetting = <T>(env: string, doc: string, parse: Parse<T>): Setting<T> => ({
  env,
  default: undefined,
  doc: `${doc} Or \`${env}_FILE\`: a file holding it.`,
  parse,
  secret: true,
});

/** Every setting: one row each. docs/configuration.md's table is this table. */
export const settings = {
  port: setting('FEEDMILL_PORT', '8443', 'HTTPS port of the API.', integer(0, 65535)),
  metricsPort: setting(
    'FEEDMILL_METRICS_PORT',
    '9464',
    'Plain-HTTP port of /healthz, /readyz and /metrics for probes and Prometheus inside the cluster (every role); 0 turns it off.',
    integer(0, 65535),
  ),
  host: setting(
    'FEEDMILL_HOST',
    'localhost',
    'Address the API listens on; `localhost` listens on both 127.0.0.1 and ::1; `0.0.0.0` (or `::`) accepts connections from other machines.',
    text,
  ),
  dataDir: setting('FEEDMILL_DATA_DIR', './data', 'Directory of the embedded store and the generated TLS certificate.', text),
  publicUrl: setting(
    'FEEDMILL_PUBLIC_URL',
    undefined,
    'Base of every hosted address (`rss_feed_url`), and when set the contact named in the User-Agent sent to sources. Default `https://localhost:{FEEDMILL_PORT}`.',
    httpsUrl,
  ),
  tlsCert: setting(
    'FEEDMILL_TLS_CERT',
    undefined,
    'PEM certificate file. Without it (and the key) a self-signed pair is made in the data directory and reused.',
    optionalText,
  ),
  tlsKey: setting('FEEDMILL_TLS_KEY', undefined, 'PEM private key file; goes with `FEEDMILL_TLS_CERT`.', optionalText),
  trustProxy: setting(
    'FEEDMILL_TRUST_PROXY',
    'false',
    'TLS-terminating proxies trusted for `X-Forwarded-For` and `X-Forwarded-Proto`: `false`, a hop count (`1`: one proxy in front, and the API reachable only through it) or a comma-separated list of proxy addresses and CIDRs (`loopback`, `linklocal`, `uniquelocal` name the usual ranges). The client address is the first untrusted one from the right of `X-Forwarded-For`; requests a proxy received over plain HTTP get 403 `https_required`.',
    trustProxy,
  ),
  store: setting(
    'FEEDMILL_STORE',
    'embedded',
    'Storage engine: `embedded` (SQLite in the data directory, one process) or `cassandra` (FEEDMILL_CASSANDRA_*).',
    oneOf('embedded', 'cassandra'),
  ),
  cassandraContactPoints: setting(
    'FEEDMILL_CASSANDRA_CONTACT_POINTS',
    '127.0.0.1:9042',
    'Comma-separated `host` or `host:port` of Cassandra nodes (FEEDMILL_STORE=cassandra).',
    list,
  ),
  cassandraLocalDataCenter: setting('FEEDMILL_CASSANDRA_LOCAL_DATA_CENTER', 'datacenter1', 'The data centre the driver prefers.', text),
  cassandraKeyspace: setting(
    'FEEDMILL_CASSANDRA_KEYSPACE',
    'feedmill',
    'Keyspace; created (replication factor 1) by `feedmill migrate` when missing — create it yourself for production replication.',
    keyspace,
  ),
  cassandraUsername: setting(
    'FEEDMILL_CASSANDRA_USERNAME',
    undefined,
    'User for PasswordAuthenticator; unset for no authentication.',
    optionalText,
  ),
  cassandraPassword: secretSetting('FEEDMILL_CASSANDRA_PASSWORD', 'Password of FEEDMILL_CASSANDRA_USERNAME.', optionalText),
  cassandraConsistency: setting(
    'FEEDMILL_CASSANDRA_CONSISTENCY',
    'LOCAL_QUORUM',
    'Consistency of reads and writes (ONE, LOCAL_ONE, QUORUM, LOCAL_QUORUM, EACH_QUORUM, ALL).',
    oneOf('ONE', 'LOCAL_ONE', 'QUORUM', 'LOCAL_QUORUM', 'EACH_QUORUM', 'ALL'),
  ),
  redisUrl: secretSetting(
    'FEEDMILL_REDIS_URL',
    'Redis for cluster mode: when set, feed refreshes and webhook deliveries run on BullMQ, events travel on Redis pub/sub and rate limits are shared. Its password, if any, is part of it.',
    redisUrl,
  ),
  allowPrivateNetworks: setting(
    'FEEDMILL_ALLOW_PRIVATE_NETWORKS',
    'false',
    'Let sources live on loopback and private addresses (tests, self-hosted sources on your LAN).',
    boolean,
  ),
  pollMinInterval: setting(
    'FEEDMILL_POLL_MIN_INTERVAL',
    '300',
    'Shortest time between two refreshes of a feed, in seconds.',
    integer(1, 604_800),
  ),
  pollMaxInterval: setting(
    'FEEDMILL_POLL_MAX_INTERVAL',
    '21600',
    'Longest time between two refreshes of a feed, in seconds.',
    integer(1, 604_800),
  ),
  feedDisableAfter: setting(
    'FEEDMILL_FEED_DISABLE_AFTER',
    '604800',
    'A feed whose fetches have all failed for this many seconds is `disabled` and polled no more until resumed (`paused: false` or a refresh that succeeds); 7 days.',
    integer(60, 31_536_000),
  ),
  fetchTimeout: setting('FEEDMILL_FETCH_TIMEOUT', '15', 'Time one fetch of a source may take, in seconds.', integer(1, 300)),
  fetchMaxBytes: setting(
    'FEEDMILL_FETCH_MAX_BYTES',
    '20971520',
    'Largest source document, in bytes (after decompression).',
    integer(1024, 1_073_741_824),
  ),
  parseTimeout: setting(
    'FEEDMILL_PARSE_TIMEOUT',
    '10',
    'Time one parse may take in the pool, in seconds; past it the thread is stopped and only that feed fails.',
    integer(1, 300),
  ),
  parserThreads: setting(
    'FEEDMILL_PARSER_THREADS',
    String(Math.min(availableParallelism(), 256)),
    'Most threads of the parser pool: they start on the first parse and end after 30 s without one, so an idle process holds none. Default: the number of CPUs.',
    integer(1, 256),
  ),
  jobLockTimeout: setting(
    'FEEDMILL_JOB_LOCK_TIMEOUT',
    '30',
    "Cluster mode: how long a job stays claimed by a worker that stopped answering (killed, hung) before another worker runs it, in seconds; a killed worker's jobs resume within about twice this.",
    integer(2, 3600),
  ),
  fullTextPerHost: setting(
    'FEEDMILL_FULL_TEXT_PER_HOST',
    '2',
    'Full text: article pages fetched at once from one host, per process (docs/full-text.md).',
    integer(1, 100),
  ),
  fullTextHostPause: setting(
    'FEEDMILL_FULL_TEXT_HOST_PAUSE',
    '1000',
    'Full text: the pause after each article fetch before the next one from the same host, in milliseconds.',
    integer(0, 60_000),
  ),
  fullTextPerRefresh: setting(
    'FEEDMILL_FULL_TEXT_PER_REFRESH',
    '50',
    'Full text: new items of one refresh whose article pages are fetched; the rest keep their teasers (`full_text_status: skipped`).',
    integer(0, 10_000),
  ),
  fullTextMaxWait: setting(
    'FEEDMILL_FULL_TEXT_MAX_WAIT',
    '600',
    'Full text: how long a new item waits for its article before it is announced with its teaser (`failed`, `timeout`), in seconds.',
    integer(1, 86_400),
  ),
  refreshConcurrency: setting(
    'FEEDMILL_REFRESH_CONCURRENCY',
    '32',
    'Refreshes one process runs at once (and as many webhook deliveries, article fetches, and refreshes through the browser, which then wait for a browser page: FEEDMILL_RENDER_CONCURRENCY). A refresh mostly waits on its source, so a worker needs about refreshes per second × seconds a source takes to answer; each one running holds its document (at most FEEDMILL_FETCH_MAX_BYTES). See docs/capacity.md.',
    integer(1, 1000),
  ),
  render: setting(
    'FEEDMILL_RENDER',
    'on',
    '`on`: this process renders pages whose list a script builds, when it finds a browser; `off`: it never starts one (docs/rendering.md). In cluster mode, say which workers render.',
    oneOf('on', 'off'),
  ),
  chromiumPath: setting(
    'FEEDMILL_CHROMIUM_PATH',
    undefined,
    "The Chromium that renders pages (Debian's `chromium`); unset: `chromium` on the `PATH`. None found: rendering is off, said at start-up.",
    optionalText,
  ),
  renderConcurrency: setting(
    'FEEDMILL_RENDER_CONCURRENCY',
    '2',
    'Rendering: pages rendered at once by one process, each in a fresh browser context.',
    integer(1, 32),
  ),
  renderTimeout: setting(
    'FEEDMILL_RENDER_TIMEOUT',
    '20',
    "Rendering: one page's time budget, from navigation to its rendered HTML, in seconds.",
    integer(1, 300),
  ),
  renderMaxRequests: setting(
    'FEEDMILL_RENDER_MAX_REQUESTS',
    '100',
    'Rendering: requests one page may make besides its own document (scripts, styles, fetch/XHR, frames); the rest are refused.',
    integer(0, 10_000),
  ),
  renderMaxBytes: setting(
    'FEEDMILL_RENDER_MAX_BYTES',
    '10485760',
    'Rendering: bytes those requests of one page may bring in all; past it they are refused.',
    integer(0, 1024 ** 3),
  ),
  renderMaxPages: setting(
    'FEEDMILL_RENDER_MAX_PAGES',
    '100',
    'Rendering: the browser is started afresh after this many pages.',
    integer(1, 100_000),
  ),
  renderMaxMemory: setting(
    'FEEDMILL_RENDER_MAX_MEMORY',
    '1073741824',
    'Rendering: the browser is started afresh once its processes hold more resident memory than this, in bytes (checked after each page).',
    integer(64 * 1024 ** 2, 64 * 1024 ** 3),
  ),
  renderNoSandbox: setting(
    'FEEDMILL_RENDER_NO_SANDBOX',
    'false',
    "Rendering: `true` turns Chromium's own sandbox off. A container running as root needs it (Chromium refuses to start its sandbox as root); otherwise leave it off.",
    boolean,
  ),
  rateLimit: setting(
    'FEEDMILL_RATE_LIMIT',
    '600',
    'Requests one API key may make per window; past it, 429 with Retry-After.',
    integer(1, 1_000_000),
  ),
  rateLimitWindow: setting('FEEDMILL_RATE_LIMIT_WINDOW', '60', 'Length of the rate-limit window, in seconds.', integer(1, 86_400)),
  authFailureLimit: setting(
    'FEEDMILL_AUTH_FAILURE_LIMIT',
    '5',
    'Failed authentications a key id, or a client address, may make before each further attempt must wait (1 s, doubling with each failure up to 15 min); meanwhile it is answered 429 with Retry-After without checking the secret. Counted in Redis in cluster mode, per process otherwise.',
    integer(1, 1000),
  ),
  authEmailAddressLimit: setting(
    'FEEDMILL_AUTH_EMAIL_ADDRESS_LIMIT',
    '50',
    'Distinct client addresses whose failed sign-ins for one email are counted before every sign-in to that email, from anywhere, must wait (1 s, doubling with each further address up to 15 min). High, so that only an attack spread over many addresses can refuse a person their own password; failures from one address hold back that address alone (FEEDMILL_AUTH_FAILURE_LIMIT).',
    integer(1, 100_000),
  ),
  websubMaxSubscribers: setting(
    'FEEDMILL_WEBSUB_MAX_SUBSCRIBERS',
    '1000',
    'Live WebSub subscribers one hosted feed or bundle may have, all its formats together; past it a new subscription is refused with 409 `too_many_subscribers` (renewals still pass).',
    integer(1, 1_000_000),
  ),
  hstsMaxAge: setting(
    'FEEDMILL_HSTS_MAX_AGE',
    '31536000',
    'max-age of `Strict-Transport-Security` on every HTTPS response, in seconds; 0 tells browsers to forget it.',
    integer(0, 63_072_000),
  ),
  hstsIncludeSubdomains: setting(
    'FEEDMILL_HSTS_INCLUDE_SUBDOMAINS',
    'false',
    'Add `includeSubDomains` to `Strict-Transport-Security`: browsers then use HTTPS only for every subdomain of the public host too. Turn it on only when all of them serve HTTPS.',
    boolean,
  ),
  graphqlSubscriptionsPerConnection: setting(
    'FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_CONNECTION',
    '20',
    'Live GraphQL subscriptions one WebSocket (or SSE request) may hold; past it, `too_many_subscriptions`.',
    integer(1, 10_000),
  ),
  graphqlSubscriptionsPerAccount: setting(
    'FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_ACCOUNT',
    '100',
    'Live GraphQL subscriptions one account may hold across its connections, counted per API process; past it, `too_many_subscriptions`.',
    integer(1, 1_000_000),
  ),
  graphqlConnectionsPerKey: setting(
    'FEEDMILL_GRAPHQL_CONNECTIONS_PER_KEY',
    '20',
    'GraphQL WebSockets and SSE streams one API key may hold open, counted per API process; past it, WebSocket close 4429 or HTTP 429 `too_many_connections`.',
    integer(1, 100_000),
  ),
  eventStreamsPerAccount: setting(
    'FEEDMILL_EVENT_STREAMS_PER_ACCOUNT',
    '20',
    '`GET /v1/events` streams one account may hold open, counted per API process (each holds a connection and a bus listener); past it, HTTP 429 `too_many_connections`. Dashboard pages following live updates are capped by the same number, counted apart.',
    integer(1, 100_000),
  ),
  discoverTimeout: setting(
    'FEEDMILL_DISCOVER_TIMEOUT',
    '5',
    'Time `GET /v1/discover` spends fetching a page and confirming its candidates, in seconds; candidates not confirmed by then are listed unconfirmed.',
    integer(1, 60),
  ),
  platformRules: setting(
    'FEEDMILL_PLATFORM_RULES',
    undefined,
    "A JSON file of platform rules (page URL → the platform's own feeds) tried before the built-in ones; checked at start-up. See docs/discovery.md.",
    platformRulesFile,
  ),
  staticHosts: setting(
    'FEEDMILL_STATIC_HOSTS',
    undefined,
    'Host names that source fetches resolve to fixed addresses before DNS, like /etc/hosts: `name=address,…`. The address rule still applies to them. For split-horizon networks and tests.',
    staticHosts,
  ),
  keywordSearchUrl: setting(
    'FEEDMILL_KEYWORD_SEARCH_URL',
    undefined,
    "Upstream of keyword feeds: a URL template with `{keyword}`, `{country}` and `{lang}`. Default: Google News RSS search of the region's edition.",
    searchTemplate,
  ),
  secretKey: secretSetting(
    'FEEDMILL_SECRET_KEY',
    'Base64 of 32 random bytes that seal webhook signing secrets and the fetch options of feeds at rest. Default: made once in the data directory (`secret.key`); set it when several processes share a store.',
    base64Key,
  ),
  webhookTimeout: setting('FEEDMILL_WEBHOOK_TIMEOUT', '10', 'Time a webhook receiver has to answer, in seconds.', integer(1, 120)),
  webhookDisableAfter: setting(
    'FEEDMILL_WEBHOOK_DISABLE_AFTER',
    '259200',
    'A webhook whose deliveries have all failed for this many seconds is disabled (visibly).',
    integer(60, 31_536_000),
  ),
  sessionIdleTimeout: setting(
    'FEEDMILL_SESSION_IDLE_TIMEOUT',
    '86400',
    'A dashboard session unused for this many seconds is over; the person signs in again.',
    integer(60, 31_536_000),
  ),
  sessionMaxAge: setting(
    'FEEDMILL_SESSION_MAX_AGE',
    '1209600',
    'A dashboard session is over this many seconds after sign-in, however busy (14 days).',
    integer(60, 31_536_000),
  ),
  shutdownTimeout: setting(
    'FEEDMILL_SHUTDOWN_TIMEOUT',
    '25',
    'On SIGTERM, how long requests and jobs in flight may take to finish, in seconds.',
    integer(1, 600),
  ),
  logLevel: setting('FEEDMILL_LOG_LEVEL', 'info', 'One of fatal, error, warn, info, debug, trace, silent.', logLevel),
  logFormat: setting(
    'FEEDMILL_LOG_FORMAT',
    undefined,
    '`pretty` (one readable line per entry) or `json` (one JSON object per line, for log collectors). Default: `pretty` when standard output is a terminal, else `json`.',
    optionalOneOf('pretty', 'json'),
  ),
} as const;

type Settings = typeof settings;
export type Config = { readonly [K in keyof Settings]: ReturnType<Settings[K]['parse']> };

type Env = Readonly<Record<string, string | undefined>>;
const rows = (): [keyof Settings, Setting<unknown>][] => Object.entries(settings) as [keyof Settings, Setting<unknown>][];

/** Where a setting's value came from, as `feedmill config` shows it. */
export type Source = 'env' | 'file' | 'default' | 'unset';

/**
 * The raw text of a setting: its variable, else the file `{env}_FILE` names (a Kubernetes or
 * Docker secret mounted as a file; one final line break is not part of it), else the default.
 */
function rawValue(row: Setting<unknown>, env: Env, readFile: (path: string) => string): { raw: string | undefined; source: Source } {
  const file = row.secret ? env[`${row.env}_FILE`] : undefined;
  if (file !== undefined && file !== '') {
    if (env[row.env] !== undefined) throw new Error(`expected ${row.env} or ${row.env}_FILE, got both`);
    let text: string;
    try {
      text = readFile(file);
    } catch (error) {
      throw new Error(
        `expected ${row.env}_FILE to name a readable file, got \`${file}\` (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    return { raw: text.replace(/\r?\n$/, ''), source: 'file' };
  }
  if (env[row.env] !== undefined) return { raw: env[row.env], source: 'env' };
  return { raw: row.default, source: row.default === undefined ? 'unset' : 'default' };
}

const readText = (path: string): string => readFileSync(path, 'utf8');

/** Where each setting came from (after `loadConfig` accepted the same environment). */
export function configSources(env: Env, readFile: (path: string) => string = readText): Record<keyof Settings, Source> {
  return Object.fromEntries(rows().map(([name, row]) => [name, rawValue(row, env, readFile).source])) as Record<keyof Settings, Source>;
}

/**
 * Variables our own test, benchmark and CI scripts read (docs/development.md): not settings of the
 * service, but often exported in a developer's shell, so they are not reported as unknown.
 */
const toolVariable =
  /^FEEDMILL_(TEST|BENCH|REQUIRE)_|^FEEDMILL_(CORPUS_DIR|SHOW_MISSES|SCHEMATHESIS_ISOLATED|REDIS_PORT|CASSANDRA_(PORT|STORAGE_PORT|HEAP|START_TIMEOUT))$/;

/** Edit distance, to suggest the setting a misspelt variable meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * `FEEDMILL_*` variables that are no setting (a typo is otherwise silently ignored and the default
 * used), each with the closest setting's name when one is near.
 */
export function unknownVariables(env: Env): { name: string; suggestion?: string }[] {
  const known = new Set(rows().flatMap(([, row]) => (row.secret ? [row.env, `${row.env}_FILE`] : [row.env])));
  return Object.keys(env)
    .filter((name) => name.startsWith('FEEDMILL_') && !known.has(name) && !toolVariable.test(name))
    .sort()
    .map((name) => {
      const [best] = [...known].map((candidate) => ({ candidate, cost: distance(name, candidate) })).sort((a, b) => a.cost - b.cost);
      return best && best.cost <= 3 ? { name, suggestion: best.candidate } : { name };
    });
}

/** Reads and checks every setting once; all bad values are reported together. */
export function loadConfig(env: Env, readFile: (path: string) => string = readText): Config {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, row] of rows()) {
    try {
      const { raw } = rawValue(row, env, readFile);
      values[name] = raw === undefined ? undefined : row.parse(raw);
    } catch (error) {
      problems.push(`${row.env}: ${(error as Error).message}`);
    }
  }
  const config = values as Config;
  // A check between settings runs when both parsed (a failed one has no entry in `values`), so it
  // is reported together with the other problems instead of after they are fixed.
  const parsed = (...names: (keyof Settings)[]): boolean => names.every((name) => name in values);
  if (parsed('pollMinInterval', 'pollMaxInterval') && config.pollMinInterval > config.pollMaxInterval) {
    problems.push(
      `FEEDMILL_POLL_MIN_INTERVAL: expected at most FEEDMILL_POLL_MAX_INTERVAL (${config.pollMaxInterval}), got \`${config.pollMinInterval}\``,
    );
  }
  if (parsed('tlsCert', 'tlsKey') && (config.tlsCert === undefined) !== (config.tlsKey === undefined)) {
    problems.push('FEEDMILL_TLS_CERT and FEEDMILL_TLS_KEY: expected both or neither, got only one');
  }
  if (problems.length > 0) throw new ConfigError(`feedmill cannot start; fix these settings:\n  ${problems.join('\n  ')}`);
  return config;
}

/** `FEEDMILL_PUBLIC_URL`, or the address a local user reaches the API at. */
export const publicUrlOf = (config: Config): string => config.publicUrl ?? `https://localhost:${config.port}`;
