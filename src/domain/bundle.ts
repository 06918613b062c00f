import type { ItemSort } from './feed.js';

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
  createdAt: string;
  updatedAt: string;
}

/** Fields a user may change with PATCH /v1/bundles/:id. */
export interface BundlePatch {
  name?: string;
  description?: string;
  icon?: string;
}
