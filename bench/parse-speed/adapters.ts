/**
 * One adapter per parser in the speed benchmark. Each takes the fetched bytes (what the service
 * has) and resolves to the number of items the parser produced; decoding bytes to a string is
 * part of the measured work for every parser. Modules are imported lazily, so a child process
 * loads only the parser it measures.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import type FeedParser from 'feedparser';
import type RssParser from 'rss-parser';

export interface Document {
  body: Buffer;
  contentType?: string;
}

export interface Adapter {
  parse(document: Document): number | Promise<number>;
  close?(): Promise<void>;
}

export const parserNames = [
  'feedmill',
  'feedmill-pool',
  'rss-parser',
  'feed-extractor',
  'feed-extractor-trimmed',
  'feedparser',
  'fast-xml-parser',
  'htmlparser2-sax',
  'saxes-sax',
] as const;
export type ParserName = (typeof parserNames)[number];

/** The service always passes the fetch URL, so relative links are resolved as in production. */
const url = 'https://bench.example.org/feed.xml';
// rss-parser and feedparser are CommonJS `export =` modules: require gives the class itself.
const require = createRequire(import.meta.url);

export async function loadAdapter(name: ParserName): Promise<Adapter> {
  switch (name) {
    case 'feedmill': {
      const { parseFeed } = await import('../../workers/parse-feed.js');
      return { parse: (doc) => parseFeed(doc.body, meta(doc)).items.length };
    }
    case 'feedmill-pool': {
      const { createParserPool } = await import('../../src/adapters/piscina/parser-pool.js');
      const task = (file: string) => fileURLToPath(new URL(`../../workers/${file}`, import.meta.url));
      // One thread: documents go one at a time, so this measures the hop (clone in, clone out), not parallelism.
      const pool = createParserPool({
        tasks: { feed: task('parse-feed-task.js'), page: task('extract-page-task.js'), article: task('extract-article-task.js') },
        maxThreads: 1,
        timeoutMs: 120_000,
      });
      return { parse: async (doc) => (await pool.parse(doc.body, meta(doc))).items.length, close: () => pool.close() };
    }
    case 'rss-parser': {
      const RssParserClass = require('rss-parser') as typeof RssParser;
      const parser = new RssParserClass();
      return { parse: async (doc) => (await parser.parseString(doc.body.toString('utf8'))).items.length };
    }
    case 'feed-extractor':
    case 'feed-extractor-trimmed': {
      const { extractFromXml } = await import('@extractus/feed-extractor');
      // Its validator refuses whitespace before `<?xml`; the trimmed variant shows its speed on the same content.
      const trim = name === 'feed-extractor-trimmed';
      return {
        parse: (doc) => extractFromXml(trim ? doc.body.toString('utf8').trimStart() : doc.body.toString('utf8')).entries?.length ?? 0,
      };
    }
    case 'feedparser': {
      const FeedParserClass = require('feedparser') as typeof FeedParser;
      return { parse: (doc) => feedparserCount(FeedParserClass, doc.body) };
    }
    case 'fast-xml-parser': {
      const { XMLParser } = await import('fast-xml-parser');
      const parser = new XMLParser({ ignoreAttributes: false });
      return { parse: (doc) => countXmlItems(parser.parse(doc.body.toString('utf8')) as Record<string, unknown>) };
    }
    case 'htmlparser2-sax':
    case 'saxes-sax':
      return rawTokenizer(name);
  }
}

/** Raw tokenizers, no feed reading: `item` and `entry` start tags counted, in any namespace. */
const isItemTag = (name: string): boolean => name === 'item' || name === 'entry' || name.endsWith(':item') || name.endsWith(':entry');

async function rawTokenizer(name: 'htmlparser2-sax' | 'saxes-sax'): Promise<Adapter> {
  if (name === 'htmlparser2-sax') {
    const { Parser } = await import('htmlparser2');
    return {
      parse: (doc) => {
        let items = 0;
        const parser = new Parser(
          {
            onopentagname: (tag) => {
              if (isItemTag(tag)) items++;
            },
          },
          { xmlMode: true, decodeEntities: false },
        );
        parser.end(doc.body.toString('utf8'));
        return items;
      },
    };
  }
  const { SaxesParser } = await import('saxes');
  return {
    parse: (doc) => {
      let items = 0;
      const parser = new SaxesParser({ xmlns: true });
      parser.on('opentag', (tag) => {
        if (isItemTag(tag.local ?? tag.name)) items++;
      });
      // A strict parser: errors are counted out of the timing's way, as the others' rejections are.
      parser.on('error', () => undefined);
      parser.write(doc.body.toString('utf8').trimStart()).close();
      return items;
    },
  };
}

function meta(doc: Document): { url: string; contentType?: string } {
  return doc.contentType === undefined ? { url } : { url, contentType: doc.contentType };
}

type FeedParserClass = typeof FeedParser;

function feedparserCount(FeedParserClass: FeedParserClass, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const parser = new FeedParserClass({ feedurl: url });
    let items = 0;
    parser.on('error', reject);
    parser.on('readable', () => {
      while (parser.read() !== null) items++;
    });
    parser.on('end', () => resolve(items));
    Readable.from([body]).pipe(parser);
  });
}

/** Items in fast-xml-parser's object: `channel/item` (RSS 2.0), `item` beside the channel (RDF) or `entry` (Atom), any prefix. */
function countXmlItems(document: Record<string, unknown>): number {
  const root = Object.entries(document).find(([key]) => !key.startsWith('?'))?.[1];
  if (typeof root !== 'object' || root === null) return 0;
  const record = root as Record<string, unknown>;
  const channel = child(record, 'channel');
  const items =
    (typeof channel === 'object' && channel !== null ? child(channel as Record<string, unknown>, 'item') : undefined) ??
    child(record, 'item') ??
    child(record, 'entry');
  return Array.isArray(items) ? items.length : items === undefined ? 0 : 1;
}

function child(element: Record<string, unknown>, local: string): unknown {
  for (const key in element) if (key === local || key.endsWith(`:${local}`)) return element[key];
  return undefined;
}
