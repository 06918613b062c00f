import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { printSortedSchema } from '../graphql/schema.js';
import { buildHttpApp } from '../http/app.js';
import { WebhookEvent } from '../http/schemas/webhook-event.js';
import { composeRuntime } from './compose.js';
import type { Config } from './config.js';
import { rootDir, version } from './version.js';

/**
 * `feedmill schema`: regenerates the checked-in contracts under schema/ from the code (`npm run
 * schema`). CI runs it and fails when `git diff schema/` is not empty.
 */
export async function schemaCommand(config: Config, log: Logger, print: (line: string) => void): Promise<void> {
  // A throwaway store: generating documents must not touch the user's data directory.
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-schema-'));
  const runtime = await composeRuntime({ ...config, dataDir, store: 'embedded' }, log, 'schema');
  const write = (path: string, text: string): void => {
    const file = join(rootDir, 'schema', path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    print(`Wrote ${file}`);
  };
  try {
    const app = await buildHttpApp(runtime.deps, { version });
    await app.ready();
    write('openapi.json', `${JSON.stringify(app.swagger(), null, 2)}\n`);
    write('schema.graphql', printSortedSchema());
    write(join('json', 'webhook-event.json'), `${JSON.stringify(WebhookEvent, null, 2)}\n`);
    await app.close();
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
