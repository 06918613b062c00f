import { createHash } from 'node:crypto';
import { hostedFeedUrl, shownAuthors } from '../domain/api-shapes.js';
import { renderRss } from '../domain/render/rss.js';
import { itemsShown, type AppDeps } from './deps.js';

export interface HostedDocument {
  body: Buffer;
  etag: string;
  lastModified: string;
}

export type HostedFeedRenderer = (feedId: string) => Promise<HostedDocument | undefined>;

/**
 * Renders a feed's hosted RSS 2.0 document, cached per feed version (metadata, settings and the
 * latest item), so a feed reader polling every minute costs one store read and no rendering.
 */
export function createHostedFeedRenderer(deps: Pick<AppDeps, 'feeds' | 'items' | 'settings'>): HostedFeedRenderer {
  const cache = new Map<string, { version: string; document: HostedDocument }>();
  return async (feedId) => {
    const feed = await deps.feeds.getById(feedId);
    if (!feed) {
      cache.delete(feedId);
      return undefined;
    }
    const lastAdded = (await deps.items.lastAddedAt(feed.id)) ?? feed.createdAt;
    const version = JSON.stringify([feed.updatedAt, lastAdded, feed.settings, feed.fetch.bodyHash]);
    const cached = cache.get(feed.id);
    if (cached?.version === version) return cached.document;
    const items = await deps.items.list(feed.id, feed.settings.sort, itemsShown);
    const updatedAt = lastAdded > feed.updatedAt ? lastAdded : feed.updatedAt;
    const xml = renderRss({
      title: feed.title,
      description: feed.description,
      link: feed.link || feed.sourceUrl,
      selfUrl: hostedFeedUrl(deps.settings.publicUrl, feed.id),
      icon: feed.icon,
      updatedAt,
      items: items.map((item) => ({ ...item, date_published: item.publishedAt, authors: shownAuthors(item, feed.settings.customAuthor) })),
    });
    const body = Buffer.from(xml);
    const document = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      lastModified: new Date(updatedAt).toUTCString(),
    };
    cache.set(feed.id, { version, document });
    return document;
  };
}
