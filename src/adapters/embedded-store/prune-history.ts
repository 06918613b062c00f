import type { Db } from './database.js';

/** Deletes history older than `before` (see domain/retention.ts); returns the rows deleted. */
export function pruneHistory(db: Db, before: Date): number {
  const at = before.toISOString();
  const prune = db.transaction(() => {
    let deleted = 0;
    deleted += db.prepare('DELETE FROM events WHERE published_at IS NOT NULL AND occurred_at < ?').run(at).changes;
    deleted += db.prepare('DELETE FROM delivery_attempts WHERE at < ?').run(at).changes;
    deleted += db.prepare("DELETE FROM deliveries WHERE status <> 'pending' AND created_at < ?").run(at).changes;
    return deleted;
  });
  return prune();
}
