import { validateFullTextRules, type FullTextRules } from './full-text-rules.js';
import type { FullTextView, ItemArticle } from './item-article.js';
import type { StoredItem } from './stored-item.js';

/** The one setting full text is read from: the feed's switch. */
type Switch = { fullText: boolean };

/** The article of the item's current `url`, if the store holds one. */
const currentArticle = (item: StoredItem): ItemArticle | undefined =>
  item.article && item.article.url === item.url ? item.article : undefined;

/**
 * A stored item as every surface shows it under its feed's `fullText` setting: its article as the
 * description when one is in, else its teaser; `fullText` says which, and why.
 */
export function withFullText(item: StoredItem, settings: Switch): StoredItem {
  const { article: _stored, ...plain } = item;
  const summary = { summaryHtml: item.description_html, summaryText: item.description_text };
  const article = settings.fullText ? currentArticle(item) : undefined;
  if (!article) return { ...plain, fullText: { status: 'skipped', error: null, ...summary } };
  const view: FullTextView = { status: article.status, error: article.error, ...summary };
  if (article.status !== 'ok') return { ...plain, fullText: view };
  return { ...plain, description_html: article.html, description_text: article.text, fullText: view };
}

/**
 * An item waiting for its article, not yet announced: shown by the REST API (with its teaser and
 * `pending`), kept out of hosted documents until it is announced.
 */
export const awaitsArticle = (item: StoredItem, settings: Switch): boolean => {
  const article = settings.fullText ? currentArticle(item) : undefined;
  return article !== undefined && !article.announced;
};

/** A new article wait for `item`, begun at `now`; `announced` when the item needs no announcing. */
export const pendingArticle = (item: Pick<StoredItem, 'url'>, now: string, announced: boolean): ItemArticle => ({
  url: item.url,
  status: 'pending',
  error: null,
  html: '',
  text: '',
  attempts: 0,
  announced,
  since: now,
});

/**
 * A fetch-article job's id: one per item. Feed ids are url-safe; the key is base64url so the id
 * holds no `:` (BullMQ's separator) and reads back exactly.
 */
export const articleJobId = (feedId: string, key: string): string => `art.${feedId}.${Buffer.from(key).toString('base64url')}`;

export function parseArticleJobId(id: string): { feedId: string; key: string } | undefined {
  const match = /^art\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(id);
  if (!match?.[1] || !match[2]) return undefined;
  return { feedId: match[1], key: Buffer.from(match[2], 'base64url').toString() };
}

/**
 * A feed's `full_text_rules` as a request sent them: null (or nothing) clears them, and so does an
 * object naming no selector; otherwise they are checked by the extractor's own rule
 * (validateFullTextRules, full-text-rules.ts).
 */
export function parseFullTextRules(raw: unknown, path = 'full_text_rules'): FullTextRules | null {
  if (raw === null || raw === undefined) return null;
  const rules = validateFullTextRules(raw, path);
  return rules.content === undefined && (rules.remove === undefined || rules.remove.length === 0) ? null : rules;
}
