import { createHash } from 'node:crypto';
import { hostedFeedUrl, hostedHubUrl, type HostedFormat } from '../domain/hosted-urls.js';
import { shownAuthors } from '../domain/shown-item.js';
import { isBundleId } from '../domain/ids.js';
import { shownUrl } from '../domain/safe-url.js';
import { hostedFormats } from '../formats/hosted-formats.js';
import type { RenderableFeed } from '../formats/rss.js';
import type { StoredItem } from '../domain/stored-item.js';
import { bundleContent, customAuthorsOf } from './bundle-items.js';
import { itemsShown, type AppDeps } from './deps.js';
import { createLru } from '../caches/lru.js';
import { feedItems, filterEpoch } from './shown-items.js';

export interface HostedDocument {
  body: Buffer;
  /** Strong, from the bytes: each format of a feed has its own. */
  etag: string;
  lastModified: string;
  /** This document's own hosted address (rel="self"). */
  selfUrl: string;
  hubUrl: string;
}

export type HostedFeedRenderer = (id: string, format: HostedFormat) => Promise<HostedDocument | undefined>;

/** What the source gives, less the addresses, which depend on the format asked for. */
type HostedContent = Omit<RenderableFeed, 'selfUrl' | 'hubUrl'>;

type HostedDeps = Pick<AppDeps, 'feeds' | 'items' | 'bundles' | 'settings' | 'clock'>;

/** What a hosted document is made of: a cheap version stamp, and the costly content on demand. */
interface HostedSource {
  version: string;
  content(): Promise<HostedContent>;
}

const later = (a: string, b: string): string => (a > b ? a : b);

const renderable = (items: readonly StoredItem[], authors: ReadonlyMap<string, string | null>) =>
  items.map((item) => ({
    ...item,
    url: shownUrl(item.url),
    thumbnail: item.thumbnail === null ? null : shownUrl(item.thumbnail) || null,
    enclosures: item.enclosures.filter((enclosure) => shownUrl(enclosure.url) !== ''),
    date_published: item.publishedAt,
    authors: shownAuthors(item, authors.get(item.feedId) ?? null),
  }));

/**
 * A feed's version is read from its own record alone, one store read per request: every field
 * shown, the settings, and the hash of the last document read. Items are written only by a
 * refresh (or the first fetch), which saves the new hash right after storing them.
 */
async function feedSource(deps: HostedDeps, id: string): Promise<HostedSource | undefined> {
  const feed = await deps.feeds.getById(id);
  if (!feed) return undefined;
  // Full text: an article arriving changes what is shown, and touches nothing of the feed's record.
  const articles = feed.settings.fullText ? await deps.items.articlesStamp(feed.id) : '';
  return {
    version: JSON.stringify([
      articles,
      feed.title,
      feed.description,
      feed.link,
      feed.sourceUrl,
      feed.icon,
      feed.updatedAt,
      feed.settings,
      feed.fetch.bodyHash,
      filterEpoch(deps, [feed.settings.filters]),
    ]),
    content: async () => ({
      title: feed.title,
      description: feed.description,
      link: shownUrl(feed.link) || feed.sourceUrl,
      icon: shownUrl(feed.icon),
      updatedAt: later((await deps.items.lastAddedAt(feed.id)) ?? feed.createdAt, feed.updatedAt),
      items: renderable(
        await feedItems(deps, feed, feed.settings.sort, itemsShown, 'announced'),
        new Map([[feed.id, feed.settings.customAuthor]]),
      ),
    }),
  };
}

async function bundleSource(deps: HostedDeps, id: string): Promise<HostedSource | undefined> {
  const bundle = await deps.bundles.getById(id);
  if (!bundle) return undefined;
  const members = await Promise.all(
    bundle.feedIds.map(async (feedId) => {
      const feed = await deps.feeds.getById(feedId);
      const articles = feed?.settings.fullText ? await deps.items.articlesStamp(feedId) : '';
      return [feed, await deps.items.lastAddedAt(feedId), articles] as const;
    }),
  );
  let updatedAt = bundle.updatedAt;
  for (const [feed, lastAdded] of members) if (feed) updatedAt = later(updatedAt, later(feed.updatedAt, lastAdded ?? ''));
  return {
    version: JSON.stringify([
      updatedAt,
      members.map(([feed, , articles]) => [feed?.settings, feed?.fetch.bodyHash, articles]),
      bundle.filters,
      filterEpoch(deps, [bundle.filters, ...members.flatMap(([feed]) => (feed ? [feed.settings.filters] : []))]),
    ]),
    content: async () => {
      const { feeds, items } = await bundleContent(deps, bundle);
      return {
        title: bundle.name,
        description: bundle.description,
        link: hostedFeedUrl(deps.settings.publicUrl, bundle.id),
        icon: shownUrl(bundle.icon),
        updatedAt,
        items: renderable(items, customAuthorsOf(feeds)),
      };
    },
  };
}

// Bound the memory the cache may take; the least recently used document goes first.
const maxCached = 2_000;
const maxCachedBytes = 64 * 1024 * 1024;

/**
 * Renders the hosted document of a feed or a bundle (`_` ids) in one of the hosted formats, cached
 * per format and version, so a feed reader polling every minute costs a few store reads and no
 * rendering.
 */
export function createHostedFeedRenderer(deps: HostedDeps): HostedFeedRenderer {
  const cache = createLru<{ version: string; document: HostedDocument }>({
    maxEntries: maxCached,
    maxBytes: maxCachedBytes,
    sizeOf: (entry) => entry.document.body.length,
  });
  return async (id, format) => {
    const key = `${id}.${format}`;
    const source = isBundleId(id) ? await bundleSource(deps, id) : await feedSource(deps, id);
    if (!source) {
      cache.delete(key);
      return undefined;
    }
    const cached = cache.get(key);
    if (cached?.version === source.version) return cached.document;
    const selfUrl = hostedFeedUrl(deps.settings.publicUrl, id, format);
    const hubUrl = hostedHubUrl(deps.settings.publicUrl);
    const content = await source.content();
    const body = Buffer.from(hostedFormats[format].render({ ...content, selfUrl, hubUrl }));
    const document = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      lastModified: new Date(content.updatedAt).toUTCString(),
      selfUrl,
      hubUrl,
    };
    cache.set(key, { version: source.version, document });
    return document;
  };
}
