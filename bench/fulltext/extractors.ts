/**
 * The extractors the fulltext benchmark compares, each loaded only in its own child process, so
 * no other's modules or heap count against it. All start from the same text: the page bytes
 * decoded by feedmill's charset module, so only extraction differs.
 */
import { decodeBytes } from '../../workers/shared/charset.js';

export const extractorNames = ['feedmill', 'readability-linkedom', 'readability-jsdom'] as const;
export type ExtractorName = (typeof extractorNames)[number];

/** Page bytes and final URL → the article's text ('' for none). */
export type Extract = (body: Uint8Array, url: string) => string;

interface ReadabilityDocument {
  readonly documentElement: unknown;
}

export async function loadExtractor(name: ExtractorName): Promise<Extract> {
  if (name === 'feedmill') {
    const { extractArticle } = await import('../../workers/extract-article.js');
    return (body, url) => extractArticle(body, { url })?.content_text ?? '';
  }
  const { Readability } = await import('@mozilla/readability');
  const readable = (document: ReadabilityDocument): string =>
    // Readability is typed against the DOM lib's Document, which this project does not load.
    new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? '';
  if (name === 'readability-linkedom') {
    const { parseHTML } = await import('linkedom');
    return (body) => readable((parseHTML(decodeBytes(body, undefined, 'html')) as unknown as { document: ReadabilityDocument }).document);
  }
  const { JSDOM } = await import('jsdom');
  return (body, url) => {
    const dom = new JSDOM(decodeBytes(body, undefined, 'html'), { url });
    try {
      return readable(dom.window.document);
    } finally {
      dom.window.close();
    }
  };
}
