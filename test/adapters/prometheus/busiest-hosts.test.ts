import t from 'tap';
import { createBusiestHosts } from '../../../src/adapters/prometheus/busiest-hosts.js';

const noteTimes = (hosts: ReturnType<typeof createBusiestHosts>, host: string, times: number) => {
  let last = hosts.note(host);
  for (let n = 1; n < times; n += 1) last = hosts.note(host);
  return last;
};

t.test('the first hosts get their own label until the named places are taken; then others are `other`', async (t) => {
  const hosts = createBusiestHosts(2, 8);
  t.same(hosts.note('a.example'), { label: 'a.example' });
  t.same(hosts.note('b.example'), { label: 'b.example' });
  t.same(hosts.note('c.example'), { label: 'other' });
  t.same(hosts.note('a.example'), { label: 'a.example' });
});

t.test('a host that clearly overtakes the least busy named host takes its label, once', async (t) => {
  const hosts = createBusiestHosts(2, 8);
  noteTimes(hosts, 'a.example', 10);
  noteTimes(hosts, 'b.example', 2);
  t.same(hosts.note('c.example'), { label: 'other' });
  t.same(hosts.note('c.example'), { label: 'other' });
  t.same(hosts.note('c.example'), { label: 'other' }, 'just above b: not yet, or equal hosts would swap back and forth');
  t.same(hosts.note('c.example'), { label: 'c.example', demoted: 'b.example' });
  t.same(hosts.note('c.example'), { label: 'c.example' }, 'demoted once');
  t.same(hosts.note('b.example'), { label: 'other' });
});

t.test('however many hosts there are, at most `named` labels besides `other` are in use at once, and the busiest get them', async (t) => {
  const hosts = createBusiestHosts(5, 20);
  const inUse = new Set<string>();
  const note = (host: string): void => {
    const { label, demoted } = hosts.note(host);
    if (demoted) inUse.delete(demoted);
    if (label !== 'other') inUse.add(label);
  };
  let largest = 0;
  for (let round = 0; round < 40; round += 1) {
    // 195 quiet hosts fetched once a round, seen first; 5 busy ones 30 times a round.
    for (let n = 0; n < 195; n += 1) note(`quiet${(n + round * 7) % 195}.example`);
    for (let n = 0; n < 30; n += 1) for (let busy = 0; busy < 5; busy += 1) note(`busy${busy}.example`);
    largest = Math.max(largest, inUse.size);
  }
  t.equal(largest, 5, 'never more than 5 named hosts');
  t.same([...inUse].sort(), ['busy0.example', 'busy1.example', 'busy2.example', 'busy3.example', 'busy4.example']);
});
