import { createServer } from 'node:http';
import { Webhook as Verifier } from 'standardwebhooks';
import { listenOnLoopback } from '../loopback-listener.js';

export interface CountingSink {
  readonly url: string;
  /** Deliveries per event id (`webhook-id`). */
  readonly deliveries: ReadonlyMap<string, number>;
  readonly badSignatures: number;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that counts each event's deliveries and checks every signature. */
export async function startCountingSink(secret: () => string): Promise<CountingSink> {
  const deliveries = new Map<string, number>();
  let badSignatures = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const eventId = String(request.headers['webhook-id']);
      try {
        new Verifier(secret()).verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>);
      } catch {
        badSignatures += 1;
      }
      deliveries.set(eventId, (deliveries.get(eventId) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    url: `${listener.origin}/hook`,
    deliveries,
    get badSignatures() {
      return badSignatures;
    },
    close: () => listener.close(),
  };
}
