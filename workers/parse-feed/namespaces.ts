import { detached } from '../shared/detach.js';
export const xmlNamespace = 'http://www.w3.org/XML/1998/namespace';
export const xmlnsNamespace = 'http://www.w3.org/2000/xmlns/';
export const rdfNamespace = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/**
 * The vocabularies the format readers know, by namespace URI (compared in lower case: feeds
 * misspell the case of iTunes' and Atom's). The label is how the readers name the vocabulary in
 * their `switch`es: `dc:creator` there means (Dublin Core's URI, `creator`), whatever prefix the
 * document bound it to.
 */
const vocabularies = new Map<string, string>([
  ['http://www.w3.org/2005/atom', 'atom'],
  ['http://purl.org/atom/ns#', 'atom'],
  // The names Atom had while it was drafted in 2003 (Echo, Pie, Necho), which early feeds still carry.
  ['http://purl.org/echo/', 'atom'],
  ['http://purl.org/pie/', 'atom'],
  ['http://example.com/necho', 'atom'],
  ['http://example.com/newformat#', 'atom'],
  ['uri/of/echo/namespace#', 'atom'],
  ['http://purl.org/rss/1.0/', 'rss'],
  ['http://my.netscape.com/rdf/simple/0.9/', 'rss'],
  ['http://purl.org/rss/1.0/modules/rss091#', 'rss'],
  ['http://blogs.law.harvard.edu/tech/rss', 'rss'],
  ['http://purl.org/rss/1.0/modules/content/', 'content'],
  ['http://purl.org/dc/elements/1.1/', 'dc'],
  ['http://purl.org/dc/elements/1.0/', 'dc'],
  ['http://purl.org/dc/terms/', 'dcterms'],
  ['http://search.yahoo.com/mrss/', 'media'],
  ['http://search.yahoo.com/mrss', 'media'],
  ['http://video.search.yahoo.com/mrss', 'media'],
  ['http://www.itunes.com/dtds/podcast-1.0.dtd', 'itunes'],
  ['http://www.w3.org/1999/02/22-rdf-syntax-ns#', 'rdf'],
  ['http://www.w3.org/1999/xhtml', 'xhtml'],
  ['http://rssnamespace.org/feedburner/ext/1.0', 'feedburner'],
  [xmlNamespace, 'xml'],
]);

/**
 * The namespace a prefix conventionally names, for documents that use it without declaring it
 * (`<dc:creator>` in a feed with no `xmlns:dc`). Only consulted for undeclared prefixes.
 */
export const conventionalNamespaces: ReadonlyMap<string, string> = new Map([
  ['atom', 'http://www.w3.org/2005/Atom'],
  ['content', 'http://purl.org/rss/1.0/modules/content/'],
  ['dc', 'http://purl.org/dc/elements/1.1/'],
  ['dcterms', 'http://purl.org/dc/terms/'],
  ['media', 'http://search.yahoo.com/mrss/'],
  ['itunes', 'http://www.itunes.com/dtds/podcast-1.0.dtd'],
  ['rdf', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
  ['xhtml', 'http://www.w3.org/1999/xhtml'],
]);

/** The label of a namespace URI (see `vocabularies`); undefined for one no reader knows. */
export function vocabulary(uri: string): string | undefined {
  // Consecutive elements are mostly in one namespace (a whole Atom feed is): one entry remembered.
  if (uri === lastUri) return lastLabel;
  lastLabel = lookUp(uri);
  lastUri = detached(uri);
  return lastLabel;
}

let lastUri = '';
let lastLabel: string | undefined;

function lookUp(uri: string): string | undefined {
  const known = vocabularies.get(uri);
  if (known !== undefined) return known;
  // Every element of an Atom feed carries `…/2005/Atom`: remember each spelling once lower-cased.
  if (spellings.has(uri)) return spellings.get(uri);
  const lower = uri.trim().toLowerCase();
  // UserLand put RSS 2.0 under a namespace of its own, spelled `…/rss2`, `…/rss`, `…/rss2.1`.
  const label = vocabularies.get(lower) ?? (lower.startsWith('http://backend.userland.com/rss') ? 'rss' : undefined);
  if (spellings.size < maxSpellings) spellings.set(detached(uri), label);
  return label;
}

/**
 * URIs as documents spell them, to their label (or none); bounded, since documents choose them.
 * Keys are copies: a URI read from a document is a view into it, and as a key it kept the whole
 * document alive for the life of the process (one per new spelling, up to the bound).
 */
const spellings = new Map<string, string | undefined>();
const maxSpellings = 1000;
