import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import t from 'tap';
import { snapshotPolicy } from '../../src/dashboard/snapshot-html.js';
import { chromiumExecutable, contentWidth, navigatesBy, newDashboardContext, recordPageErrors, signIn } from '../fixtures/browser.js';
import { startDashboardStack } from '../fixtures/dashboard-stack.js';
import { runCommand } from '../fixtures/feedmill-process.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { assertAccessible, headingOf, pathOf } from './dashboard-flow.js';

// "Pick items on the page" (issue #27, point 4) walked in Chromium against the binary: a listing on
// 127.0.0.1 whose scripts, event attributes, images and frames would each ask a sentinel path of
// the site; the sentinel must see nothing, from the person's browser or from feedmill.
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.plan(0, chromium.skip);
} else {
  t.setTimeout(300_000);
  const listing = readFileSync(join(repoRoot, 'test/fixtures/pages/picker-listing.html'), 'utf8');
  // A page whose list a script builds: as served it lists nothing, so the picker shows it rendered.
  const built = `<!doctype html><html lang="en"><head><title>Built</title></head><body><ul id="list"></ul><script>
for (const [index, title] of ['Alpha', 'Beta', 'Gamma'].entries()) {
  const row = document.createElement('li');
  row.className = 'row';
  row.innerHTML = '<a href="/built/' + index + '">' + title + '</a>';
  document.getElementById('list').append(row);
}
</script></body></html>`;
  const sentinel: string[] = [];
  const site = await startFixtureServer((request, response) => {
    if (request.url === '/board/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(listing);
    if (request.url === '/built/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(built);
    sentinel.push(request.url ?? '');
    response.writeHead(404).end();
  });
  t.teardown(site.close);
  // The binary renders too: FEEDMILL_RENDER_NO_SANDBOX as the rendering tests set it, for a run as root.
  const stack = await startDashboardStack({
    chromiumPath: chromium.path,
    storeEnv: { FEEDMILL_CHROMIUM_PATH: chromium.path, FEEDMILL_RENDER_NO_SANDBOX: 'true' },
  });
  t.teardown(() => stack.stop());
  const { service, person } = stack;
  const boardUrl = `${site.url}/board/`;
  const expectedTitles = ['Winter ferry timetable', 'Pier works this week', 'Lost buoy found'];

  const context = await newDashboardContext(stack.browser, service.baseUrl);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const pageErrors = recordPageErrors(page);
  const frame = page.frameLocator('#pick-frame');
  const form = page.getByRole('form', { name: 'Selectors' });
  const field = (name: string) => form.getByRole('textbox', { name, exact: true });
  const status = page.getByRole('status');
  const listed = page.getByRole('list', { name: 'Items these selectors give' });
  const highlighted = () => frame.locator('[data-feedmill-pick~="item"]').count();
  let snapshotResponse: Response | undefined;
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/dashboard/feeds/pick/snapshot') snapshotResponse = response;
  });

  t.test('the add-feed form opens the picker on the typed address', async (t) => {
    await signIn(page, person);
    await page.getByRole('form', { name: 'Add a feed' }).getByRole('textbox', { name: 'Feed URL' }).fill(boardUrl);
    await navigatesBy(page, () => page.getByRole('button', { name: 'Pick items on the page' }).click());
    t.equal(pathOf(page), '/dashboard/feeds/pick');
    t.equal(await headingOf(page), 'Pick items on the page');
    await frame.getByRole('link', { name: 'Pier works this week' }).waitFor();
    t.equal(snapshotResponse?.headers()['content-security-policy'], snapshotPolicy, 'the snapshot came with its own policy');
    t.equal(await page.locator('#pick-frame').getAttribute('sandbox'), 'allow-same-origin');
  });

  t.test('a click on one title: the item and title selectors, every item highlighted, the list beside', async (t) => {
    await frame.getByRole('link', { name: 'Pier works this week' }).click();
    t.equal(pathOf(page), '/dashboard/feeds/pick', 'the link did not navigate the page');
    t.equal(await field('Item').inputValue(), 'article.notice');
    t.equal(await field('Title').inputValue(), 'h2.notice-title a');
    await status.filter({ hasText: '3 items match.' }).waitFor();
    t.match(await status.innerText(), '3 items match. 3 highlighted in the page.');
    t.equal(await highlighted(), 3, 'every notice is outlined in the frame');
    t.same(await listed.getByRole('link').allInnerTexts(), expectedTitles, 'the live list is the three notices, in page order');
    t.equal(await frame.locator('a', { hasText: 'Pier works this week' }).count(), 1, 'the frame still shows the page');
  });

  t.test('the date and the image are picked by switching what the next click sets', async (t) => {
    await page.getByRole('radio', { name: 'Date' }).check();
    await frame.locator('time').nth(1).click();
    t.equal(await field('Date').inputValue(), 'p.meta time');
    await page.getByRole('radio', { name: 'Image' }).check();
    await frame.getByRole('img', { name: 'The pier' }).click();
    t.equal(await field('Image').inputValue(), 'img.thumb');
    // The list's answer comes after the debounce: its marks are what to wait for.
    await frame.locator('[data-feedmill-pick~="image"]').nth(2).waitFor({ state: 'attached' });
    t.equal(await frame.locator('[data-feedmill-pick~="date"]').count(), 3, 'each item’s date is marked');
    t.match(await listed.innerText(), /4 Mar 2024/, 'the dates reach the list');
  });

  t.test('by keyboard: Enter on a link in the frame picks it; a typed selector is named when it is wrong', async (t) => {
    await page.getByRole('radio', { name: 'Title (and the items)' }).check();
    await field('Item').fill('');
    await field('Title').fill('');
    await frame.getByRole('link', { name: 'Lost buoy found' }).focus();
    await page.keyboard.press('Enter');
    t.equal(await field('Item').inputValue(), 'article.notice');
    t.equal(await field('Title').inputValue(), 'h2.notice-title a');
    await field('Title').fill('h2[');
    const error = page.locator('#pick-error');
    await error.filter({ hasText: 'selectors.title' }).waitFor();
    t.equal(await field('Title').getAttribute('aria-invalid'), 'true');
    await field('Title').fill('h2.notice-title a');
    await status.filter({ hasText: '3 items match.' }).waitFor();
    t.ok(await error.isHidden(), 'the error goes once the selector reads');
    await assertAccessible(t, page, 'the picker with its items');
  });

  t.test('Save creates the feed with those selectors and items', async (t) => {
    await navigatesBy(page, () => form.getByRole('button', { name: 'Save feed' }).click());
    const feedId = /^\/dashboard\/feeds\/([^/]+)$/.exec(pathOf(page))?.[1] ?? '';
    t.ok(feedId, `the new feed's page opens (${page.url()})`);
    t.equal(await headingOf(page), 'Harbour notices');
    for (const title of expectedTitles)
      t.ok(await page.getByRole('list', { name: 'Items' }).getByRole('link', { name: title }).isVisible(), title);
    const pair = JSON.parse(
      (await runCommand(['keys', 'create', '--account', person.account, '--scopes', 'read', '--json'], stack.env))
        .trim()
        .split('\n')
        .at(-1) ?? '',
    ) as { key: string; secret: string };
    const authorization = `Bearer ${pair.key}:${pair.secret}`;
    const settings = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}/settings`, { authorization })).text) as {
      selectors: unknown;
    };
    t.same(settings.selectors, { item: 'article.notice', title: 'h2.notice-title a', date: 'p.meta time', image: 'img.thumb' });
    const feed = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}`, { authorization })).text) as { items: { title: string }[] };
    t.same(feed.items.map((item) => item.title).sort(), [...expectedTitles].sort());
  });

  t.test('a page whose list a script builds is shown rendered, and its feed will render it', async (t) => {
    await page.goto(`/dashboard/feeds/pick?${new URLSearchParams({ url: `${site.url}/built/` }).toString()}`);
    await frame.getByRole('link', { name: 'Beta' }).click();
    t.equal(await field('Item').inputValue(), 'li.row');
    t.equal(await form.getByRole('combobox', { name: 'Render the page in a browser' }).inputValue(), 'always');
    await status.filter({ hasText: '3 items match.' }).waitFor();
    t.same(await listed.getByRole('link').allInnerTexts(), ['Alpha', 'Beta', 'Gamma']);
    t.equal(await frame.locator('script').count(), 0, 'the rendered page is sanitised too');
  });

  t.test('the picker fits a 375 px wide screen', async (t) => {
    const narrow = await newDashboardContext(stack.browser, service.baseUrl, { width: 375, height: 800 });
    t.teardown(() => narrow.close());
    const phone = await narrow.newPage();
    await signIn(phone, person);
    await phone.goto(`/dashboard/feeds/pick?${new URLSearchParams({ url: boardUrl }).toString()}`);
    await phone.frameLocator('#pick-frame').getByRole('link', { name: 'Lost buoy found' }).waitFor();
    const width = await contentWidth(phone);
    t.ok(width <= 375, `the picker is ${width} px wide`);
    await assertAccessible(t, phone, 'the picker at 375 px');
  });

  t.test('nothing in the page ran or loaded: the sentinel saw no request, the console no error', async (t) => {
    t.same(sentinel, []);
    t.same(pageErrors, []);
  });
}
