import type { BrowserContext } from 'playwright-core';
import { FeedmillError, isFeedmillError } from '../../domain/errors.js';
import type { Fetcher } from '../../ports/fetcher.js';
import type { PageRenderer, RenderedPage, RenderRequest, RendererStatus } from '../../ports/page-renderer.js';
import { launchBrowser, type BrowserProcess } from './browser-process.js';
import { createPageSlots } from './page-slots.js';
import { browserMemoryBytes } from './process-memory.js';
import { routeThroughFetcher } from './route-through-fetcher.js';

export interface ChromiumRendererOptions {
  /** Fulfils every request of every page: the address rule and caps of feedmill's own fetches. */
  fetcher: Fetcher;
  /** `FEEDMILL_CHROMIUM_PATH`, or `chromium` found on the PATH. */
  executablePath: string;
  /** `FEEDMILL_RENDER_CONCURRENCY`: pages rendered at once. @default 2 */
  concurrency: number;
  /** `FEEDMILL_RENDER_TIMEOUT`: one page's budget, from navigation to its serialised DOM. @default 20000 */
  timeoutMs: number;
  /** `FEEDMILL_RENDER_MAX_REQUESTS`: requests one page may make after its own document. @default 100 */
  maxRequests: number;
  /** `FEEDMILL_RENDER_MAX_BYTES`: bytes those requests may bring, together. @default 10 MiB */
  maxBytes: number;
  /** `FEEDMILL_RENDER_MAX_PAGES`: the browser is started afresh after this many pages. @default 100 */
  maxPages: number;
  /** `FEEDMILL_RENDER_MAX_MEMORY`: the browser is started afresh once its processes hold more, in bytes. @default 1 GiB */
  maxMemoryBytes: number;
  /** `FEEDMILL_RENDER_NO_SANDBOX`: Chromium's sandbox off (a container running as root needs it). @default false */
  noSandbox: boolean;
  /** Told each page's outcome (`rendered` or an error code) and time, for the metrics. */
  onPage?: (outcome: string, seconds: number) => void;
}

interface BrowserHandle extends BrowserProcess {
  /** Pages started in this browser. */
  pages: number;
  open: number;
  /** No new page is started in it; it closes once its open pages end. */
  retiring: boolean;
  gone: boolean;
}

// Scripts that open connections of their own (peer-to-peer, beacons) find no API: the switches would
// stop them anyway, this keeps them from trying.
const withoutSideChannels = `
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
    try { delete globalThis[name]; } catch {}
  }
  try { Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: () => false }); } catch {}
`;

const crashed = (url: string): FeedmillError =>
  new FeedmillError('render_unavailable', `The browser stopped while rendering ${url}; it is started again for the next attempt`);

/**
 * Renders pages in one headless Chromium per process, started on first use, with every request
 * fulfilled by the fetcher (SSRF by construction: see launch-switches.ts and route-through-fetcher.ts).
 * Each page gets a fresh browser context, thrown away after it. A crash fails only the pages open in
 * that browser; the next page starts another.
 */
export function createChromiumRenderer(options: ChromiumRendererOptions): PageRenderer {
  const slots = createPageSlots(options.concurrency);
  const handles = new Set<BrowserHandle>();
  let current: BrowserHandle | undefined;
  let launching: Promise<BrowserHandle> | undefined;
  let peakMemoryBytes = 0;
  let closed = false;

  const launch = async (): Promise<BrowserHandle> => {
    const started = await launchBrowser(options).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new FeedmillError('render_unavailable', `Could not start the browser at ${options.executablePath}: ${reason}`);
    });
    const handle: BrowserHandle = { ...started, pages: 0, open: 0, retiring: false, gone: false };
    handles.add(handle);
    started.browser.on('disconnected', () => {
      handle.gone = true;
      handles.delete(handle);
      if (current === handle) current = undefined;
    });
    return handle;
  };

  const acquire = async (): Promise<BrowserHandle> => {
    if (current && !current.retiring && !current.gone) return current;
    // One launch at a time: pages waiting meanwhile share it, and browser-process.ts can tell the new child.
    launching ??= launch().finally(() => (launching = undefined));
    const handle = await launching;
    current = handle;
    return handle;
  };

  const retireIfDone = async (handle: BrowserHandle): Promise<void> => {
    if (!handle.retiring || handle.open > 0 || handle.gone) return;
    handles.delete(handle);
    await handle.browser.close().catch(() => undefined);
  };

  const checkMemory = async (handle: BrowserHandle): Promise<void> => {
    if (handle.pid === undefined || handle.gone) return;
    const bytes = await browserMemoryBytes(handle.pid);
    peakMemoryBytes = Math.max(peakMemoryBytes, bytes);
    if (bytes > options.maxMemoryBytes) handle.retiring = true;
  };

  const renderIn = async (handle: BrowserHandle, request: RenderRequest): Promise<RenderedPage> => {
    let context: BrowserContext | undefined;
    let pageFailure: FeedmillError | undefined;
    const started = Date.now();
    try {
      context = await handle.browser.newContext({ serviceWorkers: 'block', acceptDownloads: false, permissions: [] });
      const budget = { maxRequests: options.maxRequests, maxBytes: options.maxBytes };
      const route = routeThroughFetcher(options.fetcher, request, budget, (error) => (pageFailure ??= error));
      // A route handler that throws would leave its request hanging until the page budget: it is aborted instead.
      await context.route('**/*', (r) => route(r).catch(() => r.abort('failed').catch(() => undefined)));
      await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'not allowed' }));
      await context.addInitScript(withoutSideChannels);
      const page = await context.newPage();
      // Popups and windows a script opens are closed at once; their requests were routed like any other.
      context.on('page', (other) => void (other === page ? undefined : other.close().catch(() => undefined)));
      const response = await page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
      if (pageFailure) throw pageFailure;
      if (response && response.status() >= 400) {
        throw new FeedmillError('upstream_status', `The source answered HTTP ${response.status()} at ${request.url}`, {
          status: response.status(),
        });
      }
      // Scripts that build the list after load: wait until the network is quiet, within what is left of the budget.
      const left = options.timeoutMs - (Date.now() - started);
      if (left > 0) await page.waitForLoadState('networkidle', { timeout: left }).catch(() => undefined);
      const html = await page.content();
      return { status: 200, url: page.url(), body: Buffer.from(html, 'utf8'), contentType: 'text/html; charset=utf-8' };
    } catch (error) {
      if (pageFailure) throw pageFailure;
      if (isFeedmillError(error)) throw error;
      if (handle.gone) throw crashed(request.url);
      // Already loaded by the launch that gave this page its browser (see launchBrowser).
      const { errors } = await import('playwright-core');
      if (error instanceof errors.TimeoutError) {
        throw new FeedmillError('upstream_timeout', `Expected ${request.url} to render within ${options.timeoutMs} ms, but it did not`);
      }
      // The browser went away under the page (its process killed) before 'disconnected' was seen.
      if (error instanceof Error && /closed|crash|disconnected/i.test(error.message)) throw crashed(request.url);
      throw error;
    } finally {
      await context?.close().catch(() => undefined);
    }
  };

  const renderOne = async (request: RenderRequest): Promise<RenderedPage> => {
    if (closed) throw new FeedmillError('render_unavailable', 'The renderer is shutting down');
    const handle = await acquire();
    handle.pages += 1;
    handle.open += 1;
    if (handle.pages >= options.maxPages) handle.retiring = true;
    const started = process.hrtime.bigint();
    let outcome = 'rendered';
    try {
      return await renderIn(handle, request);
    } catch (error) {
      outcome = isFeedmillError(error) ? error.code : 'internal_error';
      throw error;
    } finally {
      handle.open -= 1;
      options.onPage?.(outcome, Number(process.hrtime.bigint() - started) / 1e9);
      await checkMemory(handle).catch(() => undefined);
      await retireIfDone(handle);
    }
  };

  return {
    render: (request) => slots.run(() => renderOne(request)),
    status: (): RendererStatus => ({
      available: true,
      queued: slots.queued,
      inProgress: slots.running,
      browserRunning: [...handles].some((handle) => !handle.gone),
      peakMemoryBytes,
    }),
    async close() {
      closed = true;
      await launching?.catch(() => undefined);
      await Promise.all([...handles].map((handle) => handle.browser.close().catch(() => undefined)));
      handles.clear();
      current = undefined;
    },
  };
}
