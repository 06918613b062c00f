import t from 'tap';
import { itemMatches, parseFilter, type FilterSubject } from '../../src/domain/item-filter.js';
import { growth } from '../fixtures/growth.js';

const now = new Date('2026-11-27T12:00:00.000Z');
const item = (title: string): FilterSubject => ({
  url: 'https://example.com/a',
  title,
  description_text: '',
  authors: [],
  date_published: '2026-11-26T12:00:00.000Z',
});
const matches = (value: string) => parseFilter({ field: 'title', op: 'matches', value });

// Patterns a backtracking engine takes polynomial or exponential time over, each with a title that
// makes it try every split, and whether the pattern matches that title at 28 characters. `a*`×99 over
// 28 `a` and a `!` stalled the server 37 s before patterns were RE2's.
const runOfA = (length: number): string => `${'a'.repeat(length)}!`;
// Eleven `a` among many `b`: twelve `.*a` cannot all find one, after trying every way to split.
const elevenA = (length: number): string => `${'a'.repeat(11)}${'b'.repeat(length)}`;
const attacks: [pattern: string, title: (length: number) => string, matching: boolean][] = [
  ['a*'.repeat(20) + '$', runOfA, true],
  ['a*'.repeat(99) + '$', runOfA, true],
  ['(a+)+$', runOfA, false],
  ['(a|a)*$', runOfA, true],
  ['(.*a){12}', elevenA, false],
  ['(.*a){12}$', runOfA, false],
];

t.test('attack patterns are accepted and cost time linear in the text', async (t) => {
  for (const [pattern, title, matching] of attacks) {
    const filter = matches(pattern);
    t.equal(itemMatches(item(title(28)), filter, now), matching, `${pattern.slice(0, 24)} judges as RE2 does`);
    // A few items per size, so each measured run is long enough for the CPU clock.
    const items = (length: number): FilterSubject[] => Array.from({ length: 200 }, () => item(title(length)));
    const { small, large, ratio } = growth(items(1_000), items(2_000), (all) => all.map((one) => itemMatches(one, filter, now)));
    // Twice the text: about twice the time when matching is linear; `a*`×20 over backtracking grows
    // by 2^20 here, `(a+)+` by far more. The bound leaves room for a GC.
    t.ok(ratio < 4, `${pattern.slice(0, 24)}: ${small.toFixed(2)} ms → ${large.toFixed(2)} ms for twice the text (×${ratio.toFixed(1)})`);
  }
});

t.test('the 28- and 56-character titles of the report cost alike too', async (t) => {
  const filter = matches('a*'.repeat(99) + '$');
  const many = (length: number): FilterSubject[] => Array.from({ length: 5_000 }, () => item(runOfA(length)));
  const { ratio } = growth(many(28), many(56), (items) => items.map((one) => itemMatches(one, filter, now)));
  t.ok(ratio < 4, `×${ratio.toFixed(1)} for twice the title`);
});

t.test("patterns are RE2's: its syntax is taken, case-insensitively", async (t) => {
  t.ok(itemMatches(item('rust 2.0'), matches('^RUST\\b'), now), 'case-insensitive');
  t.ok(itemMatches(item('Ärger'), matches('^ä'), now), 'beyond ASCII too');
  t.ok(itemMatches(item('Released 2026'), matches('(?P<year>\\d{4})$'), now), 'named groups in either spelling');
  t.ok(itemMatches(item('naïve'), matches('^\\pL+$'), now), 'Unicode classes');
  t.notOk(itemMatches(item('Rust'), matches('^go'), now));
  t.ok(itemMatches(item('aaaa'), matches('(a+)+$'), now), 'nested quantifiers are no longer refused: they cost nothing');
});

t.test('what RE2 cannot compile is refused, naming the path, with its reason', async (t) => {
  const syntax = 'a regular expression in RE2 syntax (which has no backreferences or lookarounds)';
  t.throws(() => parseFilter({ any: [{ field: 'title', op: 'matches', value: '(a)\\1' }] }), {
    code: 'validation_failed',
    message: `Expected \`filters.any[0].value\` to be ${syntax}, got "(a)\\\\1"; RE2 says: invalid escape sequence: \`\\1\``,
  });
  t.throws(() => matches('a(?=b)'), {
    message: `Expected \`filters.value\` to be ${syntax}, got "a(?=b)"; RE2 says: invalid or unsupported Perl syntax: \`(?=\``,
  });
  t.throws(() => matches('(?<!a)b'), { code: 'validation_failed', message: /RE2 syntax .*got "\(\?<!a\)b"; RE2 says: / });
  t.throws(() => matches('(unclosed'), { message: /got "\(unclosed"; RE2 says: missing closing \)$/ });
});

t.test('a pattern is at most 200 characters and 1,000 RE2 instructions', async (t) => {
  t.ok(matches('a'.repeat(200)));
  t.throws(() => matches('a'.repeat(201)), {
    code: 'validation_failed',
    message: 'Expected `filters.value` to be a pattern of at most 200 characters, got 201 characters',
  });
  t.ok(matches('(a|b){300}'), 'a repeat that stays small');
  // 11 characters that compile to 3,000 instructions: the cost of a match grows with both.
  t.throws(() => matches('(a|b){1000}'), {
    code: 'validation_failed',
    message: /^Expected `filters\.value` to be a regular expression that compiles to at most 1000 RE2 instructions, got one of \d{4,}; /,
  });
});

t.test('a saved pattern RE2 refuses matches nothing instead of failing the read', async (t) => {
  // Saved before patterns were RE2's: JavaScript's escape, which RE2 spells `\x{e9}`.
  const saved = { field: 'title', op: 'matches', value: 'caf\\u00e9' } as const;
  t.throws(() => parseFilter(saved), { code: 'validation_failed' }, 'refused when sent');
  t.notOk(itemMatches(item('café'), saved, now));
  t.notOk(itemMatches(item('café'), saved, now), 'and again, from what is remembered');
  t.ok(itemMatches(item('café'), matches('caf\\x{e9}'), now), "RE2's spelling");
});
