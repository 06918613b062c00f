import { randomBytes } from 'node:crypto';
import { createKey, listKeys, revokeKey, type CreatedKey, type KeyView } from '../app/api-keys.js';
import { backstopMs } from '../caches/shared-read-cache.js';
import { parseScopes, type Scope } from '../domain/api-key.js';
import type { Config } from './config.js';
import { ExitError } from './exit-error.js';
import { parseSubcommand } from './subcommand-args.js';
import { openStores } from './stores.js';
import { createRedisChangeBus } from '../adapters/redis-bus/index.js';
import { sharedKeyStore } from '../caches/shared-key-store.js';

export const keysUsage =
  'usage: feedmill keys create --account NAME --scopes read,write [--json] | keys list [--json] | keys revoke KEY_ID';

/**
 * A key as `keys create --json` and `keys list --json` print it: one set of field names, so a
 * script that reads one reads the other (`secret` only at creation).
 */
export interface KeyJson {
  key: string;
  account: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  secret?: string;
}

const fromCreated = (created: CreatedKey): KeyJson => ({
  key: created.key,
  secret: created.secret,
  account: created.account,
  scopes: created.scopes,
  created_at: created.created_at,
  last_used_at: null,
  revoked_at: null,
});

const fromView = (key: KeyView): KeyJson => ({
  key: key.id,
  account: key.accountId,
  scopes: key.scopes,
  created_at: key.createdAt,
  last_used_at: key.lastUsedAt,
  revoked_at: key.revokedAt,
});

type Action =
  | { kind: 'help' }
  | { kind: 'create'; account: string; scopes: Scope[]; json: boolean }
  | { kind: 'list'; json: boolean }
  | { kind: 'revoke'; id: string };

/** The arguments, checked completely before anything is opened: a typo or `--help` touches no store. */
export function parseKeysArgs(args: string[]): Action {
  const parsed = parseSubcommand(
    args,
    { account: { type: 'string' }, scopes: { type: 'string', default: 'read,write' }, json: { type: 'boolean', default: false } },
    keysUsage,
  );
  if (parsed === null) return { kind: 'help' };
  const { action, values, positionals } = parsed;
  if (action === 'create') {
    if (!values.account) throw new ExitError(`--account is required; ${keysUsage}`, 2);
    const scopes = parseScopes(values.scopes);
    if (!scopes) throw new ExitError(`--scopes: expected a comma-separated list of read, write; got \`${values.scopes}\``, 2);
    return { kind: 'create', account: values.account, scopes, json: values.json };
  }
  if (action === 'list') return { kind: 'list', json: values.json };
  if (action === 'revoke') {
    const id = positionals[0];
    if (!id) throw new ExitError(`the key id is required; ${keysUsage}`, 2);
    return { kind: 'revoke', id };
  }
  throw new ExitError(`unknown action \`${action}\`; ${keysUsage}`, 2);
}

/** `feedmill keys …`: API key pairs. The secret is printed once; only its hash is stored. */
export async function keysCommand(args: string[], config: Config, print: (line: string) => void): Promise<void> {
  const action = parseKeysArgs(args);
  if (action.kind === 'help') {
    print(keysUsage);
    return;
  }
  const store = await openStores(config);
  const clock = { now: () => new Date() };
  // Cluster mode: the API replicas keep key records in memory; the revocation notice drops them
  // there, so the key is refused at once (docs/security.md).
  const changes = config.redisUrl ? createRedisChangeBus({ url: config.redisUrl }) : undefined;
  const deps = {
    keys: changes ? sharedKeyStore(store.keys, changes, clock) : store.keys,
    clock,
    random: (size: number) => randomBytes(size),
  };
  try {
    if (action.kind === 'create') {
      const created = await createKey(deps, action.account, action.scopes);
      if (!action.json) {
        print(`Created API key for account ${created.account} with scopes ${created.scopes.join(',')}.`);
        print('The secret is shown only now; store it safely. Send it as:');
        print(`  Authorization: Bearer ${created.key}:${created.secret}`);
      }
      print(JSON.stringify(fromCreated(created)));
    } else if (action.kind === 'list') {
      const keys = await listKeys(deps);
      if (action.json) print(JSON.stringify(keys.map(fromView)));
      else
        for (const key of keys)
          print(
            `${key.id}  account=${key.accountId}  scopes=${key.scopes.join(',')}  created=${key.createdAt}  last-used=${key.lastUsedAt ?? 'never'}${key.revokedAt ? `  revoked=${key.revokedAt}` : ''}`,
          );
    } else {
      await revokeKey(deps, action.id);
      print(`Revoked ${action.id}.`);
      if (config.store === 'cassandra' && !changes)
        print(
          `FEEDMILL_REDIS_URL is not set, so running API processes were not told: each refuses the key once its cached copy expires (within ${backstopMs / 1000} s). Run this with the deployment's FEEDMILL_REDIS_URL to refuse it at once.`,
        );
    }
  } finally {
    await changes?.close();
    await store.close();
  }
}
