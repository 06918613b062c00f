import type { PageElement } from './dom.js';
import { textOf, walkElements } from './walk.js';

/** One article as JSON-LD states it; every field may be missing. */
export interface LdArticle {
  url: string | null;
  title: string | null;
  description: string | null;
  image: string | null;
  datePublished: string | null;
  authors: string[];
  /** From an ItemList (a listing), rather than a standalone article node (the page itself). */
  listed: boolean;
}

const articleTypes = new Set([
  'article',
  'newsarticle',
  'blogposting',
  'techarticle',
  'scholarlyarticle',
  'report',
  'reportagenewsarticle',
  'analysisnewsarticle',
  'opinionnewsarticle',
  'socialmediaposting',
  'liveblogposting',
  'posting',
  'podcastepisode',
  'videoobject',
  'creativework',
  'review',
  'recipe',
  'event',
  'product',
  'episode',
]);

/** Lists whose entries are the page's place in the site, not its content. */
const ignoredLists = new Set(['breadcrumblist', 'sitenavigationelement']);

/**
 * Articles stated in the page's JSON-LD: the entries of ItemLists (in `position` order), the posts
 * of a Blog, and standalone Article-like nodes, `@graph` included. Walks the JSON with a stack.
 */
export function readJsonLd(root: PageElement): LdArticle[] {
  const listed: { article: LdArticle; position: number }[] = [];
  const standalone: LdArticle[] = [];
  for (const data of jsonLdScripts(root)) {
    const stack: unknown[] = [data];
    let budget = 20_000; // nodes; a hostile page cannot make this walk unbounded
    while (stack.length > 0 && budget-- > 0) {
      const node = stack.pop();
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
        continue;
      }
      if (!isObject(node)) continue;
      const types = typesOf(node);
      if (types.some((type) => ignoredLists.has(type))) continue;
      if (types.includes('itemlist') || types.includes('collectionpage') || types.includes('blog')) {
        const entries = asArray(node['itemListElement'] ?? node['blogPost'] ?? node['hasPart'] ?? node['mainEntity']);
        entries.forEach((entry, index) => {
          const article = listEntry(entry);
          if (article !== null) listed.push({ article, position: positionOf(entry, index) });
        });
        continue;
      }
      if (types.some((type) => articleTypes.has(type))) standalone.push(toArticle(node, false));
      if (node['@graph'] !== undefined) stack.push(node['@graph']);
      if (node['mainEntity'] !== undefined) stack.push(node['mainEntity']);
    }
  }
  if (listed.length > 0) return listed.sort((a, b) => a.position - b.position).map((entry) => entry.article);
  return standalone;
}

function jsonLdScripts(root: PageElement): unknown[] {
  const found: unknown[] = [];
  walkElements(root, (element) => {
    if (element.name !== 'script') return undefined;
    if ((element.attribs['type'] ?? '').trim().toLowerCase() === 'application/ld+json') {
      try {
        found.push(JSON.parse(textOf(element).replace(/^\s*<!--|-->\s*$/g, '')) as unknown);
      } catch {
        // A broken block is the publisher's typo; the rest of the page still counts.
      }
    }
    return false;
  });
  return found;
}

function listEntry(entry: unknown): LdArticle | null {
  if (typeof entry === 'string')
    return { url: entry, title: null, description: null, image: null, datePublished: null, authors: [], listed: true };
  if (!isObject(entry)) return null;
  const item = entry['item'];
  // ListItem.item may be the article node, or only its URL.
  if (isObject(item)) {
    const article = toArticle(item, true);
    article.url ??= stringOf(entry['url']);
    article.title ??= stringOf(entry['name']);
    return article;
  }
  const article = toArticle(entry, true);
  article.url ??= stringOf(item);
  return article;
}

function toArticle(node: Record<string, unknown>, listed: boolean): LdArticle {
  return {
    url: stringOf(node['url']) ?? stringOf(node['@id']) ?? stringOf(node['mainEntityOfPage']),
    title: stringOf(node['headline']) ?? stringOf(node['name']),
    description: stringOf(node['description']) ?? stringOf(node['abstract']),
    image: imageOf(node['image'] ?? node['thumbnailUrl']),
    datePublished: stringOf(node['datePublished']) ?? stringOf(node['dateCreated']) ?? stringOf(node['uploadDate']),
    authors: asArray(node['author'])
      .map((author) => (isObject(author) ? stringOf(author['name']) : stringOf(author)))
      .filter((name): name is string => name !== null),
    listed,
  };
}

function positionOf(entry: unknown, index: number): number {
  const position = isObject(entry) ? Number(entry['position']) : Number.NaN;
  return Number.isFinite(position) ? position : index + 1;
}

function imageOf(value: unknown): string | null {
  const first = asArray(value)[0];
  if (isObject(first)) return stringOf(first['url']) ?? stringOf(first['contentUrl']);
  return stringOf(first);
}

function typesOf(node: Record<string, unknown>): string[] {
  return asArray(node['@type'])
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.toLowerCase().replace(/^.*[/:]/, ''));
}

function stringOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (isObject(value)) return stringOf(value['@id']) ?? stringOf(value['url']);
  return null;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
