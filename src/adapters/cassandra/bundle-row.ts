import { types } from 'cassandra-driver';
import type { Bundle } from '../../domain/bundle.js';
import type { ItemSort } from '../../domain/feed.js';
import { optionalText, text, timeUuid } from './row.js';

/** The columns of `bundles` every read selects. */
export const bundleColumns = 'id, account_id, name, description, icon, sort, created_at, updated_at, deleted_at, listed_at';

/** A `bundles` row: the bundle without its members, which live in bundle_feeds. */
export interface BundleRow {
  bundle: Omit<Bundle, 'feedIds'>;
  deletedAt: string | null;
  listedAt: types.TimeUuid;
}

export function toBundleRow(row: types.Row): BundleRow {
  return {
    bundle: {
      id: text(row, 'id'),
      accountId: text(row, 'account_id'),
      name: text(row, 'name'),
      description: text(row, 'description'),
      icon: text(row, 'icon'),
      sort: text(row, 'sort') as ItemSort,
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
    },
    deletedAt: optionalText(row, 'deleted_at'),
    listedAt: timeUuid(row, 'listed_at'),
  };
}

/** The values of an INSERT listing bundleColumns, in order; deleted_at unset. */
export function bundleValues(bundle: Bundle, listedAt: types.TimeUuid): unknown[] {
  const { id, accountId, name, description, icon, sort, createdAt, updatedAt } = bundle;
  return [id, accountId, name, description, icon, sort, createdAt, updatedAt, types.unset, listedAt];
}
