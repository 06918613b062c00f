import { errors, types } from 'cassandra-driver';
import { FeedmillError } from '../../domain/errors.js';

// Server answers that mean "not now", not "never": the request may succeed once the cluster recovers.
const transient = new Set<number>([
  types.responseErrorCodes.unavailableException,
  types.responseErrorCodes.overloaded,
  types.responseErrorCodes.isBootstrapping,
  types.responseErrorCodes.writeTimeout,
  types.responseErrorCodes.readTimeout,
]);

/**
 * A driver failure that says Cassandra can't be reached or can't answer right now, classified as
 * `store_unavailable` (503, and retried by the schedulers); anything else is passed on as it is.
 */
export function classifyCassandraFailure(error: unknown): unknown {
  const unreachable =
    error instanceof errors.NoHostAvailableError ||
    error instanceof errors.OperationTimedOutError ||
    error instanceof errors.BusyConnectionError ||
    (error instanceof errors.ResponseError && transient.has(error.code));
  if (!unreachable) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new FeedmillError(
    'store_unavailable',
    `The store (Cassandra) can't be reached right now (${reason.slice(0, 200)}); retry in a few seconds. Operators: check FEEDMILL_CASSANDRA_CONTACT_POINTS and that Cassandra is up`,
  );
}
