import type { FetchResult } from './fetcher.js';

export interface RenderRequest {
  /** The page to render: its every request, this one included, passes the fetcher's address rule. */
  url: string;
  /**
   * The page's body when it was just read statically: the browser is given it instead of fetching
   * the address again. Its subresources are still fetched.
   */
  document?: { body: Uint8Array; contentType?: string };
}

/** A page as the browser left it once its scripts ran: its DOM serialised as UTF-8 HTML. */
export type RenderedPage = FetchResult & { status: 200 };

/** What `/readyz` and the metrics say about rendering in this process. */
export interface RendererStatus {
  /** A browser can be started here (rendering not turned off, an executable found). */
  available: boolean;
  /** Pages waiting for a slot. */
  queued: number;
  /** Pages being rendered now. */
  inProgress: number;
  /** A browser process is running now (one is started on first use). */
  browserRunning: boolean;
  /** The most memory the browser's processes held together since start, in bytes (0 before the first page). */
  peakMemoryBytes: number;
}

/**
 * Renders web pages whose content a script builds. Throws FeedmillError: `render_unavailable` when
 * no browser can render now (none installed, or it crashed mid-page), `upstream_timeout` past the
 * page budget, and the fetcher's codes when the page itself cannot be fetched.
 */
export interface PageRenderer {
  render(request: RenderRequest): Promise<RenderedPage>;
  status(): RendererStatus;
  close(): Promise<void>;
}
