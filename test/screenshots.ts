import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumExecutable, newDashboardContext, signIn } from './fixtures/browser.js';
import { startDashboardStack } from './fixtures/dashboard-stack.js';
import { runCommand } from './fixtures/feedmill-process.js';
import { repoRoot } from './fixtures/repo-root.js';

/**
 * `npm run screenshots`: the README's pictures of the dashboard, regenerated. Starts the binary on
 * embedded defaults with a fixture site and webhook receiver on 127.0.0.1, fills one account with a
 * feed, a bundle, a key and a webhook that has a call in its history, signs in through the form, and
 * writes one 1280×800 PNG per page to docs/screenshots/. Lives under test/ because it is built from
 * the e2e fixtures and compiled with them (tsc compiles src, workers, test and bench, not scripts).
 */
const out = join(repoRoot, 'docs', 'screenshots');

const chromium = chromiumExecutable();
if ('skip' in chromium) throw new Error(chromium.skip);
const stack = await startDashboardStack({ chromiumPath: chromium.path });
try {
  const { service, person, env } = stack;
  // Titles a reader would see on a real site, newest last.
  for (const title of ['Release 2.4: faster polling', 'Bundles now merge by date', 'How we test in a real browser'])
    stack.source.addItem(title);

  const created = JSON.parse(
    (await runCommand(['keys', 'create', '--account', person.account, '--scopes', 'read,write', '--json'], env))
      .trim()
      .split('\n')
      .at(-1) ?? '',
  ) as { key: string; secret: string };
  const authorization = `Bearer ${created.key}:${created.secret}`;
  const post = async (path: string, body: unknown): Promise<string> => {
    const response = await service.call('POST', path, { authorization, body });
    if (response.status !== 200) throw new Error(`POST ${path}: expected 200, got ${response.status}: ${response.text}`);
    return (JSON.parse(response.text) as { id: string }).id;
  };
  const feedId = await post('/v1/feeds', { url: stack.source.url });
  const bundleId = await post('/v1/bundles', { name: 'Morning reading', feeds: [feedId] });
  const webhookId = await post('/v1/webhooks', { url: stack.sink.url });
  await post(`/v1/webhooks/${webhookId}/test`, {});

  const pages: readonly { name: string; path: string }[] = [
    { name: 'feeds', path: '/dashboard/feeds' },
    { name: 'feed', path: `/dashboard/feeds/${feedId}` },
    { name: 'bundles', path: '/dashboard/bundles' },
    { name: 'bundle', path: `/dashboard/bundles/${bundleId}` },
    { name: 'keys', path: '/dashboard/keys' },
    { name: 'webhooks', path: '/dashboard/webhooks' },
    { name: 'webhook', path: `/dashboard/webhooks/${webhookId}` },
  ];
  mkdirSync(out, { recursive: true });
  const context = await newDashboardContext(stack.browser, service.baseUrl, { width: 1280, height: 800 });
  const page = await context.newPage();
  const shoot = async (name: string): Promise<void> => {
    const path = join(out, `${name}.png`);
    await page.screenshot({ path });
    console.log(`wrote ${path}`);
  };
  await page.goto('/dashboard/sign-in');
  await shoot('sign-in');
  await signIn(page, person);
  for (const { name, path } of pages) {
    const response = await page.goto(path);
    if (new URL(page.url()).pathname !== path || response?.status() !== 200)
      throw new Error(`${path}: expected the page, got ${response?.status()} at ${page.url()}`);
    await shoot(name);
  }
  await context.close();
} finally {
  await stack.stop();
}
