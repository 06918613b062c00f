import { escapeXml } from './xml-escape.js';

export interface OpmlFeed {
  title: string;
  xmlUrl: string;
  htmlUrl: string;
  hostedUrl: string;
}

export interface OpmlGroup {
  title: string;
  hostedUrl: string;
  feeds: readonly OpmlFeed[];
}

/** Our extension attribute's namespace (OPML 2.0 allows namespaced attributes). */
export const opmlNamespace = 'urn:feedmill:opml';

const feedOutline = (feed: OpmlFeed): string =>
  `<outline type="rss" text="${escapeXml(feed.title)}" title="${escapeXml(feed.title)}" xmlUrl="${escapeXml(feed.xmlUrl)}"` +
  `${feed.htmlUrl ? ` htmlUrl="${escapeXml(feed.htmlUrl)}"` : ''} feedmill:hostedUrl="${escapeXml(feed.hostedUrl)}"/>`;

/**
 * OPML 2.0: every feed with `xmlUrl` = its source; bundles as outline groups holding their feeds;
 * feeds in no bundle at the top. Each outline also carries its hosted address as
 * `feedmill:hostedUrl`, which other readers ignore.
 */
export function renderOpml(title: string, createdAt: string, groups: readonly OpmlGroup[], loose: readonly OpmlFeed[]): string {
  const group = (entry: OpmlGroup): string =>
    `<outline text="${escapeXml(entry.title)}" title="${escapeXml(entry.title)}" feedmill:hostedUrl="${escapeXml(entry.hostedUrl)}">${entry.feeds.map(feedOutline).join('')}</outline>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<opml version="2.0" xmlns:feedmill="${opmlNamespace}">` +
    `<head><title>${escapeXml(title)}</title><dateCreated>${new Date(createdAt).toUTCString()}</dateCreated></head>` +
    `<body>${groups.map(group).join('')}${loose.map(feedOutline).join('')}</body></opml>\n`
  );
}
