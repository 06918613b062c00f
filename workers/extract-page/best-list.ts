import type { ParsedItem } from '../../src/domain/item.js';
import { isGenericText, isListingUrl } from './block-links.js';
import { readBlock, type BlockItem } from './block-item.js';
import { findBlockGroups } from './blocks.js';
import type { PageLink } from './links.js';

export interface ListChoice {
  items: ParsedItem[];
  score: number;
}

/** Below this a "list" is a couple of stray links, not a listing worth a feed. */
const minScore = 2;

/**
 * Reads every candidate list of repeated blocks and keeps the one that looks most like a listing
 * of articles: many blocks, each with a distinct link whose text reads like a title, headings and
 * dates helping, link texts of one or two words (menus, tag clouds) and listing URLs hurting.
 */
export function bestBlockList(links: readonly PageLink[], base: string): ListChoice | null {
  let best: ListChoice | null = null;
  for (const group of findBlockGroups(links as PageLink[])) {
    const blocks: BlockItem[] = [];
    const urls = new Set<string>();
    for (const root of group.items) {
      const block = readBlock(root, links, base);
      if (block === null || urls.has(block.item.url) || isGenericText(block.item.title)) continue;
      urls.add(block.item.url);
      blocks.push(block);
    }
    const { score, headerFactor } = scoreList(blocks, group.items.length);
    // The masthead penalty only ranks lists against each other: a page whose one list sits in its <header> still has a list.
    if (score >= minScore && (best === null || score * headerFactor > best.score))
      best = { items: blocks.map((block) => block.item), score: score * headerFactor };
  }
  return best;
}

function scoreList(blocks: readonly BlockItem[], groupSize: number): { score: number; headerFactor: number } {
  const n = blocks.length;
  if (n < 2) return { score: 0, headerFactor: 1 };
  let titleChars = 0;
  let headings = 0;
  let dates = 0;
  let summaries = 0;
  let listingUrls = 0;
  let shortTitles = 0;
  let inPageHeader = 0;
  for (const { item, inHeading, hasDate, inPageHeader: inHeader } of blocks) {
    if (inHeader) inPageHeader++;
    const weight = titleWeight(item.title);
    titleChars += Math.min(weight, 120);
    if (inHeading) headings++;
    if (hasDate) dates++;
    if (item.description_text !== '') summaries++;
    if (isListingUrl(item.url)) listingUrls++;
    if (weight < 15 && item.title.split(' ').length <= 2) shortTitles++;
  }
  const meanTitle = titleChars / n;
  // Titles of articles run 20–100 characters; menu entries and tags run under 15.
  const titleFactor = Math.min(meanTitle / 25, 1.6);
  const richness = 1 + (0.6 * headings + 0.6 * dates + 0.4 * summaries) / n;
  const penalty = (1 - (0.8 * listingUrls) / n) * (1 - (0.5 * shortTitles) / n);
  // Blocks that yielded nothing usable make the group look less like a list of articles.
  const yieldRatio = n / groupSize;
  return { score: Math.sqrt(n) * 2 * titleFactor * richness * penalty * yieldRatio, headerFactor: 1 - (0.6 * inPageHeader) / n };
}

/**
 * A title's length in Latin-script characters: a Han, kana or Hangul character carries about a
 * word, so a 12-character Japanese headline is a full title, not a two-letter menu entry.
 */
function titleWeight(title: string): number {
  let weight = 0;
  for (let i = 0; i < title.length; i++) {
    const code = title.charCodeAt(i);
    weight += (code >= 0x3040 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) ? 3 : 1;
  }
  return weight;
}
