import type { Author } from '../domain/item.js';
import { escapeXml } from './xml-escape.js';

/** What a hosted feed shows; built by the app from a feed or a bundle. */
export interface RenderableFeed {
  title: string;
  description: string;
  /** The site the feed describes. */
  link: string;
  /** The hosted address of this document, in the format being rendered (rel="self"). */
  selfUrl: string;
  /** The WebSub hub that distributes this document (rel="hub"). */
  hubUrl: string;
  icon: string;
  updatedAt: string;
  items: readonly RenderableItem[];
}

export interface RenderableItem {
  key: string;
  url: string;
  title: string;
  description_html: string;
  thumbnail: string | null;
  authors: readonly Author[];
  date_published: string;
  categories: readonly string[];
  enclosures: readonly { url: string; type?: string; length?: number }[];
}

const element = (name: string, text: string): string => (text ? `<${name}>${escapeXml(text)}</${name}>` : '');

// RSS 2.0 dates are RFC 822; toUTCString() gives the RFC 7231 IMF-fixdate form, which is one of them.
const rfc822 = (iso: string): string => new Date(iso).toUTCString();

function renderItem(item: RenderableItem): string {
  const parts = [
    element('title', item.title),
    element('link', item.url),
    `<guid isPermaLink="false">${escapeXml(item.key)}</guid>`,
    element('pubDate', rfc822(item.date_published)),
    element('description', item.description_html),
    ...item.authors.map((author) => element('dc:creator', author.name)),
    ...item.categories.map((category) => element('category', category)),
    ...item.enclosures.map(
      (enclosure) =>
        `<enclosure url="${escapeXml(enclosure.url)}" length="${enclosure.length ?? 0}" type="${escapeXml(enclosure.type ?? 'application/octet-stream')}"/>`,
    ),
    item.thumbnail ? `<media:thumbnail url="${escapeXml(item.thumbnail)}"/>` : '',
  ];
  return `<item>${parts.join('')}</item>`;
}

/** RSS 2.0 with the atom, dc and media namespaces; a pure string builder. */
export function renderRss(feed: RenderableFeed): string {
  const image = feed.icon
    ? `<image><url>${escapeXml(feed.icon)}</url>${element('title', feed.title)}${element('link', feed.link)}</image>`
    : '';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">' +
    '<channel>' +
    `<title>${escapeXml(feed.title)}</title>` +
    `<link>${escapeXml(feed.link || feed.selfUrl)}</link>` +
    `<description>${escapeXml(feed.description || feed.title)}</description>` +
    `<atom:link href="${escapeXml(feed.selfUrl)}" rel="self" type="application/rss+xml"/>` +
    `<atom:link href="${escapeXml(feed.hubUrl)}" rel="hub"/>` +
    '<generator>feedmill</generator>' +
    `<lastBuildDate>${rfc822(feed.updatedAt)}</lastBuildDate>` +
    image +
    feed.items.map(renderItem).join('') +
    '</channel></rss>\n'
  );
}
