import type { PageElement } from './dom.js';
import { absoluteUrl } from './urls.js';
import { textOf, walkElements } from './walk.js';

export interface FeedLink {
  url: string;
  type: 'rss' | 'atom' | 'json';
  title: string;
}

/** What the page says about itself in `<head>` (and the few `<link>`/`<meta>` found in bodies). */
export interface PageMeta {
  /** The base for relative links: `<base href>` resolved against the page URL, else the page URL. */
  base: string;
  /** The site's name for the feed: og:site_name, og:title, `<title>`. */
  title: string;
  /** The page's own title (og:title, `<title>`), for when the page is one article. */
  pageTitle: string;
  description: string;
  link: string;
  icon: string;
  feedLinks: FeedLink[];
  /** og:image, absolute; used as a thumbnail only when the page is a single article. */
  image: string | null;
  /** og:type / article meta say this page is one article. */
  isArticle: boolean;
  /** article:published_time and its kin, raw. */
  publishedTime: string | null;
  author: string | null;
}

const feedTypes: Record<string, FeedLink['type']> = {
  'application/rss+xml': 'rss',
  'application/atom+xml': 'atom',
  'application/feed+json': 'json',
  'application/json': 'json',
  // Older sites advertise these; readers accept them.
  'application/rdf+xml': 'rss',
  'text/xml': 'rss',
  'application/xml': 'rss',
};

/** Atom and RSS carry richer items than JSON guesses; among equals the page's order stands. */
const typeRank: Record<FeedLink['type'], number> = { atom: 0, rss: 0, json: 1 };

export function readPageMeta(root: PageElement, pageUrl: string): PageMeta {
  const metas = new Map<string, string>();
  const links: PageElement[] = [];
  const anchors: PageElement[] = [];
  let baseHref: string | undefined;
  let titleText = '';
  walkElements(root, (element) => {
    switch (element.name) {
      case 'meta': {
        const key = (element.attribs['property'] ?? element.attribs['name'] ?? element.attribs['itemprop'] ?? '').trim().toLowerCase();
        const content = element.attribs['content'];
        if (key !== '' && content !== undefined && !metas.has(key)) metas.set(key, content.trim());
        return false;
      }
      case 'link':
        links.push(element);
        return false;
      case 'a':
        anchors.push(element);
        return undefined;
      case 'base':
        baseHref ??= element.attribs['href'];
        return false;
      case 'title':
        // An <svg><title> in the body is not the page's title.
        if (titleText === '' && !insideBody(element)) titleText = textOf(element);
        return false;
      default:
        return undefined;
    }
  });
  const base = (baseHref !== undefined ? absoluteUrl(baseHref, pageUrl) : null) ?? pageUrl;
  const canonical = links.find((link) => relTokens(link).includes('canonical'))?.attribs['href'];
  const origin = URL.canParse(pageUrl) ? new URL(pageUrl).origin : '';
  const ogType = (metas.get('og:type') ?? '').toLowerCase();
  const ogImage = metas.get('og:image:secure_url') ?? metas.get('og:image') ?? metas.get('twitter:image');
  return {
    base,
    title: metas.get('og:site_name') || metas.get('og:title') || titleText,
    pageTitle: metas.get('og:title') || titleText,
    description: metas.get('description') || metas.get('og:description') || metas.get('twitter:description') || '',
    link: (canonical !== undefined ? absoluteUrl(canonical, base) : null) ?? pageUrl,
    icon: findIcon(links, base) ?? (origin !== '' ? `${origin}/favicon.ico` : ''),
    feedLinks: withAnchorFeeds(findFeedLinks(links, base), anchors, base),
    image: ogImage !== undefined ? absoluteUrl(ogImage, base) : null,
    isArticle: ogType === 'article' || ogType.startsWith('article:') || metas.has('article:published_time'),
    publishedTime: metas.get('article:published_time') ?? metas.get('datepublished') ?? metas.get('date') ?? metas.get('dc.date') ?? null,
    author: metas.get('author') ?? metas.get('article:author') ?? null,
  };
}

function insideBody(element: PageElement): boolean {
  // <title> sits at depth 2 or 3 in any page (html > head > title); deeper means svg or body.
  return element.depth > 3 && element.parent?.name !== 'head';
}

function relTokens(element: PageElement): string[] {
  return (element.attribs['rel'] ?? '').toLowerCase().split(/\s+/);
}

function findIcon(links: PageElement[], base: string): string | null {
  let best: { href: string; rank: number } | null = null;
  for (const link of links) {
    const rel = relTokens(link);
    const href = link.attribs['href'];
    if (href === undefined || href.trim() === '') continue;
    // A square touch icon is sharper than a 16px favicon; both beat the origin's /favicon.ico.
    const rank = rel.includes('apple-touch-icon') || rel.includes('apple-touch-icon-precomposed') ? 2 : rel.includes('icon') ? 1 : 0;
    if (rank > 0 && (best === null || rank > best.rank)) best = { href, rank };
  }
  return best === null ? null : absoluteUrl(best.href, base);
}

function findFeedLinks(links: PageElement[], base: string): FeedLink[] {
  const found: (FeedLink & { rank: number; position: number })[] = [];
  const seen = new Set<string>();
  for (const link of links) {
    if (!relTokens(link).includes('alternate')) continue;
    const mime = (link.attribs['type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const type = feedTypes[mime];
    const href = link.attribs['href'];
    if (type === undefined || href === undefined) continue;
    const url = absoluteUrl(href, base);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    const title = (link.attribs['title'] ?? '').trim();
    // Comment feeds are feeds, but rarely the one a subscriber wants first.
    const comments = /comment/i.test(title) || /comment/i.test(url) ? 2 : 0;
    found.push({ url, type, title, rank: typeRank[type] + comments + (mime.endsWith('/xml') ? 1 : 0), position: found.length });
  }
  found.sort((a, b) => a.rank - b.rank || a.position - b.position);
  return found.map(({ url, type, title }) => ({ url, type, title }));
}

/** The path of an address that is a feed by the names sites give their feeds (`/feed`, `index.xml`, `.rss`). */
const feedPath = /(?:\.(?:rss|atom)|\/(?:feed|rss|atom)\/?|\/(?:feed|rss|atom|index)\.(?:xml|json))$/i;
/** A page lists a few feed links at most; more are a directory of other sites' feeds, not this one's. */
const maxAnchorFeeds = 5;

/**
 * After the `<link rel="alternate">` feeds, the `<a>` links to feeds in the page ("RSS" buttons): by
 * their `type`, else by a path that names a feed. They come second: a `<link>` is the page's own
 * statement of its feed.
 */
function withAnchorFeeds(advertised: FeedLink[], anchors: PageElement[], base: string): FeedLink[] {
  const seen = new Set(advertised.map((link) => link.url));
  const found: FeedLink[] = [];
  for (const anchor of anchors) {
    if (found.length === maxAnchorFeeds) break;
    const href = anchor.attribs['href'];
    const url = href === undefined ? null : absoluteUrl(href, base);
    if (url === null || seen.has(url) || !/^https?:/.test(url)) continue;
    const mime = (anchor.attribs['type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const path = new URL(url).pathname;
    const type =
      feedTypes[mime] ?? (feedPath.test(path) ? (/atom/i.test(path) ? 'atom' : /\.json$/i.test(path) ? 'json' : 'rss') : undefined);
    if (type === undefined) continue;
    seen.add(url);
    found.push({ url, type, title: textOf(anchor).trim() });
  }
  return [...advertised, ...found];
}
