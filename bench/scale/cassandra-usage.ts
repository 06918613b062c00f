import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'cassandra-driver';

/** The tables that grow with every stored item (schema/cql/001-init.cql): the item and its two orders. */
const itemTables = ['items', 'items_by_added', 'items_by_published'];

export interface CassandraUsage {
  items: number;
  /** JSON text of every row of the item tables: the data itself, before Cassandra's own overhead and compression. */
  logicalBytes: number;
  /** SSTable files of the keyspace on disk: only what Cassandra has flushed from its memtables so far. */
  diskBytes: number;
}

function directoryBytes(path: string): number {
  if (!existsSync(path)) return 0;
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    // Snapshots are copies made by a drop or a truncate, not the live data.
    if (entry.isDirectory()) total += entry.name === 'snapshots' ? 0 : directoryBytes(full);
    else total += statSync(full).size;
  }
  return total;
}

/** Reads every row of the item tables (paged) and the keyspace's directory under `dataDir`. */
export async function cassandraUsage(contactPoint: string, keyspace: string, dataDir: string): Promise<CassandraUsage> {
  const client = new Client({ contactPoints: [contactPoint], localDataCenter: 'datacenter1', keyspace });
  try {
    let items = 0;
    let logicalBytes = 0;
    for (const table of itemTables) {
      let pageState: string | undefined;
      do {
        const page = await client.execute(`SELECT JSON * FROM ${table}`, [], { prepare: true, fetchSize: 1000, pageState });
        for (const row of page.rows) logicalBytes += Buffer.byteLength(String(row.get('[json]')));
        if (table === 'items') items += page.rows.length;
        pageState = page.pageState ?? undefined;
      } while (pageState);
    }
    const diskBytes = readdirSync(dataDir).includes(keyspace) ? directoryBytes(join(dataDir, keyspace)) : 0;
    return { items, logicalBytes, diskBytes };
  } finally {
    await client.shutdown();
  }
}
