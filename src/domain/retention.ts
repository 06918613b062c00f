/**
 * How long the service keeps what only records the past: published events, finished webhook
 * deliveries and their call history. Pending work is never dropped. The embedded store deletes
 * older rows hourly; Cassandra writes these tables with this time to live (schema/cql/007).
 */
export const historyRetentionSeconds = 30 * 24 * 3600;
