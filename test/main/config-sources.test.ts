import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { configCommand } from '../../src/main/config-command.js';
import { configSources, loadConfig, settings, unknownVariables } from '../../src/main/config.js';

const key = Buffer.alloc(32, 7).toString('base64');

t.test('a secret can come from the file its _FILE variable names', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-config-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'key'), `${key}\n`);
  writeFileSync(join(dir, 'password'), 'p@ss word');
  const env = { FEEDMILL_SECRET_KEY_FILE: join(dir, 'key'), FEEDMILL_CASSANDRA_PASSWORD_FILE: join(dir, 'password') };
  const config = loadConfig(env);
  t.same(config.secretKey, Buffer.alloc(32, 7), 'the final line break is not part of the value');
  t.equal(config.cassandraPassword, 'p@ss word');
  t.match(configSources(env), { secretKey: 'file', cassandraPassword: 'file', port: 'default', publicUrl: 'unset' });
  t.throws(
    () => loadConfig({ ...env, FEEDMILL_SECRET_KEY: key }),
    /FEEDMILL_SECRET_KEY: expected FEEDMILL_SECRET_KEY or FEEDMILL_SECRET_KEY_FILE, got both/,
  );
  t.throws(
    () => loadConfig({ FEEDMILL_REDIS_URL_FILE: join(dir, 'missing') }),
    /FEEDMILL_REDIS_URL: expected FEEDMILL_REDIS_URL_FILE to name a readable file, got `.*missing` \(ENOENT\)/,
  );
});

t.test('only secrets have a _FILE variant', async (t) => {
  const secrets = Object.values(settings)
    .filter((row) => row.secret)
    .map((row) => row.env);
  t.same(secrets.sort(), ['FEEDMILL_CASSANDRA_PASSWORD', 'FEEDMILL_REDIS_URL', 'FEEDMILL_SECRET_KEY']);
  t.same(unknownVariables({ FEEDMILL_PORT_FILE: '/x' }), [{ name: 'FEEDMILL_PORT_FILE' }], 'FEEDMILL_PORT_FILE is not read, and said so');
});

t.test('an unknown FEEDMILL_ variable is reported, with the setting it probably meant', async (t) => {
  t.same(
    unknownVariables({
      FEEDMILL_POL_MIN_INTERVAL: '5',
      FEEDMILL_PORT: '1',
      FEEDMILL_FROBNICATE: 'yes',
      FEEDMILL_SECRET_KEY_FILE: '/k',
      FEEDMILL_TEST_REDIS_URL: 'redis://x',
      HOME: '/',
    }),
    [{ name: 'FEEDMILL_FROBNICATE' }, { name: 'FEEDMILL_POL_MIN_INTERVAL', suggestion: 'FEEDMILL_POLL_MIN_INTERVAL' }],
  );
});

t.test('feedmill config prints every setting with where it came from, secrets redacted', async (t) => {
  const env = {
    FEEDMILL_SECRET_KEY: key,
    FEEDMILL_REDIS_URL: 'redis://:hunter2@redis.internal:6380',
    FEEDMILL_CASSANDRA_PASSWORD: 'cassword',
    FEEDMILL_PORT: '9443',
  };
  const lines: string[] = [];
  configCommand([], loadConfig(env), env, (line) => lines.push(line));
  const text = lines.join('\n');
  t.equal(lines.length, Object.keys(settings).length, 'one line per setting');
  for (const secret of [key, 'hunter2', 'cassword']) t.notMatch(text, secret, 'no secret is printed');
  t.match(text, /^FEEDMILL_PORT +9443 {2}\[env\]$/m);
  t.match(text, /^FEEDMILL_METRICS_PORT +9464$/m, 'a default carries no source mark');
  t.match(text, /^FEEDMILL_REDIS_URL +redis:\/\/\[redacted\]@redis\.internal:6380 {2}\[env\]$/m, 'the Redis address stays readable');
  t.match(text, /^FEEDMILL_SECRET_KEY +\[redacted\] {2}\[env\]$/m);
  t.match(text, /^FEEDMILL_PUBLIC_URL +\(unset\)$/m);
  const json: string[] = [];
  configCommand(['--json'], loadConfig(env), env, (line) => json.push(line));
  t.match(JSON.parse(json.join('\n')), {
    FEEDMILL_PORT: { value: '9443', source: 'env' },
    FEEDMILL_CASSANDRA_PASSWORD: { value: '[redacted]', source: 'env' },
  });
});
