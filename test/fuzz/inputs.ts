import fc from 'fast-check';

/**
 * The inputs the fuzzer tries: seed documents changed by a few mutations (a byte set, a range
 * deleted, a dictionary token inserted, a slice repeated up to thousands of times — the shape that
 * shows super-linear parsing —, a slice of another seed spliced in, a cut), runs of dictionary
 * tokens, and random bytes. Values are descriptions, turned into bytes by `inputBytes`, so
 * fast-check can shrink a failing input to fewer, smaller mutations.
 */
export const maxInputBytes = 256 * 1024;

type Mutation =
  | { kind: 'byte'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'token'; at: number; token: number }
  | { kind: 'repeat'; at: number; length: number; times: number }
  | { kind: 'splice'; at: number; other: number; from: number; length: number }
  | { kind: 'cut'; at: number };

export type InputDescription =
  { kind: 'seed'; seed: number; mutations: Mutation[] } | { kind: 'tokens'; tokens: number[] } | { kind: 'bytes'; bytes: Uint8Array };

const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('byte' as const), at: fraction, byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fraction, length: fc.integer({ min: 1, max: 512 }) }),
  fc.record({ kind: fc.constant('token' as const), at: fraction, token: fc.nat() }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fraction,
    length: fc.integer({ min: 1, max: 64 }),
    times: fc.integer({ min: 2, max: 5_000 }),
  }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fraction,
    other: fc.nat(),
    from: fraction,
    length: fc.integer({ min: 1, max: 4_096 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fraction }),
);

export function inputArbitrary(seedCount: number, tokenCount: number): fc.Arbitrary<InputDescription> {
  const seeded = fc.record({
    kind: fc.constant('seed' as const),
    seed: fc.nat({ max: Math.max(0, seedCount - 1) }),
    mutations: fc.array(mutation, { maxLength: 6 }),
  });
  const tokens = fc.record({ kind: fc.constant('tokens' as const), tokens: fc.array(fc.nat(), { maxLength: 64 }) });
  const bytes = fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 512 }) });
  return fc.oneof(
    ...(seedCount > 0 ? [{ arbitrary: seeded, weight: 6 }] : []),
    ...(tokenCount > 0 ? [{ arbitrary: tokens, weight: 2 }] : []),
    { arbitrary: bytes, weight: 1 },
  );
}

const at = (position: number, length: number): number => Math.min(length, Math.floor(position * (length + 1)));

/** The bytes an input description stands for, never longer than `maxInputBytes`. */
export function inputBytes(input: InputDescription, seeds: readonly Uint8Array[], tokens: readonly Uint8Array[]): Uint8Array {
  const pick = <T>(list: readonly T[], index: number): T | undefined => list[index % Math.max(1, list.length)];
  if (input.kind === 'bytes') return input.bytes;
  if (input.kind === 'tokens')
    return Buffer.concat(input.tokens.map((index) => pick(tokens, index) ?? new Uint8Array())).subarray(0, maxInputBytes);
  let data: Uint8Array = pick(seeds, input.seed) ?? new Uint8Array();
  for (const change of input.mutations) {
    const i = at(change.at, data.length);
    const before = data.subarray(0, i);
    if (change.kind === 'byte') data = Buffer.concat([before, Uint8Array.of(change.byte), data.subarray(i + 1)]);
    else if (change.kind === 'delete') data = Buffer.concat([before, data.subarray(i + change.length)]);
    else if (change.kind === 'token') data = Buffer.concat([before, pick(tokens, change.token) ?? new Uint8Array(), data.subarray(i)]);
    else if (change.kind === 'repeat') {
      const slice = data.subarray(i, i + change.length);
      const times = Math.min(change.times, Math.floor(maxInputBytes / Math.max(1, slice.length)));
      data = Buffer.concat([before, ...Array.from({ length: times }, () => slice), data.subarray(i)]);
    } else if (change.kind === 'splice') {
      const other = pick(seeds, change.other) ?? new Uint8Array();
      const from = at(change.from, other.length);
      data = Buffer.concat([before, other.subarray(from, from + change.length), data.subarray(i)]);
    } else data = before;
    if (data.length > maxInputBytes) data = data.subarray(0, maxInputBytes);
  }
  return data;
}
