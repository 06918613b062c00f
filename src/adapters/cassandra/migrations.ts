import type { Client } from 'cassandra-driver';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCql, statement } from './cql.js';
import { int } from './row.js';

// DDL runs once and unprepared: a prepared unqualified statement is tied to its connection's
// keyspace, and Cassandra logs an error each time it meets it on another keyspace. A schema change
// waits for the nodes to apply and agree on it, which outlasts the driver's 12 s read timeout on a
// busy cluster (seen at start-up beside other work): a slow migration is not a failed one.
const ddl = { prepare: false, readTimeout: 120_000 };

const defaultReplication = { class: 'SimpleStrategy', replication_factor: 1 };

const literal = (value: string | number): string => `'${String(value).replaceAll("'", "''")}'`;

/** Creates the keyspace when missing (identifiers cannot be bound: `keyspace` is checked by the caller). */
export async function createKeyspace(
  client: Client,
  keyspace: string,
  replication: Record<string, string | number> = defaultReplication,
): Promise<void> {
  const map = Object.entries(replication)
    .map(([key, value]) => `${literal(key)}: ${literal(value)}`)
    .join(', ');
  await client.execute(`CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = {${map}}`, [], ddl);
}

/**
 * The statements of one migration file: `--` comments dropped, split at `;`. Our files hold DDL
 * only, with no `;` inside a string, which keeps this honest.
 */
export function splitStatements(source: string): string[] {
  const withoutComments = source
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n');
  return withoutComments
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

const createTable = 'CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text, applied_at timestamp)';
const appliedVersions = statement('SELECT version FROM {ks}.schema_migrations', true);
// IF NOT EXISTS: two runners racing record a version once; the loser's statements were no-ops.
const record = statement('INSERT INTO {ks}.schema_migrations (version, name, applied_at) VALUES (?, ?, ?) IF NOT EXISTS', false);

/**
 * Applies the `NNN-name.cql` files of `schemaDir` not yet recorded in `schema_migrations`, in
 * order, on a client already using the keyspace. Every statement is `IF NOT EXISTS`, so a run cut
 * short is finished by the next. The driver waits for schema agreement after each statement. Returns the file names it applied.
 */
export async function applyMigrations(client: Client, keyspace: string, schemaDir: string): Promise<string[]> {
  await client.execute(createTable, [], ddl);
  const cql = createCql(client, keyspace);
  const done = new Set((await cql.all(appliedVersions, [])).map((row) => int(row, 'version')));
  const files = (await readdir(schemaDir)).filter((name) => /^\d+-.+\.cql$/.test(name)).sort();
  const applied: string[] = [];
  for (const name of files) {
    const version = Number.parseInt(name, 10);
    if (done.has(version)) continue;
    for (const text of splitStatements(await readFile(join(schemaDir, name), 'utf8'))) await client.execute(text, [], ddl);
    await cql.applied(record, [version, name, new Date()]);
    applied.push(name);
  }
  return applied;
}
