import { FeedmillError } from '../src/domain/errors.js';
import type { NativeFeedFormat, ParsedFeed } from '../src/domain/item.js';
import { readAtom, readAtomEntryDocument } from './parse-feed/atom.js';
import { isCdf, readCdf } from './parse-feed/cdf.js';
import { decodeBody } from './parse-feed/decode.js';
import { detached } from './shared/detach.js';
import { ItemStream } from './parse-feed/item-stream.js';
import { readJsonFeed } from './parse-feed/json-feed.js';
import { vocabulary } from './parse-feed/namespaces.js';
import { readRss, strayRssNamespace } from './parse-feed/rss.js';
import { parseXml, type XmlNode } from './parse-feed/xml-tree.js';
import { webUrl } from './shared/urls.js';

export interface ParseFeedMeta {
  /** The address the document was fetched from: the base for relative links. */
  url: string;
  /** The HTTP Content-Type; only its charset is used (the format is detected from the content). */
  contentType?: string;
  /**
   * The HTTP Content-Location, when the server sent one: the document's own address (RFC 9110
   * §8.7), so relative links resolve against it rather than the URL that was fetched. Resolved
   * against `url`; ignored unless it gives an http(s) URL.
   */
  contentLocation?: string;
}

const advice = 'check that the URL points at an RSS, Atom or JSON Feed document';

/**
 * Parses an RSS 0.9x/1.0/2.0, Atom 0.3/1.0 (a feed or an entry), JSON Feed 1.0/1.1 or CDF document. Synchronous and pure.
 * @throws FeedmillError `not_a_feed` when the document is anything else (an HTML page, other XML, empty, invalid).
 */
export function parseFeed(body: string | Uint8Array, meta: ParseFeedMeta): ParsedFeed {
  const text = decodeBody(body, meta.contentType);
  const start = firstSignificant(text);
  if (start === -1) throw new FeedmillError('not_a_feed', `Expected a feed, got an empty document; ${advice}`);
  const base = documentBase(meta);
  if (text.charCodeAt(start) === 123 /* { */) return { format: 'json_feed', ...readJsonFeed(text.slice(start), base) };
  const markup = markupStart(text, start);
  if (markup === -1)
    throw new FeedmillError('not_a_feed', `Expected a feed, got text that is neither XML nor JSON ("${excerpt(text, start)}"); ${advice}`);
  let root: XmlNode | undefined;
  const stream = new ItemStream(base);
  try {
    root = parseXml(markup === 0 ? text : text.slice(markup), stream.onClose, unnested, strayRssNamespace);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/external entit/i.test(reason)) {
      throw new FeedmillError(
        'not_a_feed',
        'Expected a feed, got XML whose DOCTYPE declares an external entity; feedmill never resolves external entities, so the document is refused. Publish the feed without a DTD',
      );
    }
    throw new FeedmillError('not_a_feed', `Expected a feed, got XML that cannot be parsed (${reason}); ${advice}`);
  }
  if (root === undefined) throw new FeedmillError('not_a_feed', `Expected a feed, got a document with no root element; ${advice}`);
  // V8 may hold a call's closures for a while after it returns (an optimising compile in flight
  // keeps the ones it inlines), and a reader's closure holds the stream: emptied, it holds no
  // element, so nothing keeps the document (test/workers/parse-feed-retention.test.ts).
  try {
    switch (root.local.toLowerCase()) {
      case 'rss':
        return withDetachedHead(readRss(root, base, stream.read), 'rss');
      case 'rdf':
        return withDetachedHead(readRss(root, base, stream.read), 'rdf');
      case 'feed':
        return withDetachedHead(readAtom(root, base, stream.read), 'atom');
      // `<entry>` is too common a name to take outside Atom's namespace, where any vocabulary may use it.
      case 'entry':
        if (vocabulary(root.uri) === 'atom') return withDetachedHead(readAtomEntryDocument(root, base), 'atom');
        break;
      case 'channel':
        return withDetachedHead(isCdf(root) ? readCdf(root, base) : readRss(root, base, stream.read), 'rss');
      case 'html':
        throw new FeedmillError(
          'not_a_feed',
          `Expected a feed, got an HTML page; the page may link to its feed in a <link rel="alternate"> element: use that address`,
        );
    }
    throw new FeedmillError(
      'not_a_feed',
      `Expected a feed (root element <rss>, <rdf:RDF>, <feed>, Atom's <entry> or CDF's <CHANNEL>), got XML with root element <${root.name}>; ${advice}`,
    );
  } finally {
    stream.release();
  }
}

/** The feed's own fields copied out of the document, as finishItem copies each item's (see detach.ts). */
function withDetachedHead(feed: ParsedFeed, format: NativeFeedFormat): ParsedFeed {
  const head = {
    format,
    ...feed,
    title: detached(feed.title),
    description: detached(feed.description),
    link: detached(feed.link),
    icon: detached(feed.icon),
  };
  if (feed.categories !== undefined) head.categories = feed.categories.map(detached);
  return head;
}

/** An item or an entry never holds another: an `<item>` opened inside one means that one was left unclosed. */
const unnested: ReadonlySet<string> = new Set(['item', 'entry']);

/** How far into a document an XML declaration is looked for behind what a server printed first. */
const declarationWindow = 64 * 1024;

/**
 * Where the XML starts: the first `<`, unless an XML declaration comes later. A declaration may
 * only stand at the very start of a document, so whatever precedes one is output the server
 * printed first, such as PHP's warnings before a WordPress feed (`<br />\n<b>Warning</b>: …`),
 * which would otherwise be read as the document element.
 */
function markupStart(text: string, start: number): number {
  const first = text.indexOf('<', start);
  if (first === -1 || text.startsWith('<?xml', first)) return first;
  const declaration = text.indexOf('<?xml', first);
  return declaration !== -1 && declaration < declarationWindow ? declaration : first;
}

/** The first character that is not whitespace (garbage before `<?xml` is tolerated later). */
function firstSignificant(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13 && code !== 0xfeff) return i;
  }
  return -1;
}

/** Content-Location when it names a web address, else the fetched URL when it parses; xml:base nests inside it. */
function documentBase(meta: ParseFeedMeta): string | undefined {
  const fetched = URL.canParse(meta.url) ? meta.url : undefined;
  const location = meta.contentLocation === undefined ? '' : webUrl(meta.contentLocation, fetched);
  return location === '' ? fetched : location;
}

function excerpt(text: string, start: number): string {
  return text.slice(start, start + 40).replace(/\s+/g, ' ');
}
