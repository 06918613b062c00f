/**
 * The scoring of ScrapingHub's article-extraction-benchmark (`evaluate.py`), reproduced: text is
 * cut into `\w+` tokens as Python's `re` reads them in Unicode mode (letters and digits of any
 * script, and `_`; not combining marks), the tokens into overlapping 4-token shingles, and each page
 * gives TP/FP/FN by shingle counts, normalised by their sum so a long page weighs as much as a
 * short one. Precision is the mean over pages with something predicted, recall the mean over pages
 * with something expected, F1 their harmonic mean (of the means, as evaluate.py computes it).
 */
const token = /[\p{L}\p{N}_]+/gu;
const shingleSize = 4;

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
}

export interface Scores {
  f1: number;
  precision: number;
  recall: number;
  /** Pages whose token sequence is exactly the expected one. */
  accuracy: number;
}

export function tokenize(text: string): string[] {
  return text.match(token) ?? [];
}

function shingles(text: string): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  // As evaluate.py: fewer tokens than a shingle still make one shingle (of all of them), none make none.
  const last = Math.max(1, tokens.length - shingleSize + 1);
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + shingleSize);
    if (shingle.length === 0) continue;
    const key = shingle.join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function scorePage(expected: string, predicted: string): PageScore {
  const truth = shingles(expected);
  const guess = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...truth.keys(), ...guess.keys()])) {
    const t = truth.get(key) ?? 0;
    const p = guess.get(key) ?? 0;
    tp += Math.min(t, p);
    fp += Math.max(0, p - t);
    fn += Math.max(0, t - p);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

function precision({ tp, fp, fn }: PageScore): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

function recall({ tp, fp, fn }: PageScore): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

export function scoreAll(pages: { expected: string; predicted: string }[]): Scores {
  const scores = pages.map((page) => scorePage(page.expected, page.predicted));
  const p = mean(scores.filter((s) => s.tp + s.fp > 0).map(precision));
  const r = mean(scores.filter((s) => s.tp + s.fn > 0).map(recall));
  const sameTokens = (a: string, b: string): boolean => tokenize(a).join(' ') === tokenize(b).join(' ');
  return {
    f1: p + r === 0 ? 0 : (2 * p * r) / (p + r),
    precision: p,
    recall: r,
    accuracy: mean(pages.map((page) => (sameTokens(page.expected, page.predicted) ? 1 : 0))),
  };
}
