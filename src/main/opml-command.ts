import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Principal } from '../domain/api-key.js';
import { exportOpml, recordOpmlImport, runOpmlImport, type OpmlImport } from '../app/opml.js';
import { parseOpml } from '../http/opml-read.js';
import { composeRuntime } from './compose.js';
import type { Config } from './config.js';
import { createLogger } from './logger.js';
import { progressLine } from './progress-bar.js';

const usage = 'usage: feedmill opml import FILE --account NAME | opml export --account NAME';

export interface OpmlCommandIo {
  print(line: string): void;
  /** Where progress goes; a terminal gets a bar redrawn in place, anything else a line per outline. */
  progress: { isTTY?: boolean; write(text: string): unknown };
}

const tally = (job: OpmlImport): Record<string, number> => {
  const counts: Record<string, number> = { created: 0, existing: 0, failed: 0 };
  for (const outcome of job.outcomes) counts[outcome.outcome] = (counts[outcome.outcome] ?? 0) + 1;
  return counts;
};

/** `feedmill opml import FILE --account A` and `feedmill opml export --account A`, against the configured store. */
export async function opmlCommand(args: string[], config: Config, io: OpmlCommandIo): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, options: { account: { type: 'string' } }, allowPositionals: true });
  if (!values.account || (action !== 'import' && action !== 'export')) throw new Error(usage);
  // The command acts as the account's owner would through the API, with both scopes.
  const principal: Principal = { accountId: values.account, keyId: 'cli', scopes: ['read', 'write'] };
  const file = positionals[0];
  if (action === 'import' && !file) throw new Error(`the OPML file is required; ${usage}`);
  // Read and checked before anything is opened: a refused file changes nothing.
  const entries = action === 'import' && file ? parseOpml(await readFile(file, 'utf8')) : [];
  const runtime = await composeRuntime(config, createLogger({ ...config, logLevel: 'warn' }), 'cli');
  try {
    if (action === 'export') {
      io.print((await exportOpml(runtime.deps, principal)).trimEnd());
      return;
    }
    // The command runs the import itself rather than queue it: no worker need be running.
    const started = await recordOpmlImport(runtime.deps, principal, entries);
    let job: OpmlImport = started;
    let shown = 0;
    const report = async (): Promise<void> => {
      job = (await runtime.deps.imports.get(started.id)) ?? job;
      if (io.progress.isTTY) {
        io.progress.write(`\r${progressLine(job.done, job.total, tally(job))}`);
        return;
      }
      for (const outcome of job.outcomes.slice(shown)) {
        io.progress.write(
          `${outcome.outcome} ${outcome.xml_url}${outcome.error ? ` (${outcome.error.code}: ${outcome.error.message})` : ''}\n`,
        );
      }
      shown = job.outcomes.length;
    };
    const timer = setInterval(() => void report(), 100);
    try {
      await runOpmlImport(runtime.deps, started.id);
    } finally {
      clearInterval(timer);
    }
    await report();
    if (io.progress.isTTY) io.progress.write('\n');
    const counts = tally(job);
    io.print(
      `Imported ${job.total} feed outlines into account ${principal.accountId}: ${counts['created']} created, ${counts['existing']} already there, ${counts['failed']} failed.`,
    );
  } finally {
    await runtime.close();
  }
}
