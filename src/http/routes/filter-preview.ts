import type { KeepBlockPreview } from '../../app/filter-preview.js';
import { shownItem } from '../../domain/shown-item.js';
import { toApiItem } from '../wire/item.js';

/** A keep/block dry run as REST shows it (feeds and bundles alike). */
export const toFilterPreview = (previews: readonly KeepBlockPreview[]) => ({
  kept: previews.filter((preview) => preview.verdict.kept).length,
  dropped: previews.filter((preview) => !preview.verdict.kept).length,
  data: previews.map(({ feed, item, verdict }) => ({
    feed_id: feed.id,
    item: toApiItem(shownItem(item, feed.settings.customAuthor)),
    kept: verdict.kept,
    decided_by: verdict.decidedBy && { rule: verdict.decidedBy.rule, path: verdict.decidedBy.path, condition: verdict.decidedBy.condition },
  })),
});
