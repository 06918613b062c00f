/** Prints how well bundles recognise copies of one article: precision and recall on the labelled pairs. */
import { join } from 'node:path';
import { repositoryRoot } from './dedupe/root.js';
import { precision, readPairs, recall, tally, type Tally } from './dedupe/pairs.js';

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const row = (name: string, t: Tally): string =>
  `| ${name.padEnd(34)} | ${String(t.truePositive + t.falseNegative).padStart(4)} | ${String(t.trueNegative + t.falsePositive).padStart(4)} | ${String(t.truePositive).padStart(4)} | ${String(t.falsePositive).padStart(4)} | ${String(t.falseNegative).padStart(4)} | ${pct(precision(t)).padStart(6)} | ${pct(recall(t)).padStart(6)} |`;

export function runDedupe(env: { FEEDMILL_DEDUPE_PAIRS?: string | undefined; FEEDMILL_SHOW_MISSES?: string | undefined }): void {
  const path = env.FEEDMILL_DEDUPE_PAIRS ?? join(repositoryRoot(), 'test', 'fixtures', 'dedupe-pairs.json');
  const pairs = readPairs(path);
  const { all, byKind, misses } = tally(pairs);
  console.log(
    `dedupe: ${pairs.length} labelled pairs (${all.truePositive + all.falseNegative} duplicate, ${all.trueNegative + all.falsePositive} distinct) from ${path}\n`,
  );
  console.log(`| ${'kind'.padEnd(34)} | dup. | dist |   TP |   FP |   FN | precis. | recall |`);
  console.log(`|${'-'.repeat(36)}|------|------|------|------|------|--------|--------|`);
  const families = new Map<string, Tally>();
  for (const [kind, t] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(row(kind, t));
    const family = `${kind.split(/[:/]/)[0] ?? kind} (all)`;
    const sum = families.get(family) ?? { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
    for (const key of Object.keys(sum) as (keyof Tally)[]) sum[key] += t[key];
    families.set(family, sum);
  }
  for (const [family, t] of families) console.log(row(family, t));
  console.log(row('all', all));
  console.log(`\nprecision ${pct(precision(all))} (goal ≥ 95%), recall ${pct(recall(all))} (goal ≥ 80%)`);
  if (env.FEEDMILL_SHOW_MISSES) for (const miss of misses) console.log(JSON.stringify(miss));
}
