/**
 * `npm run bench -- render`: pages rendered per minute at the default concurrency, p50/p99 render
 * time and the browser's peak memory, next to the same pages read statically (fetch + extract).
 * Fixture pages on 127.0.0.2: each builds its list of 20 posts with a script from a JSON request,
 * like the sites rendering is for. FEEDMILL_CHROMIUM_PATH names the browser (else /usr/bin/chromium);
 * FEEDMILL_BENCH_PAGES the number of pages (default 60).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChromiumRenderer } from '../src/adapters/chromium/renderer.js';
import { createUndiciFetcher } from '../src/adapters/undici/fetcher.js';
import { extractPage } from '../workers/extract-page.js';

const posts = (page: number): string[] => Array.from({ length: 20 }, (_, i) => `Post ${i + 1} of page ${page}: notes on engines`);

const scripted = (page: number): string => `<!doctype html><html><head><title>Page ${page}</title>
<style>body { font-family: sans-serif } .post { margin: 1em 0 }</style></head>
<body><header><a href="/">Home</a></header><main><ul id="posts"></ul></main><footer>About</footer>
<script>
fetch('/api/${page}.json').then((r) => r.json()).then((list) => {
  document.getElementById('posts').innerHTML = list.map((title, i) =>
    '<li class="post"><h2><a href="/posts/${page}/' + i + '">' + title + '</a></h2><p>' + title + ', told at some length for a teaser.</p></li>').join('');
});
</script></body></html>`;

/** The same list in the HTML as served: what a static read gets from a page without scripts. */
const served = (page: number): string =>
  `<!doctype html><html><head><title>Page ${page}</title></head><body><main><ul>${posts(page)
    .map(
      (title, i) =>
        `<li class="post"><h2><a href="/posts/${page}/${i}">${title}</a></h2><p>${title}, told at some length for a teaser.</p></li>`,
    )
    .join('')}</ul></main></body></html>`;

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function runRender(env: NodeJS.ProcessEnv): Promise<void> {
  const count = Number(env.FEEDMILL_BENCH_PAGES ?? 60);
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const json = /^\/api\/(\d+)\.json$/.exec(url);
    if (json) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(posts(Number(json[1]))));
    const page = /^\/(scripted|static)\/(\d+)$/.exec(url);
    if (!page) return void response.writeHead(404).end();
    const n = Number(page[2]);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page[1] === 'scripted' ? scripted(n) : served(n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', () => resolve()));
  const origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  const fetcher = createUndiciFetcher({ isAddressAllowed: (address) => address === '127.0.0.2' });
  const renderer = createChromiumRenderer({
    fetcher,
    executablePath: env.FEEDMILL_CHROMIUM_PATH ?? '/usr/bin/chromium',
    concurrency: 2,
    timeoutMs: 20_000,
    maxRequests: 100,
    maxBytes: 10 * 1024 * 1024,
    maxPages: 100,
    maxMemoryBytes: 1024 ** 3,
    noSandbox: process.getuid?.() === 0,
  });
  const rows: string[] = [];
  const measure = async (name: string, read: (n: number) => Promise<number>): Promise<void> => {
    const times: number[] = [];
    let items = 0;
    const started = performance.now();
    const queue = Array.from({ length: count }, (_, i) => i);
    // Two readers at once, as FEEDMILL_RENDER_CONCURRENCY's default.
    await Promise.all(
      [0, 1].map(async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          const start = performance.now();
          items += await read(n);
          times.push(performance.now() - start);
        }
      }),
    );
    const minutes = (performance.now() - started) / 60_000;
    times.sort((a, b) => a - b);
    const memory = name === 'rendered' ? `${Math.round(renderer.status().peakMemoryBytes / 1024 ** 2)} MB` : '—';
    rows.push(
      `| ${name} | ${count} | ${(items / count).toFixed(1)} | ${Math.round(count / minutes)} | ${Math.round(percentile(times, 50))} | ${Math.round(percentile(times, 99))} | ${memory} |`,
    );
  };
  try {
    // A first page starts the browser: its launch is not what a page costs once it runs.
    await renderer.render({ url: `${origin}/scripted/999` });
    await measure('rendered', async (n) => {
      const page = await renderer.render({ url: `${origin}/scripted/${n}` });
      return extractPage(Buffer.from(page.body).toString('utf8'), { url: page.url }).items.length;
    });
    await measure('static', async (n) => {
      const page = await fetcher.fetch({ url: `${origin}/static/${n}` });
      if (page.status !== 200) throw new Error('expected a page');
      return extractPage(Buffer.from(page.body).toString('utf8'), { url: page.url }).items.length;
    });
  } finally {
    await renderer.close();
    await fetcher.close();
    server.close();
  }
  console.log('| read | pages | items per page | pages per minute | p50 ms | p99 ms | browser peak memory |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}
