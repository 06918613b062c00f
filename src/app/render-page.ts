import { FeedmillError } from '../domain/errors.js';
import type { RenderMode } from '../domain/render-mode.js';
import type { RenderedPage, RenderRequest } from '../ports/page-renderer.js';
import type { AppDeps } from './deps.js';

/** What to tell a person whose page lists nothing as served, when rendering might have helped. */
export function renderAdvice(deps: Pick<AppDeps, 'renderer'>, render: RenderMode | undefined): string {
  if (render === 'never') return '; if a script builds its list, set `render` to `auto` to have it rendered in a browser';
  if (!deps.renderer) {
    return '; if a script builds its list, it needs rendering, which is off on this service (install Chromium or set FEEDMILL_CHROMIUM_PATH, and leave FEEDMILL_RENDER on: docs/rendering.md)';
  }
  return '';
}

/**
 * Whether a page that lists nothing as served is read again as a browser leaves it: under `auto`,
 * when this process has a browser. The one rule for every reader of pages — a create, selectors,
 * the picker. `render` absent is discovery's case: it answers within its time budget and never
 * renders, so its callers that mean the default pass `'auto'`.
 */
export const rendersWhenServedListsNothing = (deps: Pick<AppDeps, 'renderer'>, render: RenderMode | undefined): boolean =>
  render === 'auto' && deps.renderer !== undefined;

/**
 * The page as a browser leaves it once its scripts ran.
 * @throws FeedmillError `render_unavailable` when this process has no browser
 */
export async function renderPage(deps: Pick<AppDeps, 'renderer'>, request: RenderRequest): Promise<RenderedPage> {
  if (!deps.renderer) {
    throw new FeedmillError(
      'render_unavailable',
      `The page at ${request.url} is read by rendering it in a browser, and this service has none; install Chromium (FEEDMILL_CHROMIUM_PATH) and leave FEEDMILL_RENDER on, or set the feed's \`render\` to \`never\``,
    );
  }
  return deps.renderer.render(request);
}
