import t from 'tap';
import { chromiumExecutable, navigatesBy, newDashboardContext, recordPageErrors, signIn } from '../fixtures/browser.js';
import { startDashboardStack } from '../fixtures/dashboard-stack.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { assertAccessible, headingOf, navLink, openAll, pathOf } from './dashboard-flow.js';

// How a page is read, set in the dashboard in Chromium against `feedmill all` (issue #27): a feed
// from a members' page by its items' selectors and a header the page requires, one from a page
// whose list a script builds (render: always), then the first feed's fetch options replaced in its
// settings. Every fetch of the members' page is checked for the header.
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.plan(0, chromium.skip);
} else {
  t.setTimeout(300_000);
  /** The token the members' page wants now; the settings step changes it. */
  let token = 'first-token-4c1e';
  const seen: { token: string | undefined; userAgent: string | undefined }[] = [];
  const cards = ['Harbour reopens', 'New ferry timetable', 'Lighthouse open day']
    .map(
      (title, index) =>
        `<div class="card"><h3><a href="/notes/${index}">${title}</a></h3><time datetime="2024-03-0${5 - index}">March</time></div>`,
    )
    .join('');
  // The page links to a feed of other stories: without selectors a create would follow it.
  const members = `<!doctype html><html><head><title>Members' board</title><link rel="alternate" type="application/rss+xml" href="/other.xml"></head><body>${cards}</body></html>`;
  const scripted = `<!doctype html><html><head><title>Engine notes</title></head><body><ul id="posts"></ul><script>
document.getElementById('posts').innerHTML = ['The analytical engine', 'Punched cards for looms', 'A first program']
  .map((post, i) => '<li class="post"><h2><a href="/posts/' + i + '">' + post + '</a></h2><p>A post about ' + post.toLowerCase() + ', told at length.</p></li>').join('');
</script></body></html>`;
  const site = await startFixtureServer((request, response) => {
    if (request.url === '/members/') {
      const given = request.headers['x-feed-token'] as string | undefined;
      seen.push({ token: given, userAgent: request.headers['user-agent'] });
      if (given !== token) return void response.writeHead(401).end();
      return void response.writeHead(200, { 'content-type': 'text/html' }).end(members);
    }
    if (request.url === '/scripted/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(scripted);
    response.writeHead(404).end();
  });
  const stack = await startDashboardStack({ chromiumPath: chromium.path, renders: true });
  t.teardown(async () => {
    await stack.stop();
    await site.close();
  });
  const context = await newDashboardContext(stack.browser, stack.service.baseUrl);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const pageErrors = recordPageErrors(page);

  const itemTitles = async (name: string): Promise<string[]> =>
    (await page.getByRole('list', { name }).first().getByRole('link').allInnerTexts()).map((text) => text.trim());

  let membersFeed = '';
  t.test('a feed from a members’ page, by its selectors and with the header it requires', async (t) => {
    await signIn(page, stack.person);
    await navigatesBy(page, () => navLink(page, 'Feeds').click());
    const form = page.getByRole('form', { name: 'Add a feed' });
    await form.getByRole('textbox', { name: 'Feed URL' }).fill(`${site.url}/members/`);
    await openAll(page, form);
    await form.getByRole('textbox', { name: 'Item', exact: true }).fill('.card');
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill('h3 a');
    await form.getByRole('textbox', { name: 'Date', exact: true }).fill('time@datetime');
    await form.getByRole('textbox', { name: 'Request headers' }).fill(`X-Feed-Token: ${token}`);
    await assertAccessible(t, page, 'the add-feed form with selectors and fetch options open');

    await navigatesBy(page, () => form.getByRole('button', { name: 'Preview' }).click());
    t.same(await itemTitles('Preview'), ['Harbour reopens', 'New ferry timetable', 'Lighthouse open day'], 'the items the selectors name');
    t.equal(await form.getByRole('textbox', { name: 'Item', exact: true }).inputValue(), '.card', 'the selectors stay as typed');
    t.equal(await form.getByRole('textbox', { name: 'Request headers' }).inputValue(), `X-Feed-Token: ${token}`);
    await assertAccessible(t, page, 'the add-feed form with a preview');

    await navigatesBy(page, () => form.getByRole('button', { name: 'Add feed' }).click());
    membersFeed = /^\/dashboard\/feeds\/([^/]+)$/.exec(pathOf(page))?.[1] ?? '';
    t.ok(membersFeed, `the new feed's page opens (${page.url()})`);
    t.equal(await headingOf(page), "Members' board");
    t.same(await itemTitles('Items'), ['Harbour reopens', 'New ferry timetable', 'Lighthouse open day']);
    t.ok(seen.length > 0, 'the page was fetched');
    t.same(
      seen.filter((request) => request.token !== token),
      [],
      'every fetch of the members’ page brought its header',
    );
  });

  t.test('a page whose list a script builds, with render: always', async (t) => {
    await navigatesBy(page, () => navLink(page, 'Feeds').click());
    const form = page.getByRole('form', { name: 'Add a feed' });
    await form.getByRole('textbox', { name: 'Feed URL' }).fill(`${site.url}/scripted/`);
    await form.getByRole('combobox', { name: 'Render the page in a browser' }).selectOption('always');
    await navigatesBy(page, () => form.getByRole('button', { name: 'Add feed' }).click());
    t.match(pathOf(page), /^\/dashboard\/feeds\/[^/]+$/, `the new feed's page opens (${page.url()})`);
    t.same((await itemTitles('Items')).sort(), ['A first program', 'Punched cards for looms', 'The analytical engine']);
    const settings = page.getByRole('form', { name: 'Settings' });
    t.equal(await settings.getByRole('combobox', { name: 'Render the page in a browser' }).inputValue(), 'always', 'kept in its settings');
  });

  t.test('the fetch options are replaced in the feed’s settings, and the next read uses them', async (t) => {
    await page.goto(`/dashboard/feeds/${membersFeed}`);
    const fetchForm = page.getByRole('form', { name: 'Fetch options' });
    t.match(await fetchForm.locator('#fetch-stored').innerText(), /Stored: headers X-Feed-Token \(values not shown\)\./);
    t.notMatch(await page.content(), token, 'the stored value is not in the page');
    const selectorsForm = page.getByRole('form', { name: 'Selectors' });
    await assertAccessible(t, page, 'the feed page with its selectors and fetch options');

    token = 'second-token-77aa';
    await fetchForm.getByRole('textbox', { name: 'User agent' }).fill('members-reader/2');
    await fetchForm.getByRole('textbox', { name: 'Request headers' }).fill(`X-Feed-Token: ${token}`);
    await navigatesBy(page, () => fetchForm.getByRole('button', { name: 'Replace fetch options' }).click());
    t.equal((await page.getByRole('status').first().innerText()).trim(), 'Saved.');
    t.match(
      await page.getByRole('form', { name: 'Fetch options' }).locator('#fetch-stored').innerText(),
      /Stored: user agent members-reader\/2; headers X-Feed-Token \(values not shown\)\./,
    );

    // New selectors read the page again at once, with the options now stored.
    seen.length = 0;
    await selectorsForm.getByRole('textbox', { name: 'Title', exact: true }).fill('h3');
    await navigatesBy(page, () => selectorsForm.getByRole('button', { name: 'Save selectors' }).click());
    t.equal((await page.getByRole('status').first().innerText()).trim(), 'Saved.');
    t.ok(seen.length > 0, 'the page was read again');
    t.same(
      seen,
      seen.map(() => ({ token, userAgent: 'members-reader/2' })),
      'with the new header and user agent',
    );
    await assertAccessible(t, page, 'the feed page after saving');
  });

  t.test('no page broke its Content-Security-Policy or threw', async (t) => {
    t.same(pageErrors, []);
  });
}
