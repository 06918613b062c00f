import type { RenderableFeed, RenderableItem } from './rss.js';

// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): empty optional fields are left out, not sent empty.
const present = (value: string): string | undefined => value || undefined;

function renderItem(item: RenderableItem): Record<string, unknown> {
  return {
    id: item.key,
    url: present(item.url),
    title: item.title,
    // The spec asks for content_html or content_text; an item without a description still has its title.
    content_html: item.description_html,
    image: item.thumbnail ?? undefined,
    date_published: item.date_published,
    authors: item.authors.length > 0 ? item.authors.map((author) => ({ name: author.name })) : undefined,
    tags: item.categories.length > 0 ? item.categories : undefined,
    attachments:
      item.enclosures.length > 0
        ? item.enclosures.map((enclosure) => ({
            url: enclosure.url,
            mime_type: enclosure.type ?? 'application/octet-stream',
            size_in_bytes: enclosure.length,
          }))
        : undefined,
  };
}

/** JSON Feed 1.1, with the WebSub hub in `hubs`; a pure builder. */
export function renderJsonFeed(feed: RenderableFeed): string {
  return `${JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: present(feed.link),
    feed_url: feed.selfUrl,
    description: present(feed.description),
    icon: present(feed.icon),
    hubs: [{ type: 'WebSub', url: feed.hubUrl }],
    items: feed.items.map(renderItem),
  })}\n`;
}
