import type { Client, types } from 'cassandra-driver';
import { classifyCassandraFailure } from './unavailable.js';

/**
 * A statement and whether running it twice leaves the same state as running it once. Idempotent
 * statements may be retried by the driver (speculative execution, timeouts); the others are
 * conditional writes whose answer (`[applied]`) a retry would change.
 */
export interface Statement {
  /** CQL naming its tables `{ks}.table`: see createCql. */
  readonly cql: string;
  readonly idempotent: boolean;
  /**
   * Which clock stamps a plain write: this process's (the driver's default), or the Cassandra node
   * coordinating it, as it stamps a lightweight transaction. `server` is for cells a conditional
   * write also sets: stamped by this process, a write from a host whose clock runs behind the
   * node's would lose to an earlier conditional one.
   */
  readonly clock: 'client' | 'server';
}

export const statement = (cql: string, idempotent: boolean, clock: Statement['clock'] = 'client'): Statement => ({
  cql,
  idempotent,
  clock,
});

/** The values a statement binds: what the driver accepts (types.unset leaves a column as it is). */
export type Params = readonly unknown[];

/** The one way the stores reach Cassandra: prepared statements, with their idempotence stated. */
export interface Cql {
  execute(statement: Statement, params: Params): Promise<types.ResultSet>;
  /** The first row, or undefined. */
  one(statement: Statement, params: Params): Promise<types.Row | undefined>;
  /** Every row, page after page (for partitions and scans that may outgrow one page). */
  all(statement: Statement, params: Params): Promise<types.Row[]>;
  /** The rows, a page of at most `pageSize` at a time; the next page is asked for only when this one is done with. */
  pages(statement: Statement, params: Params, pageSize: number): AsyncIterable<types.Row[]>;
  /** Runs a conditional write (IF …) and says whether it applied. */
  applied(statement: Statement, params: Params): Promise<boolean>;
  /**
   * Runs statements as one unlogged batch. Callers pass statements of one partition only: those
   * apply as a single mutation, atomically, without the batch log.
   */
  batch(parts: readonly { statement: Statement; params: Params }[]): Promise<void>;
  /**
   * Runs statements of one partition of one table as one conditional batch (Paxos): all of them
   * apply, or none when a condition fails. Says whether they applied.
   */
  appliedBatch(parts: readonly { statement: Statement; params: Params }[]): Promise<boolean>;
}

/** The page size `all` reads with: the driver's default fetch size, which `all` used until it was built on `pages`. */
const wholePageSize = 5_000;

/**
 * Statements name their keyspace (`{ks}.` becomes `keyspace.`, a checked identifier): Cassandra
 * ties an unqualified prepared statement to the keyspace of the connection that prepared it, so a
 * qualified one means the same on every connection, whatever keyspace that connection uses.
 */
export function createCql(client: Client, keyspace: string): Cql {
  const texts = new Map<Statement, string>();
  const text = (statement: Statement): string => {
    const known = texts.get(statement);
    if (known !== undefined) return known;
    if (!statement.cql.includes('{ks}.'))
      throw new Error(`Expected the statement to name its tables as {ks}.table, got \`${statement.cql}\``);
    const qualified = statement.cql.replaceAll('{ks}.', `${keyspace}.`);
    texts.set(statement, qualified);
    return qualified;
  };
  const options = (statement: Statement) => ({
    prepare: true,
    isIdempotent: statement.idempotent,
    // The driver sends no timestamp when it is null (execution-options.js, getOrGenerateTimestamp),
    // so the coordinator stamps the write; its types allow only a number or a Long.
    ...(statement.clock === 'server' ? { timestamp: null as unknown as number } : {}),
  });
  // The driver's params are `any[]`; ours are readonly unknown[], narrowed to what it accepts.
  const values = (params: Params): unknown[] => [...params];
  // Every call goes through here, so an unreachable cluster is one failure code everywhere.
  const classified = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw classifyCassandraFailure(error);
    }
  };
  const execute = (statement: Statement, params: Params) =>
    classified(() => client.execute(text(statement), values(params), options(statement)));
  async function* pages(statement: Statement, params: Params, pageSize: number): AsyncIterable<types.Row[]> {
    let pageState: string | undefined;
    do {
      const at = pageState;
      const page = await classified(() =>
        client.execute(text(statement), values(params), {
          ...options(statement),
          fetchSize: pageSize,
          ...(at === undefined ? {} : { pageState: at }),
        }),
      );
      yield page.rows;
      // The driver's types say string; it is null (or absent) after the last page.
      pageState = page.pageState || undefined;
    } while (pageState !== undefined);
  }
  return {
    execute,
    async one(statement, params) {
      return (await execute(statement, params)).first() ?? undefined;
    },
    async all(statement, params) {
      const rows: types.Row[] = [];
      for await (const page of pages(statement, params, wholePageSize)) for (const row of page) rows.push(row);
      return rows;
    },
    pages,
    async applied(statement, params) {
      return (await execute(statement, params)).wasApplied();
    },
    async batch(parts) {
      if (parts.length === 0) return;
      const queries = parts.map((part) => ({ query: text(part.statement), params: values(part.params) }));
      await classified(() =>
        client.batch(queries, { prepare: true, logged: false, isIdempotent: parts.every((part) => part.statement.idempotent) }),
      );
    },
    async appliedBatch(parts) {
      const queries = parts.map((part) => ({ query: text(part.statement), params: values(part.params) }));
      // A conditional batch is never retried by the driver: a retry of one that applied would answer "not applied".
      return (await classified(() => client.batch(queries, { prepare: true, logged: true, isIdempotent: false }))).wasApplied();
    },
  };
}
