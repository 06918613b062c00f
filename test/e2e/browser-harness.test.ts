import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastify from 'fastify';
import t from 'tap';
import { registerSecurityHeaders } from '../../src/http/plugins/security-headers.js';
import { securityHeaderSet } from '../../src/http/security-header-set.js';
import { checkAccessibility, chromiumExecutable, contentWidth, launchChromium, newDashboardContext } from '../fixtures/browser.js';
import { freePort, startFeedmill } from '../fixtures/feedmill-process.js';

// The browser tests' own machinery, against the binary and against pages served under feedmill's
// real security headers: what the dashboard tests stand on must itself be shown to work.
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.plan(0, chromium.skip);
} else {
  t.setTimeout(180_000);
  const browser = await launchChromium(chromium.path);
  t.teardown(() => browser.close());

  t.test('Chromium opens the binary over HTTPS, trusting its self-signed certificate only when told to', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-browser-'));
    const env = {
      FEEDMILL_PORT: String(await freePort()),
      FEEDMILL_METRICS_PORT: String(await freePort()),
      FEEDMILL_DATA_DIR: dataDir,
      FEEDMILL_PARSER_THREADS: '1',
      FEEDMILL_LOG_LEVEL: 'warn',
    };
    const service = await startFeedmill(env);
    t.teardown(async () => {
      await service.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    const trusting = await newDashboardContext(browser, service.baseUrl);
    t.teardown(() => trusting.close());
    const page = await trusting.newPage();
    const response = await page.goto('/v1/openapi.json');
    t.equal(response?.status(), 200);
    t.match(await response?.text(), /"openapi":/, 'the OpenAPI document arrived');

    const strict = await browser.newContext();
    t.teardown(() => strict.close());
    const refused = await strict
      .newPage()
      .then((other) => other.goto(`${service.baseUrl}/healthz`))
      .then(
        () => 'loaded',
        (error: Error) => error.message,
      );
    t.match(refused, /ERR_CERT_AUTHORITY_INVALID/, 'without ignoreHTTPSErrors the certificate is refused');
  });

  t.test('axe runs under the strict Content-Security-Policy and reports serious violations', async (t) => {
    const app = fastify();
    registerSecurityHeaders(app, securityHeaderSet({ hstsMaxAge: 0 }));
    const shell = (body: string): string =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture</title></head><body><main><h1>Fixture</h1>${body}</main></body></html>`;
    app.get('/good', (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(shell('<label>Feed URL <input type="url" name="url"></label><button>Add feed</button>')),
    );
    app.get('/bad', (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(shell('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="url" name="url"><button></button>')),
    );
    app.get('/wide', (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          shell(
            '<table><tr><td><pre>https://localhost:8443/feeds/aaaaaaaaaaaaaaaa.xml and a long long line that never wraps</pre></td></tr></table>',
          ),
        ),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    t.teardown(() => app.close());
    const { port } = app.server.address() as { port: number };
    const context = await newDashboardContext(browser, `http://127.0.0.1:${port}`, { width: 375, height: 700 });
    t.teardown(() => context.close());
    const page = await context.newPage();

    const good = await page.goto('/good');
    t.match(good?.headers()['content-security-policy'], /script-src 'self'/, 'the page is served under the strict policy');
    t.same(await checkAccessibility(page), [], 'a labelled form has no serious violation');
    t.ok((await contentWidth(page)) <= 375, 'a page that wraps fits 375 px');

    await page.goto('/bad');
    const rules = (await checkAccessibility(page)).map((violation) => violation.rule).sort();
    t.same(rules, ['button-name', 'image-alt', 'label'], 'an unnamed button, an image without alt and an unlabelled field are reported');

    await page.goto('/wide');
    t.ok((await contentWidth(page)) > 375, 'a line that never wraps is measured wider than 375 px');
  });
}
