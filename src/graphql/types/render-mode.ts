import type { RenderMode as Mode } from '../../domain/render-mode.js';
import { builder } from '../builder.js';

/** GraphQL's UPPER_CASE names over the domain's values. */
const modes = {
  AUTO: { value: 'auto', description: 'Rendered when the page as served lists no items and the service has a browser (the default).' },
  ALWAYS: { value: 'always', description: 'Always rendered; without a browser the service answers `render_unavailable`.' },
  NEVER: { value: 'never', description: 'Read as served, never rendered.' },
} as const satisfies Record<string, { value: Mode; description: string }>;

export const RenderMode = builder.enumType('RenderMode', {
  description: 'Whether a web page is rendered in a browser before its items are read (docs/rendering.md).',
  values: modes,
});
