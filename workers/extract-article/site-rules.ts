import type { FullTextRules } from '../../src/domain/full-text-rules.js';

/**
 * Per-site extraction rules shipped with feedmill, for sites the generic pass gets wrong: for a
 * page whose final URL is on the rule's domain (or a subdomain of it), `content` names the
 * element(s) holding the article and `remove` the boilerplate inside them. Compiled in: the worker
 * does no I/O. Each row has a fixture under test/fixtures/articles/ reproducing the site's
 * structure (test/workers/extract-article-site-rules.test.ts). A feed's own `full_text_rules`
 * win over these; docs/full-text.md lists them.
 */
export type SiteRule = Readonly<FullTextRules>;

export const siteRules: Readonly<Record<string, SiteRule>> = {
  // A comic: the article is one image with its title text, too little prose for the generic pass.
  'xkcd.com': { content: '#ctitle, #comic' },
  // The comic and the bonus panel revealed under it, both images.
  'smbc-comics.com': { content: '#cc-comicbody, #aftercomic' },
  // Story text in #storytext, interleaved with "related story" link boxes and the image toolbar.
  'npr.org': { content: '#storytext', remove: ['.bucketwrap.internallink', '.enlarge-options', '.credit-caption .credit'] },
  // The standfirst sits outside the body, and the body holds ad slots and a "more like this" list.
  'theregister.com': { content: '#top-col-story h2, #body', remove: ['.adun', '.wptl', '#article-bottom-ad'] },
};
