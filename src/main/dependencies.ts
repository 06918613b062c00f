import { connect } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.js';

/** A server feedmill needs, named the way an operator fixes it: the variable, the address tried. */
export interface Dependency {
  name: 'Redis' | 'Cassandra';
  variable: string;
  /** host:port, never a password. */
  address: string;
}

/** How often a dependency that can't be reached is tried again, and said so (one line each time). */
export const retryIntervalMs = 5_000;

export function redisDependency(url: string): Dependency {
  const parsed = new URL(url);
  return { name: 'Redis', variable: 'FEEDMILL_REDIS_URL', address: `${parsed.hostname}:${parsed.port || '6379'}` };
}

export function cassandraDependency(config: Pick<Config, 'cassandraContactPoints'>): Dependency {
  const address = config.cassandraContactPoints.map((point) => (/:\d+$/.test(point) ? point : `${point}:9042`)).join(',');
  return { name: 'Cassandra', variable: 'FEEDMILL_CASSANDRA_CONTACT_POINTS', address };
}

/** Why, in a word where there is one: the socket error's code, else the message's first line. */
export function reason(error: unknown): string {
  const { code, message, innerErrors } = (error ?? {}) as { code?: unknown; message?: unknown; innerErrors?: unknown };
  if (typeof code === 'string') return code;
  // cassandra-driver's NoHostAvailableError keeps each contact point's own error by address.
  const inner: unknown[] =
    innerErrors !== null && typeof innerErrors === 'object' ? Object.values(innerErrors as Record<string, unknown>) : [];
  const first = inner[0];
  if (first !== undefined) return reason(first);
  return typeof message === 'string' ? (message.split('\n')[0] ?? message) : String(error);
}

/** An error of the connection itself (refused, reset, timed out, no such host), not of a command. */
export function isConnectionError(error: unknown): boolean {
  const { code, name } = error as { code?: unknown; name?: unknown };
  return (
    (typeof code === 'string' && /^(E[A-Z]+|ERR_SOCKET_.*)$/.test(code)) ||
    name === 'MaxRetriesPerRequestError' ||
    name === 'NoHostAvailableError'
  );
}

/** Resolves once a TCP connection to `host:port` opens (and is closed again); rejects with the socket error. */
export function tcpReachable(address: string, timeoutMs: number): Promise<void> {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(at + 1));
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => socket.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    socket.once('error', reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, with one warning per failed try naming the variable to fix and
 * the address tried. Start-up waits here (probe port up, `/readyz` 503) instead of exiting, so an
 * orchestrator that starts feedmill before Redis or Cassandra sees a pod waiting, not a crash loop.
 */
export async function untilReachable<T>(
  dependency: Dependency,
  attempt: () => Promise<T>,
  log: Logger,
  intervalMs = retryIntervalMs,
): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      const value = await attempt();
      if (tries > 1) log.info({ dependency: dependency.name, address: dependency.address, tries }, `${dependency.name} answers; starting`);
      return value;
    } catch (error) {
      log.warn(
        { dependency: dependency.name, variable: dependency.variable, address: dependency.address, reason: reason(error) },
        `cannot reach ${dependency.name} at ${dependency.address} (${dependency.variable}); trying again in ${Math.round(intervalMs / 1000)} s`,
      );
      await sleep(intervalMs);
    }
  }
}

/**
 * Collapses the connection errors of one dependency while it is away (ioredis reports every
 * reconnection attempt, from each of several clients) into one line per interval with a count.
 */
export function dependencyAlarm(
  dependency: Dependency,
  log: Logger,
  now: () => number = Date.now,
  intervalMs = retryIntervalMs,
): (error: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return (error) => {
    if (now() - last < intervalMs) {
      suppressed += 1;
      return;
    }
    log.warn(
      {
        dependency: dependency.name,
        variable: dependency.variable,
        address: dependency.address,
        reason: reason(error),
        ...(suppressed > 0 ? { moreErrors: suppressed } : {}),
      },
      `cannot reach ${dependency.name} at ${dependency.address} (${dependency.variable}); retrying`,
    );
    last = now();
    suppressed = 0;
  };
}
