/** What the near-duplicate rule reads of an item. */
export interface StoryText {
  title: string;
  description_text: string;
  /** ISO 8601: the date shown (the source's, or when feedmill first saw the item). */
  publishedAt: string;
}

/** The words of a story's title and opening, prepared once per item (`storyOf`). */
export interface Story {
  titleWords: ReadonlySet<string>;
  /** The numbers in the title: "Episode 12" and "Episode 13" are two stories, however alike. */
  numbers: string;
  /** Word 3-shingles of the first `openingWords` words of the description, made on first use. */
  readonly shingles: ReadonlySet<string>;
  publishedMs: number;
}

/**
 * The rule, tuned on the labelled pairs in `test/fixtures/dedupe-pairs.json` (bench/dedupe.ts):
 * two items are one story when published within `window` of each other, their titles carry the
 * same numbers, and either the titles share at least `titleSimilarity` of their words (Jaccard, at
 * least `minTitleWords` each) without openings that plainly differ, or their openings share at
 * least `openingSimilarity` of their shingles and the titles `weakTitleSimilarity`.
 */
export const storyRule = {
  windowMs: 48 * 3_600_000,
  minTitleWords: 4,
  titleSimilarity: 0.6,
  openingSimilarity: 0.5,
  weakTitleSimilarity: 0.25,
  /** Openings this long that share less than `differentOpening` of their shingles are different stories. */
  minShingles: 12,
  differentOpening: 0.05,
  openingWords: 60,
} as const;

// Words that carry no subject: left out so "Storm hits the coast" and "Storm hits coast" agree.
const stopWords = new Set(
  'a an the of in on at to for from by with and or but is are was were be been as its it this that these those into over after before about than de la le les des du el en et und der die das ein eine im mit von zu'.split(
    ' ',
  ),
);

/**
 * A title's words: accents folded, lower case, punctuation gone, and a trailing "- Site name" or
 * "| Site name" of at most four words dropped when something longer stays (wire copies carry the
 * outlet's name).
 */
export function titleWords(title: string): string[] {
  const segments = title.split(/\s+[-|–—:]\s+/);
  const last = segments.at(-1) ?? '';
  const kept =
    segments.length > 1 && words(last).length <= 4 && words(segments.slice(0, -1).join(' ')).length >= 3 ? segments.slice(0, -1) : segments;
  return words(kept.join(' ')).filter((word) => !stopWords.has(word));
}

function words(text: string): string[] {
  // Folding accents is the costly step; most titles have none to fold.
  const folded = /[^ -~\s]/.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
  return folded
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

export function storyOf(item: StoryText): Story {
  const title = titleWords(item.title);
  let shingles: Set<string> | undefined;
  return {
    titleWords: new Set(title),
    numbers: title
      .filter((word) => /^\d+$/.test(word))
      .sort()
      .join(' '),
    get shingles() {
      if (shingles === undefined) {
        // Sixty words fit in well under 1,000 characters; a full article text is not read to its end.
        const opening = words(item.description_text.slice(0, 1_000)).slice(0, storyRule.openingWords);
        shingles = new Set();
        for (let i = 0; i + 3 <= opening.length; i++) shingles.add(opening.slice(i, i + 3).join(' '));
      }
      return shingles;
    },
    publishedMs: Date.parse(item.publishedAt),
  };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Whether two items tell the same story (see `storyRule`). Symmetric. */
export function sameStory(a: Story, b: Story): boolean {
  const rule = storyRule;
  if (!(Math.abs(a.publishedMs - b.publishedMs) <= rule.windowMs)) return false;
  if (a.numbers !== b.numbers) return false;
  const title = jaccard(a.titleWords, b.titleWords);
  if (title < rule.weakTitleSimilarity) return false;
  // The openings are compared only when the titles leave it open (the costlier comparison).
  const opening = (): number | undefined =>
    a.shingles.size >= rule.minShingles && b.shingles.size >= rule.minShingles ? jaccard(a.shingles, b.shingles) : undefined;
  const longTitles = a.titleWords.size >= rule.minTitleWords && b.titleWords.size >= rule.minTitleWords;
  if (longTitles && title >= rule.titleSimilarity) {
    const shared = opening();
    return !(shared !== undefined && shared < rule.differentOpening);
  }
  const shared = opening();
  return shared !== undefined && shared >= rule.openingSimilarity;
}
