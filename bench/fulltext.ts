/**
 * `npm run bench -- fulltext`: the article extractor against Readability over linkedom and over
 * jsdom, on ScrapingHub's article-extraction-benchmark (181 news pages with their article text),
 * scored as its evaluate.py scores. Each extractor runs in a child process of its own.
 * FEEDMILL_BENCH_ARTICLES_DIR names the benchmark's checkout; FEEDMILL_SHOW_MISSES=1 also prints
 * feedmill's worst pages.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildResult } from './fulltext/child.js';
import { extractorNames, type ExtractorName } from './fulltext/extractors.js';
import { howToGetPages, loadPages } from './fulltext/pages.js';
import { scoreAll, scorePage, type Scores } from './fulltext/score.js';

interface Row extends Scores {
  extractor: ExtractorName;
  msPerPage: number;
  peakRssMb: number;
  failed: number;
}

const goalF1 = 0.965;

function runChild(extractor: ExtractorName, dir: string): ChildResult {
  const childPath = fileURLToPath(new URL('./fulltext/child.js', import.meta.url));
  const child = spawnSync(process.execPath, [childPath, extractor, dir], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`The ${extractor} child failed (status ${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as ChildResult;
}

export function runFulltext(env: NodeJS.ProcessEnv): void {
  const dir = env.FEEDMILL_BENCH_ARTICLES_DIR;
  if (!dir) {
    console.error(`fulltext: FEEDMILL_BENCH_ARTICLES_DIR is unset. ${howToGetPages}`);
    process.exitCode = 2;
    return;
  }
  const pages = loadPages(dir);
  const only = env.FEEDMILL_BENCH_EXTRACTORS?.split(',') ?? [...extractorNames];
  const rows: Row[] = [];
  for (const extractor of extractorNames.filter((name) => only.includes(name))) {
    const result = runChild(extractor, dir);
    const scored = pages.map((page) => ({ expected: page.expected, predicted: result.texts[page.key] ?? '' }));
    rows.push({
      extractor,
      ...scoreAll(scored),
      msPerPage: result.cpuMs / pages.length,
      peakRssMb: result.peakRssMb,
      failed: result.failed.length,
    });
    if (extractor === 'feedmill' && env.FEEDMILL_SHOW_MISSES) {
      const worst = pages
        .map((page) => ({ key: page.key, url: page.url, score: scorePage(page.expected, result.texts[page.key] ?? '') }))
        .sort((a, b) => b.score.fp + b.score.fn - (a.score.fp + a.score.fn))
        .slice(0, 25);
      for (const miss of worst)
        console.log(
          JSON.stringify({
            ...miss,
            got: (result.texts[miss.key] ?? '').length,
            expected: (pages.find((page) => page.key === miss.key)?.expected ?? '').length,
          }),
        );
    }
  }
  console.log(`fulltext: ${pages.length} pages of ${dir}`);
  console.log('extractor              F1     precision recall  accuracy  ms/page  peak RSS MB  failed');
  for (const row of rows) {
    console.log(
      `${row.extractor.padEnd(22)} ${row.f1.toFixed(3)}  ${row.precision.toFixed(3)}     ${row.recall.toFixed(3)}   ${row.accuracy.toFixed(3)}     ${row.msPerPage.toFixed(1).padStart(6)}  ${row.peakRssMb.toFixed(0).padStart(11)}  ${row.failed}`,
    );
  }
  const ours = rows.find((row) => row.extractor === 'feedmill');
  const linkedom = rows.find((row) => row.extractor === 'readability-linkedom');
  const jsdom = rows.find((row) => row.extractor === 'readability-jsdom');
  if (ours === undefined) return;
  const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  console.log(`goal F1 >= ${goalF1}: ${verdict(ours.f1 >= goalF1)} (${ours.f1.toFixed(3)})`);
  if (linkedom !== undefined) {
    console.log(`goal more accurate than readability-linkedom: ${verdict(ours.f1 > linkedom.f1)}`);
    console.log(`goal faster than readability-linkedom: ${verdict(ours.msPerPage < linkedom.msPerPage)}`);
  }
  const others = [linkedom, jsdom].filter((row): row is Row => row !== undefined);
  if (others.length > 0)
    console.log(
      `goal less memory than ${others.map((row) => row.extractor).join(' and ')}: ${verdict(others.every((row) => ours.peakRssMb < row.peakRssMb))}`,
    );
}
