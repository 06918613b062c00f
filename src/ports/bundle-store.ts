import type { Bundle, BundlePatch } from '../domain/bundle.js';
import type { Page } from '../domain/pagination.js';

/** `deleted` is a tombstone: it tells "already deleted" apart from "never existed". */
export type BundleLookup = { state: 'present'; bundle: Bundle } | { state: 'deleted' } | { state: 'missing' };

export interface BundleStore {
  insert(bundle: Bundle): Promise<void>;
  /** Scoped to an account: another account's bundle is `missing`. */
  get(accountId: string, bundleId: string): Promise<BundleLookup>;
  /** Unscoped, for hosted bundles (ids are unguessable). */
  getById(bundleId: string): Promise<Bundle | undefined>;
  /** Newest first. */
  list(accountId: string, page: Page): Promise<{ total: number; bundles: Bundle[] }>;
  update(accountId: string, bundleId: string, patch: BundlePatch, updatedAt: string): Promise<Bundle | undefined>;
  /** Idempotent: adding a member twice keeps one. */
  addFeed(accountId: string, bundleId: string, feedId: string, updatedAt: string): Promise<Bundle | undefined>;
  /** Idempotent: removing a non-member changes nothing. */
  removeFeed(accountId: string, bundleId: string, feedId: string, updatedAt: string): Promise<Bundle | undefined>;
  /** A deleted feed leaves every bundle that held it (spec "States and transitions"). */
  removeFeedEverywhere(accountId: string, feedId: string, updatedAt: string): Promise<void>;
  /** True when it deleted; false when the bundle was missing or already deleted. */
  markDeleted(accountId: string, bundleId: string, deletedAt: string): Promise<boolean>;
}
