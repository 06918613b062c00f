import { statement, type Cql } from './cql.js';
import { int, text } from './row.js';

/** Bundle membership, kept both ways: bundle_feeds (a bundle's feeds) and feed_bundles (a feed's bundles). */
export interface BundleMembers {
  of(bundleId: string): Promise<string[]>;
  /** Appends the feeds not yet members, in the order given; members keep their place. */
  add(accountId: string, bundleId: string, feedIds: readonly string[]): Promise<void>;
  remove(accountId: string, bundleId: string, feedId: string): Promise<void>;
  /** The bundles of `accountId` holding the feed. */
  holding(accountId: string, feedId: string): Promise<string[]>;
}

const members = statement('SELECT feed_id, position FROM {ks}.bundle_feeds WHERE bundle_id = ?', true);
const addMember = statement('INSERT INTO {ks}.bundle_feeds (bundle_id, feed_id, position) VALUES (?, ?, ?)', true);
const addHolder = statement('INSERT INTO {ks}.feed_bundles (feed_id, account_id, bundle_id) VALUES (?, ?, ?)', true);
const dropMember = statement('DELETE FROM {ks}.bundle_feeds WHERE bundle_id = ? AND feed_id = ?', true);
const dropHolder = statement('DELETE FROM {ks}.feed_bundles WHERE feed_id = ? AND account_id = ? AND bundle_id = ?', true);
const holders = statement('SELECT bundle_id FROM {ks}.feed_bundles WHERE feed_id = ? AND account_id = ?', true);

export function createBundleMembers(cql: Cql): BundleMembers {
  const placed = async (bundleId: string) =>
    (await cql.all(members, [bundleId]))
      .map((row) => ({ feedId: text(row, 'feed_id'), position: int(row, 'position') }))
      // Two adds racing may share a position; the feed id then settles the order.
      .sort((a, b) => a.position - b.position || (a.feedId < b.feedId ? -1 : 1));

  return {
    async of(bundleId) {
      return (await placed(bundleId)).map((member) => member.feedId);
    },
    async add(accountId, bundleId, feedIds) {
      const current = await placed(bundleId);
      const present = new Set(current.map((member) => member.feedId));
      let next = (current.at(-1)?.position ?? -1) + 1;
      const fresh: string[] = [];
      for (const feedId of feedIds) {
        if (present.has(feedId)) continue;
        present.add(feedId);
        fresh.push(feedId);
      }
      // The bundle's side first, in one single-partition batch; then each feed's side.
      await cql.batch(fresh.map((feedId) => ({ statement: addMember, params: [bundleId, feedId, next++] })));
      await Promise.all(fresh.map((feedId) => cql.execute(addHolder, [feedId, accountId, bundleId])));
    },
    async remove(accountId, bundleId, feedId) {
      await cql.execute(dropMember, [bundleId, feedId]);
      await cql.execute(dropHolder, [feedId, accountId, bundleId]);
    },
    async holding(accountId, feedId) {
      return (await cql.all(holders, [feedId, accountId])).map((row) => text(row, 'bundle_id'));
    },
  };
}
