/**
 * `parseFeed` against Python feedparser's own test documents: a second, independent suite beside
 * the shared corpus (which is gofeed's and rss-parser's, and which the parser was tuned on).
 * scripts/feedparser-suite.sh fetches and converts them; the scoring is the corpus's own.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runAccuracy } from './accuracy.js';
import { repositoryRoot } from './corpus-dir.js';

export function runFeedparserSuite(env: { FEEDMILL_SHOW_MISSES?: string | undefined }): void {
  const script = join(repositoryRoot(), 'scripts', 'feedparser-suite.sh');
  const printed = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const corpus = printed.trim().split('\n').at(-1);
  if (corpus === undefined || corpus === '') throw new Error(`Expected ${script} to print the corpus directory, got nothing`);
  runAccuracy({ ...env, FEEDMILL_CORPUS_DIR: corpus });
}
