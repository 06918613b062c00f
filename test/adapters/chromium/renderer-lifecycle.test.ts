import t from 'tap';
import { descendants } from '../../../src/adapters/chromium/process-memory.js';
import { chromiumExecutable } from '../../fixtures/browser.js';
import { fetcherAllowing, serveOn, testRenderer } from './render-fixtures.js';

const chromium = chromiumExecutable();
const skip = 'skip' in chromium ? chromium.skip : false;

const listPage = `<!doctype html><title>List</title><ul id="l"></ul>
<script>setTimeout(() => { document.getElementById('l').innerHTML = '<li><a href="/a">Built by a script</a></li>'; }, 50);</script>`;

/** Chromium processes this test process started: the browser and its children. */
async function browserPids(): Promise<number[]> {
  return (await descendants(process.pid)).map((entry) => entry.pid);
}

t.test('a browser killed mid-render fails only the open page, and the next page renders', { skip }, async (t) => {
  if (!('path' in chromium)) return;
  let stalled: (() => void) | undefined;
  const site = await serveOn('127.0.0.2', (request, response) => {
    response.setHeader('content-type', 'text/html');
    if (request.url === '/slow.js') {
      // Holds the page open until the test has killed the browser.
      stalled = () => response.end('');
      return;
    }
    if (request.url === '/stalls') response.end('<!doctype html><script src="/slow.js"></script><p>never</p>');
    else response.end(listPage);
  });
  t.teardown(site.close);
  const fetcher = fetcherAllowing('127.0.0.2');
  t.teardown(() => fetcher.close());
  const renderer = testRenderer(chromium.path, fetcher);
  t.teardown(() => renderer.close());

  const pending = renderer.render({ url: `${site.origin}/stalls` });
  while (stalled === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(renderer.status().inProgress, 1);
  for (const pid of await browserPids()) process.kill(pid, 'SIGKILL');
  await t.rejects(pending, { code: 'render_unavailable', message: /browser stopped while rendering/ });
  stalled();
  t.equal(renderer.status().inProgress, 0, 'no page is left in progress');

  const again = await renderer.render({ url: `${site.origin}/list` });
  t.match(Buffer.from(again.body).toString('utf8'), /Built by a script/, 'a new browser rendered the next page');
  t.ok(renderer.status().browserRunning);
});

t.test('the browser is started afresh after its page allowance, and a page past its budget times out', { skip }, async (t) => {
  if (!('path' in chromium)) return;
  const site = await serveOn('127.0.0.2', (request, response) => {
    response.setHeader('content-type', 'text/html');
    if (request.url === '/hangs.js') return; // never answered
    if (request.url === '/hangs') response.end('<!doctype html><script src="/hangs.js"></script>');
    else response.end(listPage);
  });
  t.teardown(site.close);
  const fetcher = fetcherAllowing('127.0.0.2');
  t.teardown(() => fetcher.close());
  const renderer = testRenderer(chromium.path, fetcher, { maxPages: 2, timeoutMs: 2000 });
  t.teardown(() => renderer.close());

  await renderer.render({ url: `${site.origin}/1` });
  const first = await browserPids();
  await renderer.render({ url: `${site.origin}/2` });
  await renderer.render({ url: `${site.origin}/3` });
  const third = await browserPids();
  t.ok(first.length > 0 && third.length > 0);
  t.notOk(
    third.some((pid) => first.includes(pid)),
    'the third page ran in another browser, and the first browser is gone',
  );
  t.ok(renderer.status().peakMemoryBytes > 0, 'the browser memory was measured');
  await t.rejects(renderer.render({ url: `${site.origin}/hangs` }), { code: 'upstream_timeout' });
});
