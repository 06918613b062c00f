import type { Principal } from '../domain/api-key.js';
import type { Bundle, BundlePatch } from '../domain/bundle.js';
import { FeedmillError } from '../domain/errors.js';
import { bundleFieldLimits, checkLength, checkMemberCount } from '../domain/field-limits.js';
import type { ItemSort } from '../domain/feed.js';
import { newBundleId } from '../domain/ids.js';
import { noFilters, patchKeepBlock, type KeepBlock } from '../domain/keep-block.js';
import { parsePage, type ListEnvelope, type PageQuery } from '../domain/pagination.js';
import { userIcon } from '../domain/safe-url.js';
import { shownBundledItem, type BundleWithItems } from '../domain/shown-item.js';
import { bundleContent, customAuthorsOf, liveMembers } from './bundle-items.js';
import type { DeletionResult } from './delete-feed.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';
import { filterEpoch } from './shown-items.js';

export type BundleDeps = Pick<AppDeps, 'bundles' | 'feeds' | 'items' | 'clock' | 'random'>;

/** The caller's live bundle, or `bundle_not_found` (another account's bundle is not found, never forbidden). */
export async function findBundle(deps: Pick<AppDeps, 'bundles'>, principal: Principal, bundleId: string): Promise<Bundle> {
  const lookup = await deps.bundles.get(principal.accountId, bundleId);
  if (lookup.state === 'present') return lookup.bundle;
  const why = lookup.state === 'deleted' ? 'was deleted' : 'does not exist in this account';
  throw new FeedmillError('bundle_not_found', `Bundle \`${bundleId}\` ${why}; list your bundles with GET /v1/bundles`);
}

/** Each item keeps the custom author of the feed it came from. */
async function withItems(deps: BundleDeps, bundle: Bundle, sort?: ItemSort): Promise<BundleWithItems> {
  const content = await bundleContent(deps, bundle, sort);
  const authors = customAuthorsOf(content.feeds);
  return { bundle, items: content.items.map((item) => shownBundledItem(item, authors.get(item.feedId) ?? null)) };
}

/** Re-reads a bundle changed a moment ago; it may have been deleted in between. */
const stillThere = async (deps: BundleDeps, principal: Principal, bundleId: string, bundle: Bundle | undefined): Promise<Bundle> =>
  bundle ?? findBundle(deps, principal, bundleId);

/** POST /v1/bundles: every listed feed must be the caller's (404 otherwise); duplicates count once. */
export async function createBundle(
  deps: BundleDeps,
  principal: Principal,
  input: { name: string; feeds: string[] },
): Promise<BundleWithItems> {
  checkLength('name', input.name, bundleFieldLimits.name, 1);
  const feedIds = [...new Set(input.feeds)];
  checkMemberCount(feedIds.length);
  for (const feedId of feedIds) await findFeed(deps, principal, feedId);
  const now = deps.clock.now().toISOString();
  const bundle: Bundle = {
    id: newBundleId(deps.random),
    accountId: principal.accountId,
    name: input.name,
    description: '',
    icon: '',
    feedIds,
    sort: 'last_added',
    filters: noFilters,
    createdAt: now,
    updatedAt: now,
  };
  await deps.bundles.insert(bundle);
  return withItems(deps, bundle);
}

/** GET /v1/bundles/:id: merged items of its feeds; without `sort`, the bundle's preference. */
export async function getBundle(deps: BundleDeps, principal: Principal, bundleId: string, sort?: ItemSort): Promise<BundleWithItems> {
  return (await viewBundle(deps, principal, bundleId, sort)).content();
}

/** What GET /v1/bundles/:id shows: a version stamp read from the bundle and its members' rows, and the costly merge on demand. */
export interface BundleView {
  /**
   * Changes whenever the content does: every bundle field, the sort shown, and per member still
   * there (and the caller's) its settings (filters, `customAuthor`) and the hash of the last
   * document read (see FeedView), plus the minute when filters judge by age.
   */
  version: string;
  content(): Promise<BundleWithItems>;
}

export async function viewBundle(deps: BundleDeps, principal: Principal, bundleId: string, sort?: ItemSort): Promise<BundleView> {
  const bundle = await findBundle(deps, principal, bundleId);
  const live = await liveMembers(deps, bundle);
  return {
    version: JSON.stringify([
      bundle,
      sort ?? bundle.sort,
      live.map((feed) => [feed.id, feed.settings, feed.fetch.bodyHash]),
      filterEpoch(deps, [bundle.filters, ...live.map((feed) => feed.settings.filters)]),
    ]),
    content: () => withItems(deps, bundle, sort),
  };
}

/** GET /v1/bundles: newest first, without items. */
export async function listBundles(deps: BundleDeps, principal: Principal, query: PageQuery): Promise<ListEnvelope<Bundle>> {
  const page = parsePage(query);
  const { total, bundles } = await deps.bundles.list(principal.accountId, page);
  return { total, offset: page.offset, limit: page.limit, data: bundles };
}

/** PATCH /v1/bundles/:id: name, description, icon. */
export async function updateBundle(deps: BundleDeps, principal: Principal, bundleId: string, patch: BundlePatch): Promise<BundleWithItems> {
  checkLength('name', patch.name, bundleFieldLimits.name, 1);
  checkLength('description', patch.description, bundleFieldLimits.description);
  checkLength('icon', patch.icon, bundleFieldLimits.icon);
  const checked = patch.icon === undefined ? patch : { ...patch, icon: userIcon(patch.icon) };
  await findBundle(deps, principal, bundleId);
  const updated = await deps.bundles.update(principal.accountId, bundleId, checked, deps.clock.now().toISOString());
  return withItems(deps, await stillThere(deps, principal, bundleId, updated));
}

/** PUT /v1/bundles/:id/feeds/:feedId: the feed must be the caller's; adding it twice is harmless. */
export async function addFeedToBundle(deps: BundleDeps, principal: Principal, bundleId: string, feedId: string): Promise<BundleWithItems> {
  const bundle = await findBundle(deps, principal, bundleId);
  if (!bundle.feedIds.includes(feedId)) checkMemberCount(bundle.feedIds.length + 1);
  await findFeed(deps, principal, feedId);
  const updated = await deps.bundles.addFeed(principal.accountId, bundleId, feedId, deps.clock.now().toISOString());
  return withItems(deps, await stillThere(deps, principal, bundleId, updated));
}

/** DELETE /v1/bundles/:id/feeds/:feedId: the bundle without items (spec). */
export async function removeFeedFromBundle(deps: BundleDeps, principal: Principal, bundleId: string, feedId: string): Promise<Bundle> {
  const bundle = await findBundle(deps, principal, bundleId);
  if (!bundle.feedIds.includes(feedId)) {
    throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` is not in bundle \`${bundleId}\``);
  }
  const updated = await deps.bundles.removeFeed(principal.accountId, bundleId, feedId, deps.clock.now().toISOString());
  return stillThere(deps, principal, bundleId, updated);
}

/** DELETE /v1/bundles/:id; a second delete says the bundle was already deleted (spec Errors rule 2). */
export async function deleteBundle(
  deps: Pick<AppDeps, 'bundles' | 'clock'>,
  principal: Principal,
  bundleId: string,
): Promise<DeletionResult> {
  const lookup = await deps.bundles.get(principal.accountId, bundleId);
  if (lookup.state === 'deleted') throw new FeedmillError('bundle_already_deleted', `Bundle \`${bundleId}\` has already been deleted`);
  if (lookup.state === 'missing' || !(await deps.bundles.markDeleted(principal.accountId, bundleId, deps.clock.now().toISOString()))) {
    throw new FeedmillError(
      'bundle_not_found',
      `Bundle \`${bundleId}\` does not exist in this account; list your bundles with GET /v1/bundles`,
    );
  }
  return { id: bundleId, deleted: true };
}

/** GET /v1/bundles/:id/settings: the default order, and the keep/block filters over its merged items. */
export async function getBundleSettings(deps: Pick<AppDeps, 'bundles'>, principal: Principal, bundleId: string): Promise<BundleSettings> {
  const { sort, filters } = await findBundle(deps, principal, bundleId);
  return { sort, filters };
}

export interface BundleSettings {
  sort: ItemSort;
  filters: KeepBlock;
}

/**
 * PATCH /v1/bundles/:id/settings: `filters` as for a feed (left out keeps, null removes). Filters
 * apply when items are read, so the change shows at once in the bundle and its hosted outputs.
 */
export async function updateBundleSettings(
  deps: Pick<AppDeps, 'bundles' | 'clock'>,
  principal: Principal,
  bundleId: string,
  patch: { filters?: unknown },
): Promise<BundleSettings> {
  const bundle = await findBundle(deps, principal, bundleId);
  const filters = patchKeepBlock(bundle.filters, patch.filters);
  const updated = await deps.bundles.update(principal.accountId, bundleId, { filters }, deps.clock.now().toISOString());
  const { sort, filters: saved } = updated ?? (await findBundle(deps, principal, bundleId));
  return { sort, filters: saved };
}
