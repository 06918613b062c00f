import type { RenderableFeed, RenderableItem } from './rss.js';
import { escapeXml } from './xml-escape.js';

const element = (name: string, text: string): string => (text ? `<${name}>${escapeXml(text)}</${name}>` : '');
const link = (rel: string, href: string, type?: string): string =>
  href ? `<link rel="${rel}" href="${escapeXml(href)}"${type ? ` type="${escapeXml(type)}"` : ''}/>` : '';
const person = (name: string): string => `<author><name>${escapeXml(name)}</name></author>`;

/**
 * RFC 4287 §4.2.6: atom:id is an IRI that never changes. An item key is opaque text, so it is
 * carried in a `urn:feedmill:` IRI, percent-encoded; the same key always gives the same id.
 */
export const atomEntryId = (key: string): string => `urn:feedmill:item:${encodeURIComponent(key)}`;

function renderEntry(item: RenderableItem): string {
  const parts = [
    `<id>${escapeXml(atomEntryId(item.key))}</id>`,
    `<title type="text">${escapeXml(item.title)}</title>`,
    // RFC 4287 §4.1.2: atom:updated is required; an item's last change is not kept apart from its date.
    `<updated>${item.date_published}</updated>`,
    `<published>${item.date_published}</published>`,
    link('alternate', item.url),
    ...item.authors.map((author) => person(author.name)),
    ...item.categories.map((category) => `<category term="${escapeXml(category)}"/>`),
    ...item.enclosures.map(
      (enclosure) =>
        `<link rel="enclosure" href="${escapeXml(enclosure.url)}" type="${escapeXml(enclosure.type ?? 'application/octet-stream')}"${enclosure.length ? ` length="${enclosure.length}"` : ''}/>`,
    ),
    item.description_html ? `<content type="html">${escapeXml(item.description_html)}</content>` : '',
  ];
  return `<entry>${parts.join('')}</entry>`;
}

/**
 * Atom 1.0 (RFC 4287); a pure string builder. The feed-level author is the feed's title: §4.1.1
 * requires an author on every entry that has none of its own, and a feed-level one satisfies it.
 */
export function renderAtom(feed: RenderableFeed): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${escapeXml(feed.selfUrl)}</id>` +
    `<title type="text">${escapeXml(feed.title)}</title>` +
    (feed.description ? `<subtitle type="text">${escapeXml(feed.description)}</subtitle>` : '') +
    `<updated>${feed.updatedAt}</updated>` +
    link('alternate', feed.link || feed.selfUrl) +
    link('self', feed.selfUrl, 'application/atom+xml') +
    link('hub', feed.hubUrl) +
    person(feed.title || 'feedmill') +
    element('icon', feed.icon) +
    '<generator>feedmill</generator>' +
    feed.items.map(renderEntry).join('') +
    '</feed>\n'
  );
}
