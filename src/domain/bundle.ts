import type { ItemSort } from './feed.js';
import type { KeepBlock } from './keep-block.js';

/** Spec "Bundle": a named group of feeds with its own hosted address. */
export interface Bundle {
  /** `_` + 16 url-safe characters (DESIGN.md). */
  id: string;
  accountId: string;
  name: string;
  description: string;
  icon: string;
  /** Member feed ids, in the order they were added. */
  feedIds: string[];
  /** Default order of merged items when a request gives no `sort`. */
  sort: ItemSort;
  /** Keep/block filters over the merged items, after each member feed's own. */
  filters: KeepBlock;
  createdAt: string;
  updatedAt: string;
}

/** Fields a user may change with PATCH /v1/bundles/:id, and `filters` with its settings. */
export interface BundlePatch {
  name?: string;
  description?: string;
  icon?: string;
  filters?: KeepBlock;
}
