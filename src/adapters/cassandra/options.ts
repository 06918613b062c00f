import type { types } from 'cassandra-driver';

/** A consistency level by the driver's name for it (`localQuorum`, `quorum`, `one`, …). */
export type Consistency = keyof typeof types.consistencies;

export interface CassandraStoreOptions {
  /** `host` or `host:port`. @example ['127.0.0.1:9042'] */
  contactPoints: string[];
  /** The data centre the driver prefers; `datacenter1` on a single node with SimpleSnitch. */
  localDataCenter: string;
  /** Created by the migration runner when missing. Letters, digits and `_`, starting with a letter. */
  keyspace: string;
  /** For reads and writes. @default 'localQuorum' */
  consistency?: Consistency;
  /** For lightweight transactions (conditional writes). @default 'localSerial' */
  serialConsistency?: Consistency;
  /** PasswordAuthenticator credentials; omit when the cluster has no authentication. */
  credentials?: { username: string; password: string };
  /** The folder of `NNN-name.cql` migrations (`schema/cql`). */
  schemaDir: string;
  /**
   * Replication of a keyspace the runner creates; an existing keyspace is left as it is.
   * @default { class: 'SimpleStrategy', replication_factor: 1 }
   */
  replication?: Record<string, string | number>;
}

const names: Record<string, Consistency> = {
  ANY: 'any',
  ONE: 'one',
  TWO: 'two',
  THREE: 'three',
  QUORUM: 'quorum',
  ALL: 'all',
  LOCAL_QUORUM: 'localQuorum',
  EACH_QUORUM: 'eachQuorum',
  SERIAL: 'serial',
  LOCAL_SERIAL: 'localSerial',
  LOCAL_ONE: 'localOne',
};

/** Reads a level as CQL spells it (`LOCAL_QUORUM`), for configuration; undefined when unknown. */
export function consistencyFromName(text: string): Consistency | undefined {
  return names[text.trim().toUpperCase()];
}

const identifier = /^[a-z][a-z0-9_]{0,47}$/;

/** Keyspace names are spliced into DDL (identifiers cannot be bound), so they are checked first. */
export function checkKeyspace(name: string): string {
  if (!identifier.test(name)) {
    throw new Error(
      `Expected the Cassandra keyspace to be lower-case letters, digits and _ (starting with a letter, at most 48), got \`${name}\``,
    );
  }
  return name;
}
