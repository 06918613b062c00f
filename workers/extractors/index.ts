import type { PageExtractor } from '../../src/domain/platforms/platform-rule.js';
import type { ExtractedPage } from '../extract-page.js';
import { extractTelegramChannel } from './telegram-channel.js';

/**
 * The built-in extractors: pages whose structure is known, read as a feed by a function of their
 * own instead of extract-page's heuristics. To add one: write `workers/extractors/NAME.ts` (pure:
 * HTML and the page's address in, an ExtractedPage out, `no_items_found` when there is nothing) with a
 * fixture test, name it in `pageExtractors` (src/domain/platforms/platform-rule.ts) and here, and give
 * a platform rule `format: "page"` with `extractor: "NAME"` (docs/discovery.md).
 */
export const pageExtractorFunctions: Record<PageExtractor, (html: string, meta: { url: string }) => ExtractedPage> = {
  'telegram-channel': extractTelegramChannel,
};
