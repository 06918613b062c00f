import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { descendants } from '../../src/adapters/chromium/process-memory.js';
import { chromiumExecutable } from '../fixtures/browser.js';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';

// Pages whose list a script builds, through the binary over HTTPS with Debian's Chromium: created
// as feeds by rendering, rendered again on refresh, and a browser killed mid-page loses nothing.
t.setTimeout(300_000);
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.pass(`skipped: ${chromium.skip}`);
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-render-'));
  const env: Record<string, string> = {
    ...(await binaryEnv(dataDir)),
    FEEDMILL_CHROMIUM_PATH: chromium.path,
    // The tests may run as root, where Chromium cannot start its sandbox.
    FEEDMILL_RENDER_NO_SANDBOX: 'true',
  };

  const posts = ['The analytical engine', 'Notes on the difference engine', 'Punched cards for looms', 'A first program'];
  /** Set to hold the posts' JSON open until the test lets it go. */
  let stall: { arrived: boolean; release?: () => void } | undefined;
  const page = `<!doctype html><html><head><title>Engine notes</title></head><body><main><ul id="posts"></ul></main>
<script>
fetch('/api/posts.json').then((r) => r.json()).then((list) => {
  document.getElementById('posts').innerHTML = list.map((post, i) =>
    '<li class="post"><h2><a href="/posts/' + i + '">' + post + '</a></h2><p>A post about ' + post.toLowerCase() + ', told at length.</p></li>').join('');
});
</script></body></html>`;
  const source = await startFixtureServer((request, response) => {
    if (request.url === '/api/posts.json') {
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(posts));
      if (stall) {
        stall.arrived = true;
        stall.release = answer;
        return;
      }
      return void answer();
    }
    if (request.url?.startsWith('/list')) return void response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    response.writeHead(404).end();
  });
  const { service, call } = await startServiceAs(env, 'ada');
  t.teardown(async () => {
    await service.stop('SIGKILL');
    await source.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const titles = (feed: Record<string, unknown>): string[] =>
    (feed.items as { title: string }[]).map((item) => item.title).sort((a, b) => a.localeCompare(b));
  const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
    for (let tries = 0; tries < 600; tries++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`gave up waiting for ${what}`);
  };

  let feedId = '';
  t.test('a page whose list a script builds becomes a feed, by rendering it', async (t) => {
    const created = await call('POST', '/v1/feeds', { url: `${source.url}/list` });
    t.equal(created.status, 200, JSON.stringify(created.json));
    feedId = String(created.json.id);
    t.same(
      titles(created.json),
      [...posts].sort((a, b) => a.localeCompare(b)),
    );
    const settings = await call('GET', `/v1/feeds/${feedId}/settings`);
    t.equal(settings.json.render, 'auto');
    const ready = (await (await fetch(`http://127.0.0.1:${env['FEEDMILL_METRICS_PORT']}/readyz`)).json()) as Record<string, unknown>;
    t.match(ready, { status: 'ready', rendering: { available: true, browser_running: true, queued: 0 } });
  });

  t.test('its refreshes render it again', async (t) => {
    posts.push('Bernoulli numbers, step by step');
    await until(async () => titles((await call('GET', `/v1/feeds/${feedId}`)).json).includes(posts[4] ?? ''), 'the new post');
    t.pass('the post the script added after creation arrived');
  });

  t.test('selectors for a list a script builds: `auto` reads them on the rendered page, as do the refreshes', async (t) => {
    const selectors = { item: 'li.post', title: 'h2 a', summary: 'p' };
    const created = await call('POST', '/v1/feeds', { url: `${source.url}/list?picked`, selectors });
    t.equal(created.status, 200, JSON.stringify(created.json));
    t.same(
      titles(created.json),
      [...posts].sort((a, b) => a.localeCompare(b)),
      'every post the script listed',
    );
    const id = String(created.json.id);
    posts.push('Selected after the script ran');
    await until(
      async () => titles((await call('GET', `/v1/feeds/${id}`)).json).includes(posts.at(-1) ?? ''),
      'the new post, read by selectors',
    );
    t.pass('a refresh rendered the page again and read it by the selectors');
    // The kill test below holds the one rendered feed's page; this one must not refresh meanwhile.
    t.match((await call('DELETE', `/v1/feeds/${id}`)).json, { deleted: true });
    const never = await call('POST', '/v1/feeds', { url: `${source.url}/list?picked-never`, selectors, render: 'never' });
    t.equal(never.status, 402, 'as served, the selectors name nothing');
    t.match(never.json, { errors: [{ code: 'no_items_found' }], message: /set `render` to `auto`/ });
  });

  t.test('`render: never` reads the page as served: nothing to read, and the message says why', async (t) => {
    const refused = await call('POST', '/v1/feeds', { url: `${source.url}/list?never`, render: 'never' });
    t.equal(refused.status, 402);
    t.match(refused.json, { errors: [{ code: 'no_items_found' }], message: /set `render` to `auto`/ });
  });

  t.test('a bad `render` is refused naming the field', async (t) => {
    const refused = await call('POST', '/v1/feeds', { url: `${source.url}/list`, render: 'sometimes' });
    t.equal(refused.status, 400);
    t.match(JSON.stringify(refused.json), /render/);
  });

  t.test('the browser killed mid-render leaves no job stuck: the item arrives on a later refresh', async (t) => {
    stall = { arrived: false };
    const afterCrash = 'The engine that was never built';
    posts.push(afterCrash);
    await until(async () => stall?.arrived === true, 'a refresh that renders the page');
    const browser = await descendants(service.child.pid ?? 0);
    t.ok(browser.length > 0, 'the service runs a browser');
    // Chromium takes its helpers down when its main process dies, so some may be gone already.
    for (const { pid } of browser) killIfRunning(pid);
    const held = stall;
    stall = undefined;
    held.release?.();
    // A failure here says where the feed and the renderer stood, so a run that times out explains itself.
    await until(async () => titles((await call('GET', `/v1/feeds/${feedId}`)).json).includes(afterCrash), 'the post after the crash').catch(
      async (error: unknown) => {
        const status = (await call('GET', `/v1/feeds/${feedId}`)).json.status;
        const rendering = await (await fetch(`http://127.0.0.1:${env['FEEDMILL_METRICS_PORT']}/readyz`)).text();
        throw new Error(`${String(error)}; the feed's status: ${JSON.stringify(status)}; readyz: ${rendering}`);
      },
    );
    const metrics = await (await fetch(`http://127.0.0.1:${env['FEEDMILL_METRICS_PORT']}/metrics`)).text();
    t.match(metrics, /feedmill_render_page_seconds_count\{[^}]*outcome="render_unavailable"[^}]*\} [1-9]/, 'the crashed page was counted');
    const ready = (await (await fetch(`http://127.0.0.1:${env['FEEDMILL_METRICS_PORT']}/readyz`)).json()) as Record<string, unknown>;
    t.match(ready, { status: 'ready', rendering: { available: true } }, 'the process stays ready and can render');
  });
}

function killIfRunning(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
