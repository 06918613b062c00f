import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { freePort } from '../fixtures/feedmill-process.js';
import { repoRoot } from '../fixtures/repo-root.js';

const cli = join(repoRoot, 'dist', 'src', 'main', 'cli.js');
// The test environment's own FEEDMILL_TEST_* and the like stay out: each process sees only what a test gives it.
const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FEEDMILL_')));

interface Running {
  child: ChildProcess;
  lines(): Record<string, unknown>[];
}

function start(t: Test, role: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, [cli, role], {
    env: { ...clean, FEEDMILL_LOG_FORMAT: 'json', FEEDMILL_PARSER_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    lines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Polls `check` until it holds; the bound is generous (a loaded machine), and only a failure waits for it. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function healthcheck(env: Record<string, string>, args: string[] = []): Promise<{ code: number; text: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'healthcheck', ...args], { env: { ...clean, ...env } });
    return { code: 0, text: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, text: failed.stderr };
  }
}

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-startup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('one start-up summary line says what started, and healthcheck finds it healthy', async (t) => {
  const [port, probes] = [await freePort(), await freePort()];
  const env = {
    FEEDMILL_DATA_DIR: dataDir(t),
    FEEDMILL_PORT: String(port),
    FEEDMILL_METRICS_PORT: String(probes),
    FEEDMILL_HOST: '127.0.0.1',
    FEEDMILL_POLL_MIN_INTREVAL: '60',
  };
  const all = start(t, 'all', env);
  await until(() => all.lines().some((line) => /^feedmill .* started/.test(String(line.msg))), 'the summary line');
  const summaries = all.lines().filter((line) => /started/.test(String(line.msg)));
  t.equal(summaries.length, 1, 'exactly one summary line');
  t.match(summaries[0], {
    level: 30,
    version: /^\d+\.\d+\.\d+/,
    role: 'all',
    store: 'embedded',
    scheduler: 'in-process',
    dataDir: env.FEEDMILL_DATA_DIR,
    httpsPort: port,
    probesPort: probes,
    publicUrl: `https://localhost:${port}`,
    tls: 'self-signed, generated now',
  });
  t.match(
    all.lines().find((line) => line.level === 40),
    { msg: 'FEEDMILL_POLL_MIN_INTREVAL is not a feedmill setting and is ignored; did you mean FEEDMILL_POLL_MIN_INTERVAL?' },
    'a misspelt variable is warned about',
  );
  const healthy = await healthcheck(env);
  t.equal(healthy.code, 0, healthy.text);
  t.match(healthy.text, `healthy: http://127.0.0.1:${probes}/healthz answered 200`);
  const viaUrl = await healthcheck({}, ['--url', `https://127.0.0.1:${port}/readyz`]);
  t.equal(viaUrl.code, 0, `--url asks any address, as helm test does through the Service: ${viaUrl.text}`);
  const overHttps = await healthcheck({ ...env, FEEDMILL_METRICS_PORT: '0' }, ['--ready']);
  t.equal(overHttps.code, 0, `without the probe port it asks the HTTPS port: ${overHttps.text}`);

  // The chart's preStop hook: SIGUSR2, then a pause before SIGTERM.
  all.child.kill('SIGUSR2');
  await until(async () => (await fetch(`http://127.0.0.1:${probes}/readyz`)).status === 503, '/readyz to turn 503');
  t.equal((await healthcheck({ ...env, FEEDMILL_METRICS_PORT: '0' }, ['--ready'])).code, 1, 'draining: the HTTPS /readyz says 503 too');
  t.equal((await healthcheck({ ...env, FEEDMILL_METRICS_PORT: '0' })).code, 0, 'draining: requests are still served');
  t.equal(all.child.exitCode, null, 'and the process goes on until SIGTERM');
  all.child.kill('SIGTERM');
  await new Promise((resolve) => all.child.once('exit', resolve));

  const again = start(t, 'api', env);
  await until(() => again.lines().some((line) => /started/.test(String(line.msg))), 'the second summary line');
  t.match(
    again.lines().find((line) => /started/.test(String(line.msg))),
    { role: 'api', tls: 'self-signed, generated before' },
    'the certificate of the first run is reused, and said so',
  );
});

t.test('while Redis cannot be reached: one line per try naming the variable and address, probes up, not ready', async (t) => {
  const [deadRedis, probes] = [await freePort(), await freePort()];
  const env = {
    FEEDMILL_DATA_DIR: dataDir(t),
    FEEDMILL_REDIS_URL: `redis://:hunter2@127.0.0.1:${deadRedis}`,
    FEEDMILL_METRICS_PORT: String(probes),
    FEEDMILL_HOST: '127.0.0.1',
  };
  const worker = start(t, 'worker', env);
  const warnings = (): Record<string, unknown>[] => worker.lines().filter((line) => line.level === 40);
  await until(() => warnings().length >= 2, 'two warnings');
  t.match(warnings()[0], {
    variable: 'FEEDMILL_REDIS_URL',
    address: `127.0.0.1:${deadRedis}`,
    reason: 'ECONNREFUSED',
    msg: `cannot reach Redis at 127.0.0.1:${deadRedis} (FEEDMILL_REDIS_URL); trying again in 5 s`,
  });
  const healthz = await fetch(`http://127.0.0.1:${probes}/healthz`);
  t.equal(healthz.status, 200, 'alive: an orchestrator does not restart it in a loop');
  const readyz = await fetch(`http://127.0.0.1:${probes}/readyz`);
  t.equal(readyz.status, 503, 'not ready');
  t.equal((await healthcheck(env)).code, 0, 'healthcheck: alive');
  t.equal((await healthcheck(env, ['--ready'])).code, 1, 'healthcheck --ready: not ready');
  const seen = warnings().length;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  t.ok(warnings().length <= seen + 1, 'no burst of lines: at most one per try');
  t.notMatch(JSON.stringify(worker.lines()), 'hunter2', 'the password is never logged');
  worker.child.kill('SIGTERM');
  t.equal(await new Promise((resolve) => worker.child.once('exit', resolve)), 0, 'SIGTERM while waiting stops it at once');
});

t.test(
  'while Cassandra cannot be reached: the line names FEEDMILL_CASSANDRA_CONTACT_POINTS and the address, not ready meanwhile',
  async (t) => {
    const [deadCassandra, probes] = [await freePort(), await freePort()];
    const env = {
      FEEDMILL_DATA_DIR: dataDir(t),
      FEEDMILL_STORE: 'cassandra',
      FEEDMILL_CASSANDRA_CONTACT_POINTS: `127.0.0.1:${deadCassandra}`,
      FEEDMILL_METRICS_PORT: String(probes),
      FEEDMILL_HOST: '127.0.0.1',
    };
    const worker = start(t, 'worker', env);
    await until(() => worker.lines().some((line) => line.level === 40), 'a warning');
    t.match(
      worker.lines().find((line) => line.level === 40),
      {
        variable: 'FEEDMILL_CASSANDRA_CONTACT_POINTS',
        address: `127.0.0.1:${deadCassandra}`,
        reason: 'ECONNREFUSED',
        msg: `cannot reach Cassandra at 127.0.0.1:${deadCassandra} (FEEDMILL_CASSANDRA_CONTACT_POINTS); trying again in 5 s`,
      },
    );
    t.equal((await fetch(`http://127.0.0.1:${probes}/readyz`)).status, 503, 'not ready');
    worker.child.kill('SIGTERM');
    t.equal(await new Promise((resolve) => worker.child.once('exit', resolve)), 0);
  },
);
