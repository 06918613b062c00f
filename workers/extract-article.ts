import { escapeText } from 'entities';
import type { ExtractedArticle } from '../src/domain/article.js';
import type { FullTextRules } from '../src/domain/full-text-rules.js';
import { decodeBytes } from './shared/charset.js';
import { htmlToText, renderHtml } from './shared/html.js';
import { resolveUrl } from './shared/urls.js';
import { selectAll, type DomDocument, type DomElement } from './extract-article/dom.js';
import { readMeta } from './extract-article/metadata.js';
import { pruneBoilerplate } from './extract-article/prune.js';
import { ruleFor } from './extract-article/rules.js';
import { holdEscapes, releaseInHtml, releaseInText } from './extract-article/held-escapes.js';
import { pageDocument } from './extract-article/shape.js';
import { LinearReadability } from './extract-article/linear-readability.js';
import { prepareSource } from './extract-article/source.js';
import { stripInert } from './extract-article/strip-inert.js';
import { tidyContent } from './extract-article/tidy.js';

/** The article of one page, its HTML sanitised (only safe URLs, all absolute). */
export type ArticleResult = ExtractedArticle;

export interface ExtractArticleOptions {
  /** The page's final URL (after redirects): the base for relative links and the key of the site rules. */
  url: string;
  /** The HTTP Content-Type; its charset decides the decoding unless the body has a BOM. */
  contentType?: string;
  /** The feed's own rule (`full_text_rules`); it wins over the shipped rule of the page's domain. */
  rules?: FullTextRules;
}

/** Less text than this is no article: an error page, a login wall, a listing of headlines. */
const minArticleChars = 200;

/**
 * The main article of an HTML page. Synchronous and pure: the bytes are decoded (charset.ts),
 * parsed into a linkedom document, trimmed by the site rule when one applies, and the article is
 * found by Mozilla's Readability; its HTML then passes the shared sanitiser.
 * @returns null when the page holds no article.
 */
export function extractArticle(body: Uint8Array, options: ExtractArticleOptions): ArticleResult | null {
  const html = prepareSource(stripInert(decodeBytes(body, options.contentType, 'html')));
  const document = pageDocument(html);
  if (document === null) return null;
  const base = baseOf(document, options.url);
  const meta = readMeta(document, base);
  const rule = ruleFor(options.url, options.rules);
  let removed = 0;
  for (const selector of rule?.remove ?? []) {
    for (const element of selectAll(document, selector)) {
      element.remove();
      removed++;
    }
  }
  const byRules = rule?.content === undefined ? undefined : byRule(document, rule.content);
  let found: Rendered | null;
  if (byRules !== undefined) {
    found = render(byRules, base);
    // What a rule names is the article however short (a comic is one image).
    if (found.text === '' && found.firstImage === null) return null;
  } else {
    // A guess needs substance. When the pruned pass finds too little (a page that writes its
    // article without <p> inside a block named like boilerplate), Readability runs again on the
    // page as it came, but only when the page changed: on the same page it would find the same
    // nothing, and each run can cost Readability's four attempts. Then the article the page
    // states in JSON-LD is taken as it is written.
    removed += pruneBoilerplate(document);
    found = substantial(render(byReadability(document), base));
    if (found === null && removed > 0) found = substantial(render(byReadability(pageDocument(html)), base));
    found ??= substantial(render(byStatement(meta.statedBody), base));
    if (found === null) return null;
  }
  return {
    title: meta.title ?? found.title,
    byline: meta.byline ?? found.byline,
    published: meta.published,
    lead_image: meta.leadImage ?? found.firstImage,
    language: meta.language,
    content_html: found.html,
    content_text: found.text,
  };
}

interface Rendered extends Found {
  text: string;
  firstImage: string | null;
}

function render(found: Found | null, base: string): Rendered {
  if (found === null) return { html: '', title: null, byline: null, text: '', firstImage: null };
  const rendered = renderHtml(found.html, base);
  return { ...found, html: rendered.html, text: proseText(rendered.html), firstImage: rendered.firstImage };
}

function substantial(found: Rendered): Rendered | null {
  return found.text.length >= minArticleChars ? found : null;
}

/** JSON-LD `articleBody` as paragraphs: it is plain text, its paragraphs separated by line breaks. */
function byStatement(statedBody: string | null): Found | null {
  if (statedBody === null) return null;
  const paragraphs = statedBody
    .split(/\n\s*\n|\r\n\s*\r\n|\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return { html: paragraphs.map((paragraph) => `<p>${escapeText(paragraph)}</p>`).join('\n'), title: null, byline: null };
}

interface Found {
  html: string;
  title: string | null;
  byline: string | null;
}

/** The elements a rule names, outermost only, in document order; undefined when none match (the generic pass runs). */
function byRule(document: DomDocument, content: string): Found | undefined {
  const matches = selectAll(document, content);
  const outermost = matches.filter((element) => !matches.some((other) => other !== element && contains(other, element)));
  if (outermost.length === 0) return undefined;
  return { html: releaseInHtml(outermost.map((element) => element.outerHTML).join('\n')), title: null, byline: null };
}

function contains(ancestor: { parentElement: unknown }, element: { parentElement: unknown }): boolean {
  for (let node = element.parentElement; node !== null && node !== undefined; node = (node as { parentElement: unknown }).parentElement) {
    if (node === ancestor) return true;
  }
  return false;
}

function byReadability(document: DomDocument | null): Found | null {
  if (document === null) return null;
  if (document.body !== null) holdEscapes(document.body);
  let article: ReturnType<LinearReadability<DomElement>['parse']>;
  try {
    // Readability is typed against the DOM lib's Document; linkedom's implements what it uses.
    article = new LinearReadability<DomElement>(document as unknown as ConstructorParameters<typeof LinearReadability>[0], {
      // The content element itself, not its HTML: it is tidied before it is serialised once.
      serializer: (node) => node as unknown as DomElement,
    }).parse();
  } catch {
    // pageDocument gives Readability the shape it expects (the throws seen came from pages it had
    // not); should a page find another way to trip it, Readability finds no article on it, and the
    // later fallbacks still run, rather than the item failing as an internal error.
    return null;
  }
  if (article === null || !article.content) return null;
  tidyContent(article.content);
  const text = (value: string | null | undefined): string | null => (value ? releaseInText(value) : null);
  return { html: releaseInHtml(article.content.innerHTML), title: text(article.title), byline: text(article.byline) };
}

/** `<base href>` resolved against the page URL, else the page URL. */
function baseOf(document: DomDocument, url: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return href ? resolveUrl(href, url) : url;
}

/**
 * The article's prose: the sanitised HTML's text without figure captions. Captions and photo
 * credits stay in `content_html` with their figures; in the text they would interrupt the prose
 * they sit in (schema.org's `articleBody` leaves them out too). The sanitiser writes `<figcaption>`
 * bare and always closes it, so the pattern meets only what it wrote.
 */
function proseText(html: string): string {
  return htmlToText(html.replace(/<figcaption>[\s\S]*?<\/figcaption>/g, ''));
}
