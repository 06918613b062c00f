import t from 'tap';
import { settleHeap } from '../../src/main/settle-heap.js';

t.test('settleHeap runs a full collection without a flag on the node command', async (t) => {
  const debug: unknown[] = [];
  let garbage: { n: number; text: string }[] | undefined = Array.from({ length: 400_000 }, (_, n) => ({ n, text: `item ${n}` }));
  const before = process.memoryUsage().heapUsed;
  t.ok(garbage.length > 0);
  garbage = undefined;
  settleHeap({ debug: (...args: unknown[]) => void debug.push(args) });
  const freed = before - process.memoryUsage().heapUsed;
  t.ok(freed > 10_000_000, `the unreachable objects were collected (${(freed / 1e6).toFixed(1)} MB freed)`);
  t.same(debug, [], 'this runtime exposes the collector');
});
