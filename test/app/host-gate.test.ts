import t from 'tap';
import { createHostGate } from '../../src/app/host-gate.js';

/** Runs `count` tasks on `host` through the gate, each held until released; reports how many ran at once. */
function load(gate: ReturnType<typeof createHostGate>, host: string, count: number) {
  let running = 0;
  let most = 0;
  const releases: (() => void)[] = [];
  const done = Array.from({ length: count }, () =>
    gate(host, async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
    }),
  );
  return { done, releases, running: () => running, most: () => most };
}

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

t.test('at most perHost tasks of one host run at once; the others wait their turn', async (t) => {
  const gate = createHostGate({ perHost: 2, pauseMs: 0 });
  const one = load(gate, 'a.example', 5);
  await tick();
  t.equal(one.running(), 2);
  while (one.releases.length > 0 || one.running() > 0) {
    one.releases.shift()?.();
    await tick();
  }
  await Promise.all(one.done);
  t.equal(one.most(), 2, 'never more than two at once');
});

t.test('another host has lanes of its own', async (t) => {
  const gate = createHostGate({ perHost: 1, pauseMs: 0 });
  const a = load(gate, 'a.example', 2);
  const b = load(gate, 'b.example', 2);
  await tick();
  t.equal(a.running() + b.running(), 2, 'one of each host runs');
  for (const lane of [a, b]) {
    while (lane.releases.length > 0 || lane.running() > 0) {
      lane.releases.shift()?.();
      await tick();
    }
  }
  await Promise.all([...a.done, ...b.done]);
});

t.test('after a task, its slot pauses before the next task of the host starts', async (t) => {
  const gate = createHostGate({ perHost: 1, pauseMs: 100 });
  const starts: number[] = [];
  await Promise.all(
    [1, 2, 3].map(() =>
      gate('a.example', async () => {
        starts.push(performance.now());
      }),
    ),
  );
  const gaps = starts.slice(1).map((at, index) => at - (starts[index] ?? at));
  t.ok(
    gaps.every((gap) => gap >= 90),
    `each start waits for the pause after the last task: ${gaps.map((gap) => gap.toFixed(0)).join(', ')} ms`,
  );
});

t.test('a task that throws still frees its slot', async (t) => {
  const gate = createHostGate({ perHost: 1, pauseMs: 0 });
  await t.rejects(
    gate('a.example', () => Promise.reject(new Error('site down'))),
    /site down/,
  );
  t.equal(await gate('a.example', () => Promise.resolve('next')), 'next');
});
