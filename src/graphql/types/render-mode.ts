import type { RenderMode as Mode } from '../../domain/render-mode.js';
import { builder } from '../builder.js';
import { upperCaseValues } from './enum-values.js';

export const RenderMode = builder.enumType('RenderMode', {
  description: 'Whether a web page is rendered in a browser before its items are read (docs/rendering.md).',
  values: upperCaseValues<Mode>({
    auto: 'Rendered when the page as served lists no items and the service has a browser (the default).',
    always: 'Always rendered; without a browser the service answers `render_unavailable`.',
    never: 'Read as served, never rendered.',
  }),
});
