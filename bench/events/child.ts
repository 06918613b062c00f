import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { wallNow, type ChildMessage, type OpenRequest, type ParentMessage } from './protocol.js';

const childPath = fileURLToPath(new URL('./subscribers.js', import.meta.url));

export interface Subscribers {
  /** How long opening and acknowledging every connection took, ms. */
  readonly openedMs: number;
  /** Child clock minus ours (ms), from the ping with the shortest round trip, and that round trip. */
  readonly clock: { offset: number; rtt: number };
  /** Arrival times, on our clock, of the event at each subscriber that had it within `timeoutMs`. */
  arrivals(eventId: string, timeoutMs: number): Promise<number[]>;
  /** The child's CPU time so far (user plus system), microseconds. */
  cpuMicros(): Promise<number>;
  /** Problems the child reported (a socket closed, an error instead of an event). */
  readonly failures: readonly string[];
  close(): Promise<void>;
}

/** Starts the subscriber child and opens `request.count` subscriptions in it. */
export async function startSubscribers(request: Omit<OpenRequest, 'type'>): Promise<Subscribers> {
  const child: ChildProcess = fork(childPath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const failures: string[] = [];
  const events = new Map<string, number[]>();
  const waiting = new Map<string, (stamps: number[]) => void>();
  let onMessage: ((message: ChildMessage) => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'failed') failures.push(message.message);
    if (message.type === 'event') {
      const waiter = waiting.get(message.eventId);
      if (waiter) waiter(message.stamps);
      else events.set(message.eventId, message.stamps);
    }
    onMessage?.(message);
  });
  const post = (message: ParentMessage): void => void child.send(message);
  const reply = <T extends ChildMessage['type']>(
    type: T,
    timeoutMs: number,
    matches: (message: Extract<ChildMessage, { type: T }>) => boolean = () => true,
  ) =>
    new Promise<Extract<ChildMessage, { type: T }>>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`Expected "${type}" from the subscriber child within ${timeoutMs} ms; failures: ${failures.slice(0, 3).join('; ')}`),
          ),
        timeoutMs,
      );
      onMessage = (message) => {
        if (message.type === 'failed' && type === 'opened') {
          clearTimeout(timer);
          reject(new Error(message.message));
        }
        if (message.type === type && matches(message as Extract<ChildMessage, { type: T }>)) {
          clearTimeout(timer);
          onMessage = undefined;
          resolve(message as Extract<ChildMessage, { type: T }>);
        }
      };
    });

  try {
    const opened = reply('opened', 120_000);
    post({ type: 'open', ...request });
    const { ms: openedMs } = await opened;

    // NTP-style: the child's clock read between our send and receive; the shortest round trip bounds the error.
    let clock = { offset: 0, rtt: Infinity };
    for (let id = 0; id < 30; id++) {
      const sent = wallNow();
      const answer = reply('clock', 5_000, (message) => message.id === id);
      post({ type: 'clock', id });
      const { now } = await answer;
      const received = wallNow();
      if (received - sent < clock.rtt) clock = { offset: now - (sent + received) / 2, rtt: received - sent };
    }

    return {
      openedMs,
      clock,
      failures,
      async cpuMicros() {
        const answer = reply('cpu', 5_000);
        post({ type: 'cpu' });
        return (await answer).micros;
      },
      async arrivals(eventId, timeoutMs) {
        let stamps = events.get(eventId);
        if (!stamps) {
          stamps = await new Promise<number[]>((resolve) => {
            const timer = setTimeout(() => post({ type: 'flush', eventId }), timeoutMs);
            waiting.set(eventId, (value) => {
              clearTimeout(timer);
              resolve(value);
            });
          });
        }
        events.delete(eventId);
        waiting.delete(eventId);
        return stamps.map((at) => at - clock.offset);
      },
      async close() {
        if (child.exitCode === null && child.connected) {
          post({ type: 'close' });
          const timer = setTimeout(() => child.kill(), 30_000);
          await exited;
          clearTimeout(timer);
        }
      },
    };
  } catch (error) {
    child.kill();
    await exited;
    throw error;
  }
}
