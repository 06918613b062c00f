import t from 'tap';
import { readinessCheck } from '../../src/main/readiness.js';

const failures = (): { parts: string[]; note: (part: string) => void } => {
  const parts: string[] = [];
  return { parts, note: (part) => void parts.push(part) };
};

t.test('ready when every part answers', async (t) => {
  const seen = failures();
  const ready = readinessCheck({ store: async () => undefined, redis: async () => 'PONG' }, 200, seen.note);
  t.equal(await ready(), true);
  t.same(seen.parts, []);
});

t.test('not ready when a part fails, and the failure names it', async (t) => {
  const seen = failures();
  const ready = readinessCheck({ store: async () => undefined, redis: () => Promise.reject(new Error('ECONNREFUSED')) }, 200, seen.note);
  t.equal(await ready(), false);
  t.same(seen.parts, ['redis']);
});

t.test('a part that never answers is not ready once the timeout passes', async (t) => {
  const seen = failures();
  const ready = readinessCheck({ parser: () => new Promise(() => undefined) }, 100, seen.note);
  const started = Date.now();
  t.equal(await ready(), false);
  t.ok(Date.now() - started < 1_000, 'answered without waiting for the hung part');
  t.same(seen.parts, ['parser']);
});
