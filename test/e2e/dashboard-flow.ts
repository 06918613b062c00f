import type { IncomingHttpHeaders } from 'node:http';
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { Webhook as Verifier } from 'standardwebhooks';
import t from 'tap';
import type { Test } from 'tap';
import { checkAccessibility, navigatesBy, newDashboardContext, recordPageErrors, signIn } from '../fixtures/browser.js';
import type { DashboardStack } from '../fixtures/dashboard-stack.js';
import { eventually } from '../fixtures/eventually.js';

/** The address's path, what the dashboard's routes are. */
export const pathOf = (page: Page): string => new URL(page.url()).pathname;

/** The page's h1, as a person reads it. */
export const headingOf = async (page: Page): Promise<string> => (await page.getByRole('heading', { level: 1 }).innerText()).trim();

/** A link of the main navigation (Feeds, Bundles, API keys, Webhooks). */
export const navLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Asserts axe-core finds no serious or critical violation on the page as it is now. */
export async function assertAccessible(t: Test, page: Page, what: string): Promise<void> {
  t.same(await checkAccessibility(page), [], `no serious axe violation on ${what}`);
}

/**
 * Resolves once the page opens a live stream to the server (an SSE response, or a WebSocket), so an
 * event published after it reaches the page; or after `ms`, for a page that would poll instead.
 */
function liveStreamOpened(page: Page, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      page.off('websocket', done);
      page.off('response', onResponse);
      clearTimeout(timer);
      resolve();
    };
    const onResponse = (response: Response): void => {
      if (/^text\/event-stream/.test(response.headers()['content-type'] ?? '')) done();
    };
    const timer = setTimeout(done, ms);
    page.on('websocket', done);
    page.on('response', onResponse);
  });
}

/** Opens every closed disclosure in `scope` from the keyboard (focus its summary, Enter), as a person without a mouse would. */
export async function openAll(page: Page, scope: Locator): Promise<void> {
  const closed = scope.locator('details:not([open]) > summary');
  for (let count = await closed.count(); count > 0; count--) {
    await closed.first().focus();
    await page.keyboard.press('Enter');
  }
}

const flatHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

/**
 * The walk-through in the browser, one subtest per step, sharing one signed-in page: sign
 * in; a key made on its page works against REST; a feed from the site, its items; its title and
 * custom author changed; a bundle with it; a webhook on the receiver, its test request signed and in
 * the call history; a new upstream item appearing without a reload; the key revoked (REST says 401);
 * sign out. axe runs on every page visited. Run by one test file per mode (embedded, cluster).
 */
export async function dashboardFlow(stack: DashboardStack): Promise<void> {
  const { service, person } = stack;
  const context: BrowserContext = await newDashboardContext(stack.browser, service.baseUrl);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const pageErrors = recordPageErrors(page);

  let authorization = '';
  let keyId = '';
  let feedId = '';

  t.test('/ sends a person who is not signed in to sign in, then to the feed list', async (t) => {
    await page.goto('/');
    t.equal(pathOf(page), '/dashboard/sign-in');
    t.equal(new URL(page.url()).searchParams.get('next'), '/dashboard/feeds', 'the page asked for is remembered');
    t.equal(await headingOf(page), 'Sign in');
    await assertAccessible(t, page, 'the sign-in page');
    await signIn(page, person);
    t.equal(pathOf(page), '/dashboard/feeds');
    t.equal(await headingOf(page), 'Feeds');
    for (const name of ['Feeds', 'Bundles', 'API keys', 'Webhooks'])
      t.equal(await navLink(page, name).count(), 1, `the navigation links to ${name}`);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === '__Host-feedmill-session');
    t.match(
      cookie,
      { httpOnly: true, secure: true, sameSite: 'Lax', path: '/' },
      'the session cookie is HttpOnly, Secure and SameSite=Lax',
    );
    await assertAccessible(t, page, 'the empty feed list');
  });

  t.test('a key made on the API keys page works against the REST API', async (t) => {
    await navigatesBy(page, () => navLink(page, 'API keys').click());
    t.equal(pathOf(page), '/dashboard/keys');
    t.equal(await headingOf(page), 'API keys');
    await assertAccessible(t, page, 'the API keys page');
    const form = page.getByRole('form', { name: 'Create a key' });
    t.ok(await form.getByRole('checkbox', { name: 'Read' }).isChecked(), 'Read is checked by default');
    t.ok(await form.getByRole('checkbox', { name: 'Write' }).isChecked(), 'Write is checked by default');
    await navigatesBy(page, () => form.getByRole('button', { name: 'Create key' }).click());
    keyId = await page.getByRole('textbox', { name: 'API key', exact: true }).inputValue();
    const secret = await page.getByRole('textbox', { name: 'API secret', exact: true }).inputValue();
    authorization = await page.getByRole('textbox', { name: 'Authorization header' }).inputValue();
    t.match(keyId, /^fmk_/);
    t.equal(authorization, `Bearer ${keyId}:${secret}`, 'the header is ready to paste');
    t.notOk(await page.getByRole('textbox', { name: 'API secret', exact: true }).isEditable(), 'the secret is read-only');
    t.ok(await page.getByRole('button', { name: 'Copy secret' }).isVisible(), 'a button copies the secret');
    await assertAccessible(t, page, 'the new key page');
    const listed = await service.call('GET', '/v1/feeds', { authorization });
    t.equal(listed.status, 200, listed.text);
  });

  t.test('a feed from a site on 127.0.0.1: preview, add, see its items', async (t) => {
    await navigatesBy(page, () => navLink(page, 'Feeds').click());
    const form = page.getByRole('form', { name: 'Add a feed' });
    const address = form.getByRole('textbox', { name: 'Feed URL' });
    await address.fill(stack.source.url);
    // Server-rendered, the preview is a page of its own; enhanced by script, it would not be: the
    // wait is for the list, which both show.
    await form.getByRole('button', { name: 'Preview' }).click();
    // The contract names the list, not where it sits (in the form or beside it): the first one.
    const preview = page.getByRole('list', { name: 'Preview' }).first();
    await preview.waitFor();
    await page.waitForLoadState('load');
    t.match(await preview.innerText(), /Post 2[\s\S]*Post 1/, 'the preview shows the items, newest first');
    t.equal(await address.inputValue(), stack.source.url, 'the address stays in the field');
    await assertAccessible(t, page, 'the feed list with a preview');
    await openAll(page, form);
    await assertAccessible(t, page, 'the add-feed form with its selectors and fetch options open');

    await navigatesBy(page, () => form.getByRole('button', { name: 'Add feed' }).click());
    const match = /^\/dashboard\/feeds\/([^/]+)$/.exec(pathOf(page));
    feedId = match?.[1] ?? '';
    t.ok(match, `the new feed's page opens (${page.url()})`);
    t.equal(await headingOf(page), 'Fixture & Co');
    const items = page.getByRole('list', { name: 'Items' });
    for (const title of ['Post 1', 'Post 2'])
      t.ok(await items.getByRole('link', { name: title, exact: true }).isVisible(), `the item ${title} is listed`);
    const api = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}`, { authorization })).text) as { rss_feed_url: string };
    t.equal(
      await page.getByRole('textbox', { name: 'Hosted feed address' }).inputValue(),
      api.rss_feed_url,
      "the hosted address is the API's rss_feed_url",
    );
    t.ok(await page.getByRole('button', { name: 'Copy address' }).isVisible());
    await assertAccessible(t, page, 'the feed page');
    await openAll(page, page.getByRole('main'));
    await assertAccessible(t, page, 'the feed page with its selectors and fetch options open');
  });

  t.test('the title and the custom author are changed on the feed page', async (t) => {
    const edit = page.getByRole('form', { name: 'Edit feed' });
    await edit.getByRole('textbox', { name: 'Title', exact: true }).fill('Renamed by hand');
    await navigatesBy(page, () => edit.getByRole('button', { name: 'Save feed' }).click());
    t.equal(await headingOf(page), 'Renamed by hand');
    await assertAccessible(t, page, 'the feed page after saving the title');
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('textbox', { name: 'Custom author' }).fill('The Desk');
    await navigatesBy(page, () => settings.getByRole('button', { name: 'Save settings' }).click());
    t.equal(await settings.getByRole('textbox', { name: 'Custom author' }).inputValue(), 'The Desk', 'the saved author is shown');
    // The dashboard is a client of the same use cases: the API sees what was saved.
    const feed = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}`, { authorization })).text) as { title: string };
    t.equal(feed.title, 'Renamed by hand');
    const saved = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}/settings`, { authorization })).text) as {
      customAuthor: string | null;
    };
    t.equal(saved.customAuthor, 'The Desk');
    await assertAccessible(t, page, 'the feed page after saving');
  });

  t.test('full article text: turned on after a preview of the latest article', async (t) => {
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('checkbox', { name: 'Full article text' }).check();
    await navigatesBy(page, () => settings.getByRole('button', { name: 'Preview full text' }).click());
    const preview = page.getByRole('region', { name: 'Full text preview' });
    t.match(await preview.innerText(), /ARTICLE-BODY-2: the harbour council/, 'the latest item’s article is shown');
    t.ok(await settings.getByRole('checkbox', { name: 'Full article text' }).isChecked(), 'the preview keeps the switch as set');
    await assertAccessible(t, page, 'the feed page with an article preview');
    await navigatesBy(page, () => settings.getByRole('button', { name: 'Save settings' }).click());
    const saved = JSON.parse((await service.call('GET', `/v1/feeds/${feedId}/settings`, { authorization })).text) as { full_text: boolean };
    t.equal(saved.full_text, true, 'the API sees full text on');
  });

  t.test('a bundle is built with the feed', async (t) => {
    await navigatesBy(page, () => navLink(page, 'Bundles').click());
    t.equal(await headingOf(page), 'Bundles');
    await assertAccessible(t, page, 'the bundle list');
    const create = page.getByRole('form', { name: 'Create a bundle' });
    await create.getByRole('textbox', { name: 'Bundle name' }).fill('Morning reading');
    await navigatesBy(page, () => create.getByRole('button', { name: 'Create bundle' }).click());
    const bundleId = /^\/dashboard\/bundles\/(_[^/]+)$/.exec(pathOf(page))?.[1] ?? '';
    t.ok(bundleId, `the new bundle's page opens (${page.url()})`);
    t.equal(await headingOf(page), 'Morning reading');
    await assertAccessible(t, page, 'the new, empty bundle page');
    await page.getByRole('combobox', { name: 'Feed', exact: true }).selectOption({ label: 'Renamed by hand' });
    await navigatesBy(page, () => page.getByRole('button', { name: 'Add to bundle' }).click());
    const members = page.getByRole('list', { name: 'Feeds in this bundle' });
    t.ok(await members.getByRole('button', { name: 'Remove Renamed by hand' }).isVisible(), 'the feed is in the bundle');
    t.ok(
      await page.getByRole('list', { name: 'Items' }).getByRole('link', { name: 'Post 2', exact: true }).isVisible(),
      "the bundle shows the feed's items",
    );
    const bundle = await service.call('GET', `/v1/bundles/${bundleId}`, { authorization });
    t.match(bundle.text, feedId, 'the API sees the feed in the bundle');
    await assertAccessible(t, page, 'the bundle page');
  });

  t.test('a webhook on a receiver: the test request arrives signed and is in the call history', async (t) => {
    await navigatesBy(page, () => navLink(page, 'Webhooks').click());
    t.equal(await headingOf(page), 'Webhooks');
    await assertAccessible(t, page, 'the webhook list');
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByRole('textbox', { name: 'Target URL' }).fill(stack.sink.url);
    await form.getByRole('radio', { name: 'All feeds' }).check();
    // The builder offers only the operators of the chosen field.
    const field = form.getByRole('combobox', { name: 'Field 1', exact: true });
    const operator = form.getByRole('combobox', { name: 'Operator 1', exact: true });
    await field.selectOption('date_published');
    t.equal(await operator.inputValue(), 'older_than', 'a date field moves the operator to a date operator');
    t.ok(
      await operator.locator('option[value="contains"]').evaluate((option: HTMLOptionElement) => option.matches(':disabled')),
      'text operators are not offered for a date',
    );
    await field.selectOption('title');
    t.equal(await operator.inputValue(), 'contains', 'a text field moves it back');
    // The page that answers the form shows the secret, at whatever address: it is never shown again.
    await navigatesBy(page, () => form.getByRole('button', { name: 'Add webhook' }).click());
    t.equal(await headingOf(page), stack.sink.url, "the new webhook's page");
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    t.match(secret, /^whsec_/, 'the signing secret is shown once');
    await assertAccessible(t, page, 'the new webhook page');

    const before = stack.sink.calls.length;
    await navigatesBy(page, () => page.getByRole('button', { name: 'Send test request' }).click());
    const call = (await stack.sink.received(before + 1, 30_000))[before];
    t.ok(call, 'the receiver got the test request');
    if (call)
      t.doesNotThrow(() => new Verifier(secret).verify(call.body, flatHeaders(call.headers)), 'signed with the secret the page showed');
    const history = page.getByRole('table', { name: 'Call history' });
    // The test request is answered before the page comes back; a history written just after it is
    // read again rather than failing the step.
    await eventually(
      30_000,
      async () => {
        if ((await history.getByRole('row').count()) > 1) return true;
        await page.reload();
        return false;
      },
      () => 'the call history has no row for the test request',
    );
    t.match(await history.innerText(), /\b200\b/, "the history shows the receiver's 200");
    await assertAccessible(t, page, 'the webhook page with its history');
  });

  t.test('a new upstream item appears on the feed page without a reload', async (t) => {
    await navigatesBy(page, () => navLink(page, 'Feeds').click());
    const feeds = page.getByRole('table', { name: 'Your feeds' });
    await assertAccessible(t, page, 'the feed list with a feed and its health');
    const streamOpened = liveStreamOpened(page, 15_000);
    await navigatesBy(page, () => feeds.getByRole('link', { name: 'Renamed by hand' }).click());
    t.equal(pathOf(page), `/dashboard/feeds/${feedId}`);
    // A marker on window survives only in the same document; what is typed survives only without a reload.
    await page.evaluate(() => ((globalThis as unknown as { feedmillMarker?: string }).feedmillMarker = 'same document'));
    const description = page.getByRole('form', { name: 'Edit feed' }).getByRole('textbox', { name: 'Description' });
    await description.fill('typed, not saved');
    let navigations = 0;
    const countNavigation = (frame: unknown): void => {
      if (frame === page.mainFrame()) navigations += 1;
    };
    page.on('framenavigated', countNavigation);
    await streamOpened;

    stack.source.addItem('Fresh news');
    await page.getByRole('list', { name: 'Items' }).getByRole('link', { name: 'Fresh news' }).waitFor({ timeout: 60_000 });
    page.off('framenavigated', countNavigation);
    t.equal(navigations, 0, 'the page did not navigate');
    t.equal(
      await page.evaluate(() => (globalThis as unknown as { feedmillMarker?: string }).feedmillMarker),
      'same document',
      'the page was not reloaded',
    );
    t.equal(await description.inputValue(), 'typed, not saved', 'what was typed is still there');
    await assertAccessible(t, page, 'the feed page after a live update');
  });

  t.test('revoking the key on the API keys page makes the API answer 401', async (t) => {
    await navigatesBy(page, () => navLink(page, 'API keys').click());
    t.match(await page.getByRole('table', { name: 'Your API keys' }).innerText(), keyId, 'the key is listed');
    await assertAccessible(t, page, 'the API keys page with a key');
    await navigatesBy(page, () => page.getByRole('button', { name: `Revoke ${keyId}` }).click());
    await assertAccessible(t, page, 'the revoke confirmation');
    await navigatesBy(page, () => page.getByRole('button', { name: 'Revoke permanently' }).click());
    t.equal(pathOf(page), '/dashboard/keys');
    t.equal(await page.getByRole('button', { name: `Revoke ${keyId}` }).count(), 0, 'the key is no longer live');
    await assertAccessible(t, page, 'the API keys page with a revoked key');
    const refused = await service.call('GET', '/v1/feeds', { authorization });
    t.equal(refused.status, 401, refused.text);
  });

  t.test('signing out ends the session: the next page visit goes to sign-in', async (t) => {
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-feedmill-session');
    await navigatesBy(page, () => page.getByRole('button', { name: 'Sign out', exact: true }).click());
    t.equal(pathOf(page), '/dashboard/sign-in', 'signing out leads to the sign-in page');
    await assertAccessible(t, page, 'the sign-in page after signing out');
    await page.goto('/dashboard/feeds');
    t.equal(pathOf(page), '/dashboard/sign-in', 'the next page visit goes to sign-in');
    // The server ended the session, not only the browser: the old cookie, sent again, signs in nobody.
    const replayed = await service.call('GET', '/dashboard/feeds', { headers: { cookie: `${session?.name}=${session?.value}` } });
    t.equal(replayed.status, 303);
    t.match(String(replayed.headers.location), /\/dashboard\/sign-in/);
  });

  t.test('no page broke its Content-Security-Policy or threw', async (t) => {
    t.same(pageErrors, []);
  });
}
