import type { PageSelectors } from '../domain/page-selectors.js';
import type { RenderMode } from '../domain/render-mode.js';
import type { SourceAccess } from '../ports/fetcher.js';

/**
 * How a source is read beyond its address: a feed's reading options, one key each, passed as one
 * object from create, settings and refresh down to the fetch (src/app/fetch-document.ts).
 */
export interface ReadOptions {
  /** The source's own fetch options, opened (app/fetch-access.ts); the fetcher sends them to its origin only. */
  access?: SourceAccess;
  /** A person's selectors: the document is read as a page, and they alone decide its items. */
  selectors?: PageSelectors;
  /** The feed's `render` setting. @default 'auto' */
  render?: RenderMode;
}
