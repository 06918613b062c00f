import type { ParsedItem } from '../../src/domain/item.js';
import type { LdArticle } from './json-ld.js';
import type { PageMeta } from './page-meta.js';
import { parseStatedDate } from './text-dates.js';
import { absoluteUrl } from './urls.js';
import { textAsHtml } from '../shared/html.js';

/** The page as one item: for an article page, where the page itself is the news. */
export function singleArticle(page: PageMeta, article: LdArticle | undefined): ParsedItem {
  const description = article?.description ?? page.description;
  const authors = article !== undefined && article.authors.length > 0 ? article.authors : page.author !== null ? [page.author] : [];
  return {
    url: (article?.url != null ? absoluteUrl(article.url, page.base) : null) ?? page.link,
    title: article?.title ?? page.pageTitle,
    description_text: description,
    description_html: description === '' ? '' : textAsHtml(description),
    thumbnail: (article?.image != null ? absoluteUrl(article.image, page.base) : null) ?? page.image,
    authors: authors.map((name) => ({ name })),
    date_published: parseStatedDate(article?.datePublished) ?? parseStatedDate(page.publishedTime),
    categories: [],
    enclosures: [],
  };
}
