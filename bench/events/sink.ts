import { Webhook as Verifier } from 'standardwebhooks';
import { startFixtureServer } from '../../test/fixtures/http-fixture.js';
import { wallNow } from './protocol.js';

export interface TimedSink {
  readonly url: string;
  /** Resolves with the arrival time (`wallNow`, body fully read) of the event's delivery, or undefined after `timeoutMs`. */
  arrival(eventId: string, timeoutMs: number): Promise<number | undefined>;
  /** Deliveries whose Standard Webhooks signature did not verify against the webhook's secret. */
  readonly badSignatures: number;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 that stamps each POST when its body has arrived, before
 * anything else, then checks the signature (off the clock) and answers 200.
 */
export async function startTimedSink(secret: () => string): Promise<TimedSink> {
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  let badSignatures = 0;
  const server = await startFixtureServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = wallNow();
      const body = Buffer.concat(chunks).toString('utf8');
      const eventId = String(request.headers['webhook-id']);
      try {
        new Verifier(secret()).verify(body, request.headers as Record<string, string>);
      } catch {
        badSignatures += 1;
      }
      if (!arrivals.has(eventId)) arrivals.set(eventId, at);
      waiters.get(eventId)?.(at);
      response.writeHead(200).end('ok');
    });
  });
  return {
    url: `${server.url}/hook`,
    get badSignatures() {
      return badSignatures;
    },
    arrival(eventId, timeoutMs) {
      const known = arrivals.get(eventId);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(eventId);
          resolve(undefined);
        }, timeoutMs);
        waiters.set(eventId, (at) => {
          clearTimeout(timer);
          waiters.delete(eventId);
          resolve(at);
        });
      });
    },
    close: server.close,
  };
}
