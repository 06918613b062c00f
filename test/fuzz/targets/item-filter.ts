import { judgeFilter, parseFilter } from '../../../src/domain/item-filter.js';
import type { FilterSubject } from '../../../src/domain/item-filter.js';
import { callParser } from '../safety.js';
import type { FuzzTarget } from '../target.js';

// A filter that passes parseFilter is judged against items whose fields are long enough that a
// pattern taking more than linear time shows in the time bound (matching reads 10,000 characters).
const long = (unit: string): string => unit.repeat(Math.ceil(10_000 / unit.length)).slice(0, 10_000);
const subjects: FilterSubject[] = ['a', 'ab', ' 1', 'x-'].map((unit) => ({
  title: long(unit),
  description_text: long(unit.toUpperCase()),
  url: `https://example.test/${long(unit)}`,
  authors: [{ name: long(unit) }],
  categories: [long(unit)],
  date_published: '2026-01-01T00:00:00.000Z',
}));
const now = new Date('2026-06-01T00:00:00.000Z');

/**
 * The filter language: a JSON request body read by parseFilter, then judged, as a feed refresh
 * would. Input that is not JSON is the pattern of a `matches` condition, so mutations reach the
 * regular-expression check directly.
 */
export const target: FuzzTarget = {
  seedDirectories: [],
  dictionary: 'filter',
  ciRuns: 15_000,
  run(data) {
    const text = Buffer.from(data).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = { field: 'title', op: 'matches', value: text };
    }
    const work = data.byteLength + 10_000 * subjects.length;
    callParser(work, ['validation_failed'], () => {
      const filter = parseFilter(value);
      for (const subject of subjects) judgeFilter(subject, filter, now);
    });
  },
};
