import { parseDate } from '../shared/dates.js';
import { collapseText } from '../shared/html.js';
import { webUrl } from '../shared/urls.js';
import { selectAll, type DomDocument } from './dom.js';
import { releaseInText } from './held-escapes.js';

/** What a page says about its article, read before extraction changes the document. */
export interface ArticleMeta {
  title: string | null;
  byline: string | null;
  published: string | null;
  leadImage: string | null;
  language: string | null;
  /** JSON-LD `articleBody`, the page's own statement of the article's text. */
  statedBody: string | null;
}

const articleTypes =
  /(?:^|\b)(?:Article|NewsArticle|BlogPosting|Report|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|TechArticle|ScholarlyArticle|LiveBlogPosting|SocialMediaPosting|WebPage)$/;

/** The first JSON-LD object typed as an article (inside `@graph` and arrays too). */
function statedArticle(document: DomDocument): Record<string, unknown> | null {
  for (const script of selectAll(document, 'script[type="application/ld+json" i]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    const queue: unknown[] = [data];
    // Breadth-first and bounded: a page's JSON-LD is small, but nothing here trusts that.
    for (let i = 0; i < queue.length && i < 200; i++) {
      const node = queue[i];
      if (Array.isArray(node)) queue.push(...(node as unknown[]));
      else if (node !== null && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        const types = ([] as unknown[]).concat(record['@type'] ?? []);
        if (types.some((type) => typeof type === 'string' && articleTypes.test(type) && type !== 'WebPage')) return record;
        if (record['@graph'] !== undefined) queue.push(record['@graph']);
      }
    }
  }
  return null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') {
    const collapsed = collapseText(value);
    return collapsed === '' ? null : collapsed;
  }
  if (Array.isArray(value)) return text(value[0]);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return text(record['name'] ?? record['url'] ?? record['@id']);
  }
  return null;
}

function names(value: unknown): string | null {
  const list = Array.isArray(value) ? value : [value];
  const found = list.map(text).filter((name): name is string => name !== null);
  return found.length === 0 ? null : found.join(', ');
}

function metaContent(document: DomDocument, selectors: string): string | null {
  for (const element of selectAll(document, selectors)) {
    const value = collapseText(element.getAttribute('content') ?? element.getAttribute('datetime') ?? '');
    if (value !== '') return value;
  }
  return null;
}

const languageTag = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i;

function language(value: string | null | undefined): string | null {
  const tag = value?.trim().replace(/_/g, '-') ?? '';
  return languageTag.test(tag) ? tag : null;
}

export function readMeta(document: DomDocument, base: string): ArticleMeta {
  const stated = statedArticle(document);
  const title =
    text(stated?.['headline']) ??
    metaContent(document, 'meta[property="og:title"], meta[name="twitter:title"]') ??
    text(releaseInText(document.querySelector('h1')?.textContent ?? '')) ??
    text(document.querySelector('title')?.textContent);
  const byline =
    names(stated?.['author']) ?? metaContent(document, 'meta[name="author"], meta[property="article:author"], meta[name="byl"]');
  const published = parseDate(
    text(stated?.['datePublished']) ??
      metaContent(document, 'meta[property="article:published_time"], meta[name="date"], meta[itemprop="datePublished"], time[datetime]') ??
      undefined,
  );
  const image = text(stated?.['image']) ?? metaContent(document, 'meta[property="og:image"], meta[name="twitter:image"]');
  const leadImage = image === null ? null : webUrl(image, base) || null;
  const lang =
    language(document.documentElement?.getAttribute('lang')) ??
    language(metaContent(document, 'meta[http-equiv="content-language" i], meta[property="og:locale"]')) ??
    language(text(stated?.['inLanguage']));
  const body = stated?.['articleBody'];
  return { title, byline, published, leadImage, language: lang, statedBody: typeof body === 'string' && body.trim() !== '' ? body : null };
}
