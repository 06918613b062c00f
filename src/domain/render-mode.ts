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
