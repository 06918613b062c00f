import { createLru } from '../caches/lru.js';
import type { Principal } from '../domain/api-key.js';
import { randomToken } from '../domain/ids.js';
import { parsePageSelectors } from '../domain/page-selectors.js';
import type { RenderMode } from '../domain/render-mode.js';
import { shownItem } from '../domain/shown-item.js';
import { diffItems } from '../domain/item-diff.js';
import type { StoredItem } from '../domain/stored-item.js';
import { parseSourceUrl } from '../domain/source-url.js';
import type { AppDeps } from './deps.js';
import { readablePage } from './discover-feeds.js';

/**
 * A page as a create would read it, kept for a person pointing at its items (the dashboard's
 * picker): the frame shows it and the live list reads it, so both see the same HTML.
 */
export interface PageSnapshot {
  /** The address the person gave, and the one the page came from (after redirects). */
  requestedUrl: string;
  url: string;
  body: Uint8Array;
  contentType?: string;
  contentLocation?: string;
  /** The page as a browser left it: a feed made from it must be rendered too (`render: always`). */
  rendered: boolean;
  /** The `render` a feed made from it needs to read this very page: the mode asked for, or `always` when it was rendered. */
  render: RenderMode;
}

type SnapshotDeps = Pick<AppDeps, 'fetcher' | 'fetcherWithBudget' | 'renderer' | 'parser' | 'settings'>;

/** A snapshot takes the address and, when the page is rendered, the browser: a couple of fetches at most. */
const snapshotFetchBudget = 2;

/**
 * Reads the page at `url` once, as creating a feed with `render` would (discover-feeds `readablePage`).
 * @throws FeedmillError `validation_failed` on `url` or `render`, or the source's failure
 */
export async function takePageSnapshot(deps: SnapshotDeps, input: { url: string; render: RenderMode }): Promise<PageSnapshot> {
  const url = parseSourceUrl(input.url);
  const page = await readablePage({ ...deps, fetcher: deps.fetcherWithBudget(snapshotFetchBudget) }, url, { render: input.render });
  const shown = page.rendered ?? page.fetched;
  return {
    requestedUrl: url.href,
    url: shown.url,
    body: shown.body,
    ...(shown.contentType ? { contentType: shown.contentType } : {}),
    ...(shown.contentLocation ? { contentLocation: shown.contentLocation } : {}),
    rendered: page.rendered !== undefined,
    render: page.rendered !== undefined ? 'always' : input.render,
  };
}

/**
 * The items `selectors` (as a person typed them, checked here) give on the snapshot, read by the
 * same extractor path a feed with them uses (extract-page's selected items, in the pool), and
 * identified as a create's first run would store them.
 * @throws FeedmillError `validation_failed` naming the selector (`selectors.title`), or `no_items_found`
 */
export async function snapshotItems(
  deps: Pick<AppDeps, 'parser' | 'clock'>,
  snapshot: PageSnapshot,
  selectors: unknown,
): Promise<StoredItem[]> {
  const checked = parsePageSelectors(selectors);
  const meta = { url: snapshot.url, contentType: snapshot.contentType, contentLocation: snapshot.contentLocation, selectors: checked };
  const parsed = await deps.parser.extractPage(snapshot.body, meta);
  const now = deps.clock.now().toISOString();
  return diffItems('', parsed.items, new Map(), now).fresh.map((item) => shownItem(item, null));
}

/** How long a snapshot is kept: long enough to pick a page's items, short enough that a stale page is fetched again. */
export const snapshotTtlMs = 15 * 60_000;
const maxSnapshots = 32;
/** Bytes of all snapshots kept by one process. */
const maxSnapshotBytes = 32 * 1024 * 1024;

/**
 * Snapshots of one process, by a random token the picker page carries, each readable only by the
 * account that took it. A miss (expired, pushed out, another process) takes the page again, and
 * callers asking at once share one reading.
 */
export interface SnapshotCache {
  /** The snapshot under `token` when it is this account's and of this address and mode; else a fresh one, kept under `token`. */
  get(principal: Principal, token: string, input: { url: string; render: RenderMode }): Promise<PageSnapshot>;
  /** A new token, for a page that is about to take a snapshot. */
  newToken(): string;
}

interface Entry {
  accountId: string;
  url: string;
  /** The mode asked for, and once read the one the snapshot stands for (`always` when `auto` rendered it). */
  render: RenderMode;
  effective?: RenderMode;
  takenAt: number;
  snapshot: Promise<PageSnapshot>;
  bytes: number;
}

export function createSnapshotCache(deps: SnapshotDeps & Pick<AppDeps, 'clock' | 'random'>): SnapshotCache {
  const entries = createLru<Entry>({ maxEntries: maxSnapshots, maxBytes: maxSnapshotBytes, sizeOf: (entry) => entry.bytes });
  return {
    newToken: () => randomToken(deps.random, 24),
    async get(principal, token, input) {
      const now = deps.clock.now().getTime();
      const kept = entries.get(token);
      if (
        kept &&
        kept.accountId === principal.accountId &&
        kept.url === input.url &&
        (kept.render === input.render || kept.effective === input.render) &&
        now - kept.takenAt < snapshotTtlMs
      ) {
        return kept.snapshot;
      }
      const snapshot = takePageSnapshot(deps, input);
      const entry: Entry = { accountId: principal.accountId, url: input.url, render: input.render, takenAt: now, snapshot, bytes: 0 };
      entries.set(token, entry);
      try {
        const taken = await snapshot;
        // Counted once the page is in (the byte budget then pushes the oldest out), unless a newer ask replaced it meanwhile.
        if (entries.get(token) === entry) entries.set(token, { ...entry, effective: taken.render, bytes: taken.body.byteLength });
        return taken;
      } catch (error) {
        // A failure is not kept: the next ask tries again.
        entries.delete(token);
        throw error;
      }
    },
  };
}
