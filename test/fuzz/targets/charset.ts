import { decodeBytes } from '../../../workers/shared/charset.js';
import { callParser, Finding } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/**
 * The charset detector: the first line of the input is the Content-Type header (so the fuzzer
 * mutates labels too), the rest the body, read as XML and as HTML. Decoding never refuses.
 */
export const target: FuzzTarget = {
  seedDirectories: ['test/fixtures/feeds'],
  dictionary: 'xml',
  ciRuns: 15_000,
  run(data) {
    const newline = data.indexOf(10);
    const header = newline === -1 ? undefined : Buffer.from(data.subarray(0, newline)).toString('latin1');
    const body = newline === -1 ? data : data.subarray(newline + 1);
    for (const format of ['xml', 'html'] as const) {
      const text = callParser(data.byteLength, [], () => decodeBytes(body, header, format));
      if (typeof text !== 'string') throw new Finding('crash', `decodeBytes returned ${typeof text}`);
      // A decoder turns each byte into at most one UTF-16 unit (plus a replacement pair at worst).
      if (text.length > body.byteLength * 2)
        throw new Finding('unsafe-output', `${body.byteLength} bytes decoded to ${text.length} characters`);
    }
  },
};
