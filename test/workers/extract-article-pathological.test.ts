import t from 'tap';
import { extractArticle } from '../../workers/extract-article.js';

const prose = 'The committee met again on Tuesday to review the harbour accounts line by line. '.repeat(4);
const nested = (depth: number): Buffer =>
  Buffer.from(`<html><body>${'<div>'.repeat(depth)}<p>${prose}</p>${'</div>'.repeat(depth)}</body></html>`);

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

t.test('a page without <html> and <body> is read as a browser reads it', async (t) => {
  const article = extractArticle(Buffer.from(`<div><div><p>${prose}</p></div></div>`), { url: 'https://x.example/a' });
  t.match(article?.content_text ?? '', 'The committee met again');
});

t.test('deep nesting is flattened: 20k levels neither overflow the stack nor cost more than 2k levels by much', async (t) => {
  const deep = extractArticle(nested(20_000), { url: 'https://x.example/a' });
  t.match(deep?.content_text ?? '', 'The committee met again', 'the text inside is still found');
  cpuMs(() => extractArticle(nested(2_000), { url: 'https://x.example/a' }));
  const shallow = cpuMs(() => extractArticle(nested(2_000), { url: 'https://x.example/a' }));
  const tenfold = cpuMs(() => extractArticle(nested(20_000), { url: 'https://x.example/a' }));
  // Compared by growth, not by a budget: unflattened, Readability's cost grows faster than the
  // square of the depth (2k levels alone would take minutes); flattened, the work past the cap is linear.
  t.ok(tenfold < shallow * 30, `10x the depth took ${(tenfold / shallow).toFixed(1)}x the CPU time`);
});
