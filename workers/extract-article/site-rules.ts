/**
 * Per-site extraction rules shipped with feedmill: for a page whose final URL is on `domain` (or a
 * subdomain of it), `content` names the element(s) that hold the article and `remove` the
 * boilerplate inside it the generic extractor keeps. A rule exists only where the generic pass
 * gets the site wrong; each has a fixture under test/fixtures/articles/ reproducing the site's
 * structure (test/workers/extract-article-site-rules.test.ts). Rules a feed states itself
 * (`full_text_rules`) win over these.
 */
export interface SiteRule {
  content?: string;
  remove?: readonly string[];
}

export const siteRules: Readonly<Record<string, SiteRule>> = {
  // The body sits in several sibling `.c-entry-content` blocks split by ad slots; the generic pass keeps one.
  'theverge.com': { content: '.duet--article--article-body-component', remove: ['.duet--ad--native-ad-rail', 'aside'] },
  // Paragraphs are split across `.article-body__content` containers around inline promos.
  'nbcnews.com': { content: '.article-body__content', remove: ['.ad-container', '.article-body__promo'] },
  // Posts keep their text in `.post-body`; the "more from this author" box sits inside it.
  'blogspot.com': { content: '.post-body', remove: ['.post-share-buttons', '.blog-pager'] },
  // Medium wraps every paragraph in its own section; the clap bar and "more from" follow inside `article`.
  'medium.com': { content: 'article section', remove: ['[data-testid="headerClapButton"]', '.pw-responses'] },
  // Repeated `.c-article-body` plus a paywall notice that reads like a paragraph.
  'arstechnica.com': { content: '.article-content', remove: ['.ad-wrapper', '.sidebar', '.story-sidebar'] },
};
