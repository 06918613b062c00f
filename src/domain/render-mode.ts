import { fieldRefusal } from './errors.js';
import { expectedMessage, oneOf } from './field-message.js';

/**
 * Whether a page source is rendered in a browser before its items are read (docs/rendering.md):
 * `auto` when the page as served lists no items and a browser is available, `always`, or `never`.
 */
export type RenderMode = 'auto' | 'always' | 'never';
export const renderModes: readonly RenderMode[] = ['auto', 'always', 'never'];

/** A mode named by a person or a client; anything else is refused with what was expected. */
export function parseRenderMode(text: string): RenderMode {
  const mode = renderModes.find((name) => name === text);
  if (!mode) throw fieldRefusal('render', expectedMessage('render', oneOf(renderModes), { value: text }));
  return mode;
}

/**
 * The render rule, in one place: a page source is read through the browser when `render` says
 * `always`, or when the page was found to list its items only once rendered, unless `render` says
 * `never`. A native feed (`reader` absent or `feed`) is never rendered. The fetch follows it
 * (app/fetch-document.ts), and so does the queue a refresh runs on (`needsBrowser`).
 */
export const rendersPage = (readAs: { reader?: 'feed' | 'page'; rendered?: boolean }, render: RenderMode | undefined): boolean =>
  readAs.reader === 'page' && render !== 'never' && (render === 'always' || readAs.rendered === true);

/**
 * Whether refreshing a feed needs a browser: whether its fetch renders its page (`rendersPage`). In
 * cluster mode this picks the queue its refresh runs on (app/refresh-queue.ts), so only workers
 * with a browser take it.
 */
export const needsBrowser = (feed: {
  settings: { render: RenderMode };
  fetch: { reader?: 'feed' | 'page'; rendered?: boolean };
}): boolean => rendersPage(feed.fetch, feed.settings.render);
