/**
 * Where a feed's article pages keep their article, stated by the feed's owner when the generic
 * extractor gets a site wrong: `content`, the CSS selector of the element(s) holding the article,
 * and `remove`, selectors of boilerplate to drop first.
 */
export interface FullTextRules {
  content?: string;
  remove?: string[];
}
