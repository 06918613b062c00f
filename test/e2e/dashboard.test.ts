import t from 'tap';
import { chromiumExecutable, contentWidth, navigatesBy, newDashboardContext, signIn } from '../fixtures/browser.js';
import { startDashboardStack } from '../fixtures/dashboard-stack.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { assertAccessible, dashboardFlow, pathOf } from './dashboard-flow.js';

// The dashboard in Chromium against `feedmill all` on embedded defaults (what `npm start` runs):
// the walk-through, then what a phone, a typo and an ended session meet.
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.plan(0, chromium.skip);
} else {
  // A real process, a browser and a dozen pages each audited: past tap's default per-file time on a loaded 2-core machine.
  t.setTimeout(300_000);
  const stack = await startDashboardStack({ chromiumPath: chromium.path });
  t.teardown(() => stack.stop());
  const { service, person } = stack;

  await dashboardFlow(stack);

  t.test('a wrong password or an unknown email shows one alert and keeps the email', async (t) => {
    const context = await newDashboardContext(stack.browser, service.baseUrl);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, { ...person, password: 'not the password at all' });
    t.equal(pathOf(page), '/dashboard/sign-in', 'still on the sign-in page');
    const alert = (await page.getByRole('alert').innerText()).trim();
    t.match(alert, 'Wrong email or password');
    t.equal(await page.getByRole('textbox', { name: 'Email' }).inputValue(), person.email, 'the email is still filled');
    await assertAccessible(t, page, 'the sign-in page with its alert');
    await signIn(page, { ...person, email: 'nobody@example.test' });
    t.equal(
      (await page.getByRole('alert').innerText()).trim(),
      alert,
      'an unknown email reads the same, telling nobody who has an account',
    );
  });

  t.test('an absent or ended session sends the person to sign in and back to the page asked for', async (t) => {
    const context = await newDashboardContext(stack.browser, service.baseUrl);
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto('/dashboard/webhooks');
    t.equal(pathOf(page), '/dashboard/sign-in', 'no session: sign in first');
    t.equal(new URL(page.url()).searchParams.get('next'), '/dashboard/webhooks');
    await signIn(page, person);
    t.equal(pathOf(page), '/dashboard/webhooks', 'then back to the page asked for');

    // "Sign out everywhere" in another browser ends this session too.
    const elsewhere = await newDashboardContext(stack.browser, service.baseUrl);
    t.teardown(() => elsewhere.close());
    const other = await elsewhere.newPage();
    await signIn(other, person);
    await navigatesBy(other, () => other.getByRole('button', { name: 'Sign out everywhere' }).click());

    await page.goto('/dashboard/bundles');
    t.equal(pathOf(page), '/dashboard/sign-in', 'the ended session: sign in again');
    t.equal(new URL(page.url()).searchParams.get('next'), '/dashboard/bundles');
    await signIn(page, person);
    t.equal(pathOf(page), '/dashboard/bundles', 'then back to the page asked for');
  });

  t.test('every page fits a 375 px wide screen', async (t) => {
    const { authorization } = await createKey(stack.env, person.account);
    const source = await startRssSource(3);
    t.teardown(() => source.close());
    const create = async (path: string, body: unknown): Promise<string> => {
      const response = await service.call('POST', path, { authorization, body });
      t.equal(response.status, 200, `POST ${path}: ${response.text}`);
      return (JSON.parse(response.text) as { id: string }).id;
    };
    const feedId = await create('/v1/feeds', { url: source.url });
    const bundleId = await create('/v1/bundles', { name: 'Everything I read on the train in the morning', feeds: [feedId] });
    // A long address without a space: the webhook page's heading must wrap it, not scroll.
    const webhookId = await create('/v1/webhooks', { url: `${stack.sink.url}/deliveries-for-everything-read-on-the-train-in-the-morning` });

    const context = await newDashboardContext(stack.browser, service.baseUrl, { width: 375, height: 800 });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const fits = async (what: string): Promise<void> => {
      const width = await contentWidth(page);
      t.ok(width <= 375, `${what} is ${width} px wide`);
      await assertAccessible(t, page, `${what} at 375 px`);
    };
    await page.goto('/dashboard/sign-in');
    await fits('the sign-in page');
    await signIn(page, person);
    for (const path of [
      '/dashboard/feeds',
      `/dashboard/feeds/${feedId}`,
      '/dashboard/bundles',
      `/dashboard/bundles/${bundleId}`,
      '/dashboard/keys',
      '/dashboard/webhooks',
      `/dashboard/webhooks/${webhookId}`,
    ]) {
      await page.goto(path);
      t.equal(pathOf(page), path, `${path} opens`);
      await fits(path);
    }
  });
}
