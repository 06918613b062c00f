import { Tokenizer } from 'htmlparser2';

/**
 * htmlparser2's Tokenizer, with the one loop that skips through text done by `String#indexOf`.
 *
 * htmlparser2 (12.0 as 10.1) skips ahead with `fastForwardTo(char)` wherever it waits for one
 * character: the `<` that ends text (entities left undecoded, as every caller of ours leaves them),
 * the `]` of `]]>` in CDATA, the `-` of `-->`, the quote that ends an attribute value, the `>` after
 * a closing tag's name. Its loop reads one `charCodeAt` per character in JavaScript; `indexOf` scans
 * in native code. CDATA-wrapped item HTML is most of a feed's bytes.
 *
 * `fastForwardTo` is private, and htmlparser2's public API (options, callbacks, the `Tokenizer`
 * constructor option, `write`/`end`) offers no hook into the scanning loop, so this is the one place
 * a private method is replaced. It is kept because the public API alone costs more than 5% of a
 * parse: with htmlparser2 12.0 the stock loop made `parseFeed` 10.9% slower on the 27 real feeds of
 * the parse benchmark and 8.9% on the generated 1 MB feed (bench/README.md, "htmlparser2 12").
 * The tokenizing states, and so every token, are htmlparser2's own. The guard is
 * test/workers/scanning-tokenizer.test.ts: it fails when htmlparser2's `fastForwardTo` is gone or
 * its code differs from the one this replaces, and checks that both tokenizers report the same
 * calls, whole and in chunks. The method is replaced only when htmlparser2 still has it (the version
 * is pinned exactly in package.json).
 */
export class ScanningTokenizer extends Tokenizer {}

/** The fields of htmlparser2 12.0's Tokenizer that `fastForwardTo` reads and moves. */
interface ScanState {
  /** The chunk being tokenized. */
  buffer: string;
  /** The absolute position in the input: `index - offset` is the position in `buffer`. */
  index: number;
  /** Where `buffer` starts in the input. */
  offset: number;
}

/**
 * htmlparser2's contract: move `index` to the next `char` after the current position and say
 * true; when the chunk has none, leave `index` on the chunk's last character (the parse loop
 * steps past it) and say false.
 */
function fastForwardTo(this: ScanState, char: number): boolean {
  const found = this.buffer.indexOf(String.fromCharCode(char), this.index + 1 - this.offset);
  if (found === -1) {
    this.index = this.buffer.length + this.offset - 1;
    return false;
  }
  this.index = found + this.offset;
  return true;
}

const base = Tokenizer.prototype as unknown as Record<string, unknown>;
/** Whether htmlparser2 still has the loop this file replaces. */
export const replacesFastForward = typeof base['fastForwardTo'] === 'function';
if (replacesFastForward) Object.defineProperty(ScanningTokenizer.prototype, 'fastForwardTo', { value: fastForwardTo });
