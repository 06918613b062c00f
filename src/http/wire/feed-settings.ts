import type { FeedSettings, ItemSort } from '../../domain/feed.js';
import type { FullTextRules } from '../../domain/full-text-rules.js';
import type { KeepBlock } from '../../domain/keep-block.js';
import type { PageSelectors } from '../../domain/page-selectors.js';
import type { RenderMode } from '../../domain/render-mode.js';

/** Spec "Feed settings", plus `sort`, `paused` and `min_interval` (seconds; null: the global floor). */
export interface ApiFeedSettings {
  customAuthor: string | null;
  sort: ItemSort;
  paused: boolean;
  min_interval: number | null;
  filters: KeepBlock;
  full_text: boolean;
  full_text_rules: FullTextRules | null;
  fetch: { user_agent: string | null; header_names: string[]; basic_auth_set: boolean } | null;
  selectors: PageSelectors | null;
  render: RenderMode;
}

export const toApiFeedSettings = (settings: FeedSettings): ApiFeedSettings => ({
  customAuthor: settings.customAuthor,
  sort: settings.sort,
  paused: settings.paused,
  min_interval: settings.minIntervalSeconds,
  filters: settings.filters,
  full_text: settings.fullText,
  full_text_rules: settings.fullTextRules,
  // The summary kept beside the sealed options: nothing here needs (or may show) a secret.
  fetch:
    settings.fetchOptions === null
      ? null
      : {
          user_agent: settings.fetchOptions.userAgent,
          header_names: settings.fetchOptions.headerNames,
          basic_auth_set: settings.fetchOptions.basicAuth,
        },
  selectors: settings.selectors,
  render: settings.render,
});
