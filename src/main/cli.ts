#!/usr/bin/env node
import { isFeedmillError } from '../domain/errors.js';
import { ConfigError, loadConfig } from './config.js';
import { ExitError } from './exit-error.js';
import { keysCommand } from './keys-command.js';
import { createLogger } from './logger.js';
import { opmlCommand } from './opml-command.js';
import { schemaCommand } from './schema-command.js';
import { serve } from './serve.js';
import { openStores } from './stores.js';
import { usersCommand } from './users-command.js';
import { version } from './version.js';

const help = `feedmill ${version}

usage: feedmill <command>

  all                 API, feed actors and parser pool in one process (what \`npm start\` runs)
  api                 the HTTPS API only
  worker              the feed actors only
  migrate             apply pending schema migrations to the configured store
  schema              regenerate the checked-in contracts in schema/ (openapi.json)
  keys create --account NAME --scopes read,write [--json]
  keys list [--json]
  keys revoke KEY_ID
  users create --account NAME --email EMAIL [--password-stdin]
  users list [--json]
  users reset-password EMAIL [--password-stdin]
  users delete EMAIL
  opml import FILE --account NAME    import feeds and bundles, with progress
  opml export --account NAME         print the account's feeds and bundles as OPML 2.0

Configuration is read from FEEDMILL_* environment variables; see README.md.`;

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(help);
    return;
  }
  if (command === '--version') {
    console.log(version);
    return;
  }
  const config = loadConfig(process.env);
  switch (command) {
    case 'all':
    case 'api':
    case 'worker':
      return serve(command, config, createLogger(config));
    case 'migrate': {
      const store = await openStores(config);
      console.log(store.applied.length ? `Applied ${store.applied.join(', ')}.` : 'The store is up to date.');
      await store.close();
      return;
    }
    case 'schema':
      return schemaCommand(config, createLogger({ logLevel: 'warn' }), (line) => console.log(line));
    case 'keys':
      return keysCommand(args, config, (line) => console.log(line));
    case 'opml':
      return opmlCommand(args, config, { print: (line) => console.log(line), progress: process.stderr });
    case 'users':
      return usersCommand(args, config, { print: (line) => console.log(line), input: process.stdin, prompts: process.stderr });
    default:
      throw new Error(`unknown command \`${command}\`\n\n${help}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof ConfigError || isFeedmillError(error) || error instanceof Error ? error.message : String(error);
  console.error(`feedmill: ${message}`);
  process.exit(error instanceof ExitError ? error.exitCode : 1);
});
