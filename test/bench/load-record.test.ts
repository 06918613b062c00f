import t from 'tap';
import { mix, pickAction, type Action } from '../../bench/load/mix.js';
import { isError, Recorder, summarise } from '../../bench/load/record.js';

t.test('a load run counts every answer but a 2xx or a 304 as an error, transport failures too', async (t) => {
  for (const status of [200, 201, 204, 304]) t.notOk(isError(status), `${status} is an answer`);
  for (const outcome of [301, 400, 404, 409, 429, 500, 503, 'ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT'])
    t.ok(isError(outcome), `${outcome} is an error`);
});

t.test('the summary of a request kind gives interpolated percentiles and errors by status', async (t) => {
  const recorder = new Recorder();
  // 1..100 ms, shuffled so the summary has to sort them; the 7 slowest were refused or failed.
  const samples = Array.from({ length: 100 }, (_, i) => 1 + ((i * 37) % 100));
  for (const ms of samples) recorder.add('GET /v1/feeds/:id', ms > 96 ? 429 : ms > 93 ? 'ECONNRESET' : ms % 2 === 0 ? 304 : 200, ms);
  const summary = summarise(recorder.kinds.get('GET /v1/feeds/:id') ?? { latencies: [], outcomes: new Map() });
  t.equal(summary.requests, 100);
  const near = (actual: number, expected: number, what: string) =>
    t.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual}, expected ${expected}`);
  near(summary.p50, 50.5, 'p50 lies halfway between the 50th and the 51st of 100');
  near(summary.p90, 90.1, 'p90');
  near(summary.p99, 99.01, 'p99');
  t.equal(summary.max, 100);
  t.same(summary.errors, { 429: 4, ECONNRESET: 3 });
  t.same(summary.outcomes, { 200: 47, 304: 46, 429: 4, ECONNRESET: 3 });
});

t.test('the overall row pools every kind', async (t) => {
  const recorder = new Recorder();
  recorder.add('a', 200, 5);
  recorder.add('b', 500, 1);
  recorder.add('b', 200, 3);
  const all = summarise(recorder.all());
  t.equal(all.requests, 3);
  t.equal(all.p50, 3);
  t.same(all.errors, { 500: 1 });
  t.same(all.outcomes, { 200: 2, 500: 1 });
});

t.test('the mix draws each action in proportion to its weight', async (t) => {
  const drawn = new Map<Action, number>();
  const steps = 10_000;
  for (let i = 0; i < steps; i++) {
    const action = pickAction((i + 0.5) / steps);
    drawn.set(action, (drawn.get(action) ?? 0) + 1);
  }
  for (const [action, weight] of mix) t.equal(drawn.get(action), weight * (steps / 100), `${action}: ${weight} %`);
  t.equal(pickAction(0.999_999), 'bundle', 'the last action takes the top of the range');
});
