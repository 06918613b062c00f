import t from 'tap';
import { itemMatches, judgeFilter, parseFilter, type FilterSubject } from '../../src/domain/item-filter.js';
import { judgeItem, parseKeepBlock, patchKeepBlock } from '../../src/domain/keep-block.js';

const now = new Date('2026-11-25T12:00:00.000Z');
const item = (fields: Partial<FilterSubject> = {}): FilterSubject => ({
  url: 'https://example.com/a',
  title: 'Rust 2.0 released',
  description_text: 'A new edition',
  authors: [{ name: 'Ferris' }],
  date_published: '2026-11-24T12:00:00.000Z',
  categories: ['Programming', 'Release notes'],
  ...fields,
});

t.test('category matches any of the item categories, case-insensitively', async (t) => {
  t.ok(itemMatches(item(), parseFilter({ field: 'category', op: 'contains', value: 'release' }), now));
  t.notOk(itemMatches(item(), parseFilter({ field: 'category', op: 'contains', value: 'sport' }), now));
  t.ok(
    itemMatches(item(), parseFilter({ field: 'category', op: 'matches', value: '^programming$' }), now),
    'each category is its own line',
  );
  t.ok(
    itemMatches(item({ categories: undefined }), parseFilter({ field: 'category', op: 'not_contains', value: 'x' }), now),
    'no categories: nothing contained',
  );
});

t.test('date_published takes older_than / newer_than an age, measured from now', async (t) => {
  const dayOld = item();
  t.ok(itemMatches(dayOld, parseFilter({ field: 'date_published', op: 'older_than', value: '12h' }), now));
  t.notOk(itemMatches(dayOld, parseFilter({ field: 'date_published', op: 'older_than', value: '2d' }), now));
  t.ok(itemMatches(dayOld, parseFilter({ field: 'date_published', op: 'newer_than', value: '1w' }), now));
  t.notOk(itemMatches(dayOld, parseFilter({ field: 'date_published', op: 'newer_than', value: '90m' }), now));
  t.ok(
    itemMatches(dayOld, parseFilter({ field: 'date_published', op: 'newer_than', value: '90m' }), new Date('2026-11-24T13:00:00.000Z')),
    'the same filter, an hour after publication',
  );
});

t.test('fields and operators must go together, and an age must be one', async (t) => {
  t.throws(() => parseFilter({ field: 'date_published', op: 'contains', value: '2026' }), {
    code: 'validation_failed',
    message: 'Expected `filters.op` to be `older_than` or `newer_than` (the operators of `date_published`), got "contains"',
  });
  t.throws(() => parseFilter({ field: 'title', op: 'older_than', value: '7d' }), {
    message: 'Expected `filters.field` to be `date_published` (the only field `older_than` or `newer_than` apply to), got "title"',
  });
  t.throws(() => parseFilter({ field: 'date_published', op: 'older_than', value: 'a week' }), {
    message: 'Expected `filters.value` to be an age such as 90m, 12h, 7d or 2w, got "a week"',
  });
  t.throws(() => parseFilter({ field: 'date_published', op: 'older_than', value: '0d' }), { message: /to be an age/ });
});

t.test('the condition that decided: the first to fail an all, the first to hold in an any', async (t) => {
  const filter = parseFilter({
    all: [
      { field: 'title', op: 'contains', value: 'rust' },
      {
        any: [
          { field: 'author', op: 'contains', value: 'nobody' },
          { field: 'category', op: 'contains', value: 'programming' },
        ],
      },
    ],
  });
  t.same(judgeFilter(item(), filter, now), {
    matched: true,
    decidedBy: { path: 'filters.all[1].any[1]', condition: { field: 'category', op: 'contains', value: 'programming' } },
  });
  t.same(judgeFilter(item({ title: 'Go' }), filter, now).decidedBy.path, 'filters.all[0]');
});

t.test('keep/block: block wins; keep must match when set; the deciding rule is named', async (t) => {
  const filters = parseKeepBlock({
    keep: { field: 'category', op: 'contains', value: 'programming' },
    block: { field: 'title', op: 'contains', value: 'sponsored' },
  });
  t.match(judgeItem(item(), filters, now), { kept: true, decidedBy: { rule: 'keep', path: 'keep' } });
  t.match(judgeItem(item({ title: 'Sponsored: Rust' }), filters, now), { kept: false, decidedBy: { rule: 'block', path: 'block' } });
  t.match(judgeItem(item({ categories: ['Sport'] }), filters, now), { kept: false, decidedBy: { rule: 'keep' } });
  t.same(judgeItem(item(), parseKeepBlock(null), now), { kept: true, decidedBy: null });
  t.throws(() => parseKeepBlock({ keep: { field: 'colour', op: 'contains', value: 'x' } }), {
    message: /^Expected `filters\.keep\.field` to be `title`, `description`, `author`, `url`, `category` or `date_published`, got "colour"/,
  });
  t.throws(() => parseKeepBlock({ allow: {} }), { message: 'Unknown field `allow` in `filters`; expected only `keep` and `block`' });
});

t.test('a patch leaves out what it does not name, and null removes', async (t) => {
  const before = parseKeepBlock({
    keep: { field: 'title', op: 'contains', value: 'a' },
    block: { field: 'title', op: 'contains', value: 'b' },
  });
  t.same(patchKeepBlock(before, undefined), before);
  t.same(patchKeepBlock(before, { block: null }), { keep: before.keep, block: null });
  t.same(patchKeepBlock(before, null), { keep: null, block: null });
});

t.test('a no-break space in a title or a filter reads as a space', async (t) => {
  const noBreak = item({ title: 'Rust\u00a02.0 released', categories: ['Release\u00a0notes'] });
  t.ok(itemMatches(noBreak, parseFilter({ field: 'title', op: 'contains', value: 'rust 2.0' }), now));
  t.ok(itemMatches(noBreak, parseFilter({ field: 'title', op: 'matches', value: '^Rust 2' }), now));
  t.ok(itemMatches(noBreak, parseFilter({ field: 'category', op: 'contains', value: 'release notes' }), now));
  t.ok(itemMatches(item(), parseFilter({ field: 'title', op: 'contains', value: 'Rust\u00a02.0' }), now), 'in the filter too');
  t.notOk(itemMatches(noBreak, parseFilter({ field: 'title', op: 'not_contains', value: 'rust 2.0' }), now));
});
