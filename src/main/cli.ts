#!/usr/bin/env node
import { isFeedmillError } from '../domain/errors.js';
import { configCommand } from './config-command.js';
import { ConfigError, loadConfig, unknownVariables } from './config.js';
import { ExitError } from './exit-error.js';
import { healthcheckCommand } from './healthcheck-command.js';
import { createLogger } from './logger.js';
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
  backup FILE [--without-key]        a consistent copy of the embedded store while it runs, with its key
  restore FILE                       put a backup in place (the service must be stopped)
  config [--json]     the effective configuration, where each value came from, secrets redacted
  healthcheck [--ready]
                      exit 0 when this container's /healthz (or /readyz) answers 200: the image's HEALTHCHECK

Configuration is read from FEEDMILL_* environment variables; see docs/configuration.md.`;

// Each command loads only what it uses: `healthcheck` runs every 30 s in the image and should not
// load the whole service to ask one URL.
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
  // A misspelt variable would otherwise be ignored in silence, its default used.
  const unknown = unknownVariables(process.env).map(
    ({ name, suggestion }) => `${name} is not a feedmill setting and is ignored${suggestion ? `; did you mean ${suggestion}?` : ''}`,
  );
  switch (command) {
    case 'all':
    case 'api':
    case 'worker': {
      const log = createLogger(config);
      for (const line of unknown) log.warn(line);
      const { serve } = await import('./serve.js');
      return serve(command, config, log);
    }
    case 'config':
      for (const line of unknown) console.error(`feedmill: warning: ${line}`);
      return configCommand(args, config, process.env, (line) => console.log(line));
    case 'healthcheck':
      return healthcheckCommand(args, config, (line) => console.log(line));
    case 'migrate': {
      const { openStores } = await import('./stores.js');
      const { cassandraDependency, untilReachable } = await import('./dependencies.js');
      // The migrate Job may start before Cassandra answers: wait for it, saying so, like the roles do.
      const store =
        config.store === 'cassandra'
          ? await untilReachable(cassandraDependency(config), () => openStores(config), createLogger(config))
          : await openStores(config);
      console.log(store.applied.length ? `Applied ${store.applied.join(', ')}.` : 'The store is up to date.');
      await store.close();
      return;
    }
    case 'schema': {
      const { schemaCommand } = await import('./schema-command.js');
      return schemaCommand(config, createLogger({ logLevel: 'warn' }), (line) => console.log(line));
    }
    case 'keys': {
      const { keysCommand } = await import('./keys-command.js');
      return keysCommand(args, config, (line) => console.log(line));
    }
    case 'opml': {
      const { opmlCommand } = await import('./opml-command.js');
      return opmlCommand(args, config, { print: (line) => console.log(line), progress: process.stderr });
    }
    case 'backup':
    case 'restore': {
      const { backupCommand, restoreCommand } = await import('./backup-command.js');
      return (command === 'backup' ? backupCommand : restoreCommand)(args, config, (line) => console.log(line));
    }
    case 'users': {
      const { usersCommand } = await import('./users-command.js');
      return usersCommand(args, config, { print: (line) => console.log(line), input: process.stdin, prompts: process.stderr });
    }
    default:
      throw new Error(`unknown command \`${command}\`\n\n${help}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof ConfigError || isFeedmillError(error) || error instanceof Error ? error.message : String(error);
  console.error(`feedmill: ${message}`);
  process.exit(error instanceof ExitError ? error.exitCode : 1);
});
