import type { FeedSettings, ItemSort } from '../../domain/feed.js';
import type { FullTextRules } from '../../domain/full-text-rules.js';
import type { KeepBlock } from '../../domain/keep-block.js';
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
  render: settings.render,
});
