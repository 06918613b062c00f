import { maxOpmlOutlines, parseOpml } from '../../../src/http/opml-read.js';
import { callParser, Finding } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/** The OPML reader behind `POST /opml` and the CLI import: it must refuse, never crash, and keep its limits. */
export const target: FuzzTarget = {
  seedDirectories: [],
  dictionary: 'xml',
  ciRuns: 40_000,
  run(data) {
    const text = Buffer.from(data).toString('utf8');
    const entries = callParser(data.byteLength, ['validation_failed', 'payload_too_large'], () => parseOpml(text));
    if (entries && entries.length > maxOpmlOutlines)
      throw new Finding('unsafe-output', `${entries.length} outlines read, the limit is ${maxOpmlOutlines}`);
  },
};
