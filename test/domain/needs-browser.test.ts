import t from 'tap';
import { needsBrowser, type RenderMode } from '../../src/domain/render-mode.js';

const feed = (render: RenderMode, rendered?: boolean) => ({ settings: { render }, fetch: rendered === undefined ? {} : { rendered } });

t.test('a feed needs a browser when its settings ask for one, or its page was rendered and rendering is allowed', async (t) => {
  t.equal(needsBrowser(feed('always')), true, 'always, before any rendering');
  t.equal(needsBrowser(feed('always', false)), true, 'always, whatever the page');
  t.equal(needsBrowser(feed('auto', true)), true, 'auto, on a page that needed rendering');
  t.equal(needsBrowser(feed('auto', false)), false, 'auto, on a page that did not');
  t.equal(needsBrowser(feed('auto')), false, 'auto, on a feed never rendered');
  t.equal(needsBrowser(feed('never', true)), false, 'never, even on a page once rendered');
});
