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
 * Whether refreshing a feed needs a browser: its `render` says `always`, or its page was found to
 * list its items only once rendered (and `render` is not `never`). In cluster mode this picks the
 * queue its refresh runs on (app/refresh-queue.ts), so only workers with a browser take it.
 */
export function needsBrowser(feed: { settings: { render: RenderMode }; fetch: { rendered?: boolean } }): boolean {
  const mode = feed.settings.render;
  return mode === 'always' || (mode !== 'never' && feed.fetch.rendered === true);
}
