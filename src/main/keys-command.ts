import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createKey, listKeys, revokeKey } from '../app/api-keys.js';
import { parseScopes } from '../domain/api-key.js';
import type { Config } from './config.js';
import { openStores } from './stores.js';

const usage = 'usage: feedmill keys create --account NAME --scopes read,write [--json] | keys list [--json] | keys revoke KEY_ID';

/** `feedmill keys …`: API key pairs. The secret is printed once; only its hash is stored. */
export async function keysCommand(args: string[], config: Config, print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { account: { type: 'string' }, scopes: { type: 'string', default: 'read,write' }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const store = await openStores(config);
  const deps = { keys: store.keys, clock: { now: () => new Date() }, random: (size: number) => randomBytes(size) };
  try {
    if (action === 'create') {
      if (!values.account) throw new Error(`--account is required; ${usage}`);
      const scopes = parseScopes(values.scopes);
      if (!scopes) throw new Error(`--scopes: expected a comma-separated list of read, write; got \`${values.scopes}\``);
      const created = await createKey(deps, values.account, scopes);
      if (!values.json) {
        print(`Created API key for account ${created.account} with scopes ${created.scopes.join(',')}.`);
        print('The secret is shown only now; store it safely. Send it as:');
        print(`  Authorization: Bearer ${created.key}:${created.secret}`);
      }
      print(JSON.stringify(created));
    } else if (action === 'list') {
      const keys = await listKeys(deps);
      if (values.json) print(JSON.stringify(keys));
      else for (const key of keys) print(`${key.id}  account=${key.accountId}  scopes=${key.scopes.join(',')}  created=${key.createdAt}  last-used=${key.lastUsedAt ?? 'never'}${key.revokedAt ? `  revoked=${key.revokedAt}` : ''}`);
    } else if (action === 'revoke') {
      const id = positionals[0];
      if (!id) throw new Error(`the key id is required; ${usage}`);
      await revokeKey(deps, id);
      print(`Revoked ${id}.`);
    } else {
      throw new Error(usage);
    }
  } finally {
    await store.close();
  }
}
