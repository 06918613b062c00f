import { canonicalUrl } from './canonical-url.js';
import type { ItemSort } from './feed.js';
import { sameStory, storyOf, type Story } from './same-story.js';
import type { StoredItem } from './stored-item.js';

const sortKey: Record<ItemSort, (item: StoredItem) => string> = {
  last_added: (item) => item.addedAt,
  date: (item) => item.publishedAt,
};

/** Another copy of a bundle item's article, reached through a member feed: which feed, and its link. */
export interface DuplicateCopy {
  feedId: string;
  url: string;
}

/** A bundle item: the kept copy of an article, and the other copies it stands for. */
export interface BundledItem extends StoredItem {
  duplicates: DuplicateCopy[];
}

/**
 * A bundle's items: the member feeds' items in one order, newest first, each article once.
 *
 * Copies of one article are grouped when they share an address (`canonicalUrl` of the link or of
 * FeedBurner's original link, or the same URI guid), or when they tell the same story (`sameStory`:
 * the same wire story under slightly different titles, in two different feeds). The kept copy is
 * the earliest published; on a tie, the one of the feed listed first in the bundle, then the one
 * higher in its feed. The others are listed on it, in the same order. Stable, so items added
 * together keep their document order.
 */
export function mergeItems(lists: readonly (readonly StoredItem[])[], sort: ItemSort, limit: number): BundledItem[] {
  const flat = lists.flatMap((list, feedOrder) => list.map((item) => ({ item, feedOrder, publishedMs: Date.parse(item.publishedAt) })));
  const groups = group(flat);
  const merged: { item: BundledItem; index: number }[] = [];
  for (const members of groups) {
    members.sort((a, b) => earlier(flat[a], flat[b]) || a - b);
    const [kept, ...others] = members.map((index) => (flat[index] as Flat).item);
    if (kept === undefined) continue;
    merged.push({
      item: { ...kept, duplicates: others.map((copy) => ({ feedId: copy.feedId, url: copy.url })) },
      index: members[0] as number,
    });
  }
  const key = sortKey[sort];
  return merged
    .sort((a, b) => (key(a.item) < key(b.item) ? 1 : key(a.item) > key(b.item) ? -1 : a.index - b.index))
    .slice(0, limit)
    .map(({ item }) => item);
}

interface Flat {
  item: StoredItem;
  feedOrder: number;
  publishedMs: number;
}

const earlier = (a: Flat | undefined, b: Flat | undefined): number => {
  if (a === undefined || b === undefined) return 0;
  const byDate = a.publishedMs - b.publishedMs;
  return (Number.isNaN(byDate) ? 0 : byDate) || a.feedOrder - b.feedOrder;
};

/** A guid that names the article everywhere (a URL, `tag:`, `urn:`), unlike a feed's own "42". */
const globalGuid = /^[a-z][a-z0-9+.-]*:/i;

/** The addresses under which an item's article may be found in another feed. */
export function articleAddresses(item: Pick<StoredItem, 'url' | 'original_url' | 'id' | 'key'>): string[] {
  const addresses: string[] = [];
  for (const url of [item.url, item.original_url]) if (url) addresses.push(`u:${canonicalUrl(url)}`);
  const guid = item.id?.trim();
  if (guid && globalGuid.test(guid)) addresses.push(/^https?:/i.test(guid) ? `u:${canonicalUrl(guid)}` : `g:${guid}`);
  // An item with neither link nor guid is known by the hash of its title and text (item-identity.ts).
  if (item.key.startsWith('h:')) addresses.push(item.key);
  return addresses;
}

/**
 * Title words in more items than this find no candidates: a word in hundreds of titles says little,
 * and two copies of one story share rarer ones too. Bounds the comparisons in a large bundle.
 */
const maxPosting = 50;

/** Indexes of `flat` grouped into articles (union-find over shared addresses and same stories). */
function group(flat: readonly Flat[]): number[][] {
  const parent = flat.map((_, index) => index);
  const root = (index: number): number => {
    let at = index;
    while (parent[at] !== at) at = parent[at] = parent[parent[at] as number] as number;
    return at;
  };
  const join = (a: number, b: number): void => {
    parent[root(a)] = root(b);
  };
  const stories: Story[] = flat.map(({ item }) => storyOf(item));
  const story = (index: number): Story => stories[index] as Story;
  const byAddress = new Map<string, number>();
  const byWord = new Map<string, number[]>();
  flat.forEach(({ item }, index) => {
    for (const address of articleAddresses(item)) {
      const first = byAddress.get(address);
      if (first === undefined) byAddress.set(address, index);
      else join(index, first);
    }
    for (const word of story(index).titleWords) {
      const posting = byWord.get(word);
      if (posting === undefined) byWord.set(word, [index]);
      else posting.push(index);
    }
  });
  flat.forEach(({ item }, index) => {
    // Candidates share at least two title words: one in common is below any title similarity
    // the rule accepts once titles have the words a story needs.
    const shared = new Map<number, number>();
    for (const word of story(index).titleWords) {
      const posting = byWord.get(word) ?? [];
      if (posting.length > maxPosting) continue;
      for (const other of posting)
        if (other > index && (flat[other] as Flat).item.feedId !== item.feedId) shared.set(other, (shared.get(other) ?? 0) + 1);
    }
    for (const [other, count] of shared) {
      if (count >= 2 && root(other) !== root(index) && sameStory(story(index), story(other))) join(index, other);
    }
  });
  const groups = new Map<number, number[]>();
  flat.forEach((_, index) => {
    const at = root(index);
    const members = groups.get(at);
    if (members === undefined) groups.set(at, [index]);
    else members.push(index);
  });
  return [...groups.values()];
}
