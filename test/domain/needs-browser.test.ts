import t from 'tap';
import { needsBrowser, rendersPage, type RenderMode } from '../../src/domain/render-mode.js';

const page = (render: RenderMode, rendered?: boolean) => ({
  settings: { render },
  fetch: { reader: 'page' as const, ...(rendered === undefined ? {} : { rendered }) },
});

t.test('a feed needs a browser when its settings ask for one, or its page was rendered and rendering is allowed', async (t) => {
  t.equal(needsBrowser(page('always')), true, 'always, before any rendering');
  t.equal(needsBrowser(page('always', false)), true, 'always, whatever the page');
  t.equal(needsBrowser(page('auto', true)), true, 'auto, on a page that needed rendering');
  t.equal(needsBrowser(page('auto', false)), false, 'auto, on a page that did not');
  t.equal(needsBrowser(page('auto')), false, 'auto, on a feed never rendered');
  t.equal(needsBrowser(page('never', true)), false, 'never, even on a page once rendered');
});

t.test('a native feed is never rendered, so it never needs a browser', async (t) => {
  t.equal(needsBrowser({ settings: { render: 'always' }, fetch: {} }), false, 'always, on a feed read as a feed');
  t.equal(needsBrowser({ settings: { render: 'always' }, fetch: { reader: 'feed' } }), false);
});

t.test('the queue and the fetch follow the same rule', async (t) => {
  for (const render of ['auto', 'always', 'never'] as const) {
    for (const reader of [undefined, 'feed', 'page'] as const) {
      for (const rendered of [undefined, false, true]) {
        const fetch = { ...(reader ? { reader } : {}), ...(rendered === undefined ? {} : { rendered }) };
        t.equal(needsBrowser({ settings: { render }, fetch }), rendersPage(fetch, render), JSON.stringify({ render, ...fetch }));
      }
    }
  }
});
