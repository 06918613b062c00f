import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  /** Stops the server, dropping its connections. */
  close(): Promise<void>;
}

/**
 * Listens on a free port of 127.0.0.1, for a bench's fixture feeds or webhook sink. The caller
 * creates `server` because its options differ (the feed fixtures keep connections alive for 60 s);
 * that is also why this is not `startFixtureServer` of `test/fixtures/http-fixture.ts`.
 */
export async function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // `close` alone would wait for requests in flight, such as a slow feed's delayed answer.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
