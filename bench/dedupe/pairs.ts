/** The labelled pairs of `test/fixtures/dedupe-pairs.json`, and how the bundle merge scores on them. */
import { readFileSync } from 'node:fs';
import { itemKey } from '../../src/domain/item-identity.js';
import { mergeItems } from '../../src/domain/bundle-merge.js';
import type { StoredItem } from '../../src/domain/stored-item.js';

/** One copy of an article as a member feed holds it. */
export interface PairItem {
  /** Where it came from: `<corpus document>#<item index>`, or the made-up feed of a derived copy. */
  feed: string;
  url: string;
  original_url?: string;
  id?: string;
  title: string;
  description_text: string;
  published: string;
}

export interface LabelledPair {
  id: string;
  label: 'duplicate' | 'distinct';
  /** How the pair was made (bench/README.md "dedupe"). */
  kind: string;
  a: PairItem;
  b: PairItem;
}

export const readPairs = (path: string): LabelledPair[] => (JSON.parse(readFileSync(path, 'utf8')) as { pairs: LabelledPair[] }).pairs;

function stored(copy: PairItem, feedId: string): StoredItem {
  const parsed = {
    ...(copy.id === undefined ? {} : { id: copy.id }),
    url: copy.url,
    ...(copy.original_url === undefined ? {} : { original_url: copy.original_url }),
    title: copy.title,
    description_text: copy.description_text,
    description_html: '',
    thumbnail: null,
    authors: [],
    date_published: copy.published,
    categories: [],
    enclosures: [],
  };
  return { ...parsed, feedId, key: itemKey(parsed), contentHash: '', addedAt: copy.published, publishedAt: copy.published };
}

/** Whether the bundle merge shows the pair as one item: the pair's two copies in two member feeds. */
export const judgedDuplicate = (pair: LabelledPair): boolean =>
  mergeItems([[stored(pair.a, 'a')], [stored(pair.b, 'b')]], 'date', 10).length === 1;

export interface Tally {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
  trueNegative: number;
}

export function tally(pairs: readonly LabelledPair[]): { all: Tally; byKind: Map<string, Tally>; misses: LabelledPair[] } {
  const empty = (): Tally => ({ truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 });
  const all = empty();
  const byKind = new Map<string, Tally>();
  const misses: LabelledPair[] = [];
  for (const pair of pairs) {
    const said = judgedDuplicate(pair);
    const truth = pair.label === 'duplicate';
    const field: keyof Tally = said ? (truth ? 'truePositive' : 'falsePositive') : truth ? 'falseNegative' : 'trueNegative';
    const kind = byKind.get(pair.kind) ?? empty();
    byKind.set(pair.kind, kind);
    all[field]++;
    kind[field]++;
    if (said !== truth) misses.push(pair);
  }
  return { all, byKind, misses };
}

export const precision = (t: Tally): number =>
  t.truePositive + t.falsePositive === 0 ? 1 : t.truePositive / (t.truePositive + t.falsePositive);
export const recall = (t: Tally): number =>
  t.truePositive + t.falseNegative === 0 ? 1 : t.truePositive / (t.truePositive + t.falseNegative);
