import { parseDate } from '../../../workers/shared/dates.js';
import { callParser, Finding } from '../safety.js';
import type { FuzzTarget } from '../target.js';

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Feed dates: the result is null or ISO 8601 UTC with milliseconds that reads back as itself. */
export const target: FuzzTarget = {
  seedDirectories: [],
  ciRuns: 50_000,
  run(data) {
    const text = Buffer.from(data).toString('utf8');
    const date = callParser(data.byteLength, [], () => parseDate(text));
    if (date === null || date === undefined) return;
    if (!iso.test(date) || new Date(date).toISOString() !== date)
      throw new Finding('unsafe-output', `parseDate(${JSON.stringify(text.slice(0, 200))}) returned ${JSON.stringify(date)}`);
  },
};
