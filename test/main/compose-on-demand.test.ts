import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import t from 'tap';
import { composeRuntime } from '../../src/main/compose.js';
import { loadConfig } from '../../src/main/config.js';

// These libraries are CommonJS, so once anything imports them they sit in the require cache.
const loadedPackages = (): string[] => Object.keys(createRequire(import.meta.url).cache);
const isLoaded = (pkg: string): boolean => loadedPackages().some((file) => file.includes(`/node_modules/${pkg}/`));

t.test('an embedded process with no feed loads neither the browser library nor the cluster clients', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-on-demand-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    FEEDMILL_DATA_DIR: dataDir,
    // With a browser found the renderer is built: it must still not load playwright-core before a page needs it.
    ...(process.env.FEEDMILL_CHROMIUM_PATH ? { FEEDMILL_CHROMIUM_PATH: process.env.FEEDMILL_CHROMIUM_PATH } : {}),
  });
  const runtime = await composeRuntime(config, pino({ level: 'silent' }), 'all');
  t.teardown(() => runtime.close());
  t.equal(runtime.rendering().available, process.env.FEEDMILL_CHROMIUM_PATH !== undefined, 'a renderer when a browser is configured');
  for (const pkg of ['playwright-core', 'ioredis', 'bullmq', 'cassandra-driver']) t.notOk(isLoaded(pkg), `${pkg} is not loaded`);
  t.ok(isLoaded('better-sqlite3'), 'the check sees what is loaded: the embedded store is');
});
