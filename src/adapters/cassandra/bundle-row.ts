import { types } from 'cassandra-driver';
import type { Bundle } from '../../domain/bundle.js';
import type { ItemSort } from '../../domain/feed.js';
import { noFilters, type KeepBlock } from '../../domain/keep-block.js';
import { optionalText, text, timeUuid } from './row.js';

/** The columns of `bundles` every read selects. */
export const bundleColumns = 'id, account_id, name, description, icon, sort, filters, created_at, updated_at, deleted_at, listed_at';

const filtersOf = (json: string | null): KeepBlock => (json === null ? noFilters : (JSON.parse(json) as KeepBlock));

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
      // null on bundles made before filters existed.
      filters: filtersOf(optionalText(row, 'filters')),
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
    },
    deletedAt: optionalText(row, 'deleted_at'),
    listedAt: timeUuid(row, 'listed_at'),
  };
}

/** The values of an INSERT listing bundleColumns, in order; deleted_at unset. */
export function bundleValues(bundle: Bundle, listedAt: types.TimeUuid): unknown[] {
  const { id, accountId, name, description, icon, sort, filters, createdAt, updatedAt } = bundle;
  return [id, accountId, name, description, icon, sort, JSON.stringify(filters), createdAt, updatedAt, types.unset, listedAt];
}
