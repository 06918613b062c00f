import { createServer } from 'node:net';
import t from 'tap';
import { pino } from 'pino';
import {
  cassandraDependency,
  dependencyAlarm,
  reason,
  redisDependency,
  tcpReachable,
  untilReachable,
} from '../../src/main/dependencies.js';

/** A logger whose lines land in an array. */
function recorder(): { log: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

t.test('a dependency is named by the variable to fix and the address tried, never a password', async (t) => {
  t.same(redisDependency('redis://:hunter2@redis.internal:6380/0'), {
    name: 'Redis',
    variable: 'FEEDMILL_REDIS_URL',
    address: 'redis.internal:6380',
  });
  t.same(redisDependency('rediss://cache'), { name: 'Redis', variable: 'FEEDMILL_REDIS_URL', address: 'cache:6379' });
  t.same(cassandraDependency({ cassandraContactPoints: ['a', 'b:9043'] }), {
    name: 'Cassandra',
    variable: 'FEEDMILL_CASSANDRA_CONTACT_POINTS',
    address: 'a:9042,b:9043',
  });
});

t.test('start-up waits for an unreachable server with one line per try, then goes on', async (t) => {
  const { log, lines } = recorder();
  let tries = 0;
  const value = await untilReachable(
    redisDependency('redis://127.0.0.1:1'),
    async () => {
      tries += 1;
      if (tries < 3) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      return 'connected';
    },
    log,
    10,
  );
  t.equal(value, 'connected');
  const warnings = lines.filter((line) => line.level === 40);
  t.equal(warnings.length, 2, 'one line per failed try');
  t.match(warnings[0], {
    variable: 'FEEDMILL_REDIS_URL',
    address: '127.0.0.1:1',
    reason: 'ECONNREFUSED',
    msg: /cannot reach Redis at 127\.0\.0\.1:1 \(FEEDMILL_REDIS_URL\)/,
  });
  t.match(lines.at(-1), { level: 30, tries: 3 }, 'and one line when it answers');
});

t.test('connection errors while a server is away collapse into one line per interval, with a count', async (t) => {
  const { log, lines } = recorder();
  let now = 0;
  const alarm = dependencyAlarm(redisDependency('redis://10.0.0.9:6379'), log, () => now, 5_000);
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  for (let ms = 0; ms < 12_000; ms += 250) {
    now = ms;
    alarm(refused);
  }
  t.equal(lines.length, 3, '48 errors in 12 s make 3 lines');
  t.match(lines[1], { address: '10.0.0.9:6379', variable: 'FEEDMILL_REDIS_URL', moreErrors: 19 });
});

t.test('tcpReachable resolves for a listening port and rejects with the socket error otherwise', async (t) => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  await tcpReachable(`127.0.0.1:${port}`, 2_000);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.rejects(tcpReachable(`127.0.0.1:${port}`, 2_000), { code: 'ECONNREFUSED' });
});

t.test("the reason is one word where there is one, also for the Cassandra driver's error of every host", async (t) => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9999\n    at …'), { code: 'ECONNREFUSED' });
  t.equal(reason(refused), 'ECONNREFUSED');
  const noHost = Object.assign(new Error('All host(s) tried for query failed. First host tried, 127.0.0.1:9999: Error: …\n  errno: -111'), {
    name: 'NoHostAvailableError',
    innerErrors: { '127.0.0.1:9999': refused },
  });
  t.equal(reason(noHost), 'ECONNREFUSED');
  t.equal(reason(new Error('Keyspace missing\nmore')), 'Keyspace missing');
});
