import type { Principal } from '../domain/api-key.js';
import { isFeedmillError } from '../domain/errors.js';
import { parseFullTextRules } from '../domain/full-text.js';
import type { ArticleError } from '../domain/item-article.js';
import type { AppDeps } from './deps.js';
import { openFeedAccess } from './fetch-access.js';
import { findFeed } from './find-feed.js';
import { articleHost } from './host-gate.js';
import { PageRefused, readArticle } from './read-article.js';
import { feedItems } from './shown-items.js';

type PreviewDeps = Pick<AppDeps, 'feeds' | 'items' | 'settings' | 'clock' | 'fetcher' | 'parser' | 'articleGate'>;

/** The article of a feed's latest item as `rules` would read it, or why it could not be had. */
export type ArticlePreview =
  { url: string; title: string; article: { html: string; text: string } } | { url: string | null; title: string; error: ArticleError };

/**
 * Before full text is saved: fetches the page of the feed's latest item (newest added) and reads
 * its article with the rules as typed (checked as PATCH settings checks them; null: the shipped
 * rules only). Stores nothing. The fetch waits its turn at the process's host gate like an article
 * job's: previews must not become a way around the per-host limit.
 * @throws FeedmillError `validation_failed` for rules PATCH would refuse, `feed_not_found`.
 */
export async function previewArticle(deps: PreviewDeps, principal: Principal, feedId: string, rawRules: unknown): Promise<ArticlePreview> {
  const rules = parseFullTextRules(rawRules);
  const feed = await findFeed(deps, principal, feedId);
  const [latest] = await feedItems(deps, feed, 'last_added');
  if (!latest) {
    return { url: null, title: '', error: { code: 'no_items_found', message: 'The feed has no item yet whose page could be read' } };
  }
  const shown = { url: latest.url, title: latest.title };
  try {
    const access = openFeedAccess(deps, feed);
    return { ...shown, article: await deps.articleGate(articleHost(latest.url), () => readArticle(deps, latest.url, rules, access)) };
  } catch (error) {
    if (error instanceof PageRefused) return { ...shown, error: error.failure };
    if (isFeedmillError(error)) return { ...shown, error: { code: error.code, message: error.message } };
    throw error;
  }
}
