import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';
import { createChromiumRenderer, type ChromiumRendererOptions } from '../../../src/adapters/chromium/renderer.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';

/** An HTTP server on a loopback address of our choosing (127.0.0.2 stands in for a public host). */
export async function serveOn(
  host: string,
  handler: RequestListener,
  port = 0,
): Promise<{ origin: string; port: number; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fetcher whose address rule allows exactly `allowed` and nothing else, public or not. */
export function fetcherAllowing(allowed: string): Fetcher {
  return createUndiciFetcher({ isAddressAllowed: (address) => address === allowed, timeoutMs: 3000 });
}

/** The renderer as the service builds it, with test-sized limits unless told otherwise. */
export function testRenderer(executablePath: string, fetcher: Fetcher, overrides: Partial<ChromiumRendererOptions> = {}) {
  return createChromiumRenderer({
    fetcher,
    executablePath,
    concurrency: 2,
    timeoutMs: 15_000,
    maxRequests: 100,
    maxBytes: 10 * 1024 * 1024,
    maxPages: 100,
    maxMemoryBytes: 4 * 1024 ** 3,
    // Tests run as root in CI containers, where Chromium's sandbox cannot start.
    noSandbox: true,
    ...overrides,
  });
}
