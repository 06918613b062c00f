/** Prints parseFeed's accuracy against the shared corpus: per field, per suite, and the macro headline. */
import { locateCorpusDir } from './corpus-dir.js';
import { fieldSummary, scoreCorpus, suiteSummary, type CorpusScore } from './feed-corpus-score.js';

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`.padStart(7);

export function formatAccuracy(score: CorpusScore): string {
  const lines: string[] = [];
  lines.push(`feed corpus: ${score.cases} cases`, '');
  lines.push(
    `${'field'.padEnd(18)} ${'asserted'.padStart(8)} ${'exact'.padStart(7)} ${'normal.'.padStart(7)} ${'macro ex'.padStart(8)} ${'macro no'.padStart(8)}`,
  );
  for (const [field, s] of fieldSummary(score)) {
    lines.push(
      `${field.padEnd(18)} ${String(s.asserted).padStart(8)} ${pct(s.exact)} ${pct(s.normalised)} ${pct(s.macroExact).padStart(8)} ${pct(s.macroNormalised).padStart(8)}`,
    );
  }
  lines.push('', `${'suite'.padEnd(24)} ${'asserted'.padStart(8)} ${'exact'.padStart(7)} ${'normal.'.padStart(7)}`);
  const suites = suiteSummary(score);
  for (const [suite, s] of suites) lines.push(`${suite.padEnd(24)} ${String(s.asserted).padStart(8)} ${pct(s.exact)} ${pct(s.normalised)}`);
  const values = [...suites.values()];
  const macro = (key: 'exact' | 'normalised') => values.reduce((total, s) => total + s[key], 0) / Math.max(values.length, 1);
  lines.push('', `headline (macro over suites): exact ${pct(macro('exact')).trim()}, normalised ${pct(macro('normalised')).trim()}`);
  return lines.join('\n');
}

export function runAccuracy(env: { FEEDMILL_CORPUS_DIR?: string | undefined; FEEDMILL_SHOW_MISSES?: string | undefined }): void {
  const score = scoreCorpus(locateCorpusDir(env.FEEDMILL_CORPUS_DIR));
  console.log(formatAccuracy(score));
  if (env.FEEDMILL_SHOW_MISSES) {
    const wanted = env.FEEDMILL_SHOW_MISSES;
    for (const miss of score.misses) {
      if (wanted === '1' || miss.field === wanted) console.log(JSON.stringify(miss));
    }
  }
}
