import t from 'tap';
import { jitter } from '../../src/domain/jitter.js';

t.test('jitter spreads one random byte over [0, 1)', async (t) => {
  t.equal(
    jitter(() => new Uint8Array([0])),
    0,
  );
  t.equal(
    jitter(() => new Uint8Array([128])),
    0.5,
  );
  t.equal(
    jitter(() => new Uint8Array([255])),
    255 / 256,
    'never the whole spread',
  );
  t.equal(
    jitter(() => new Uint8Array([])),
    0,
    'a source that gives nothing: no spread',
  );
});
