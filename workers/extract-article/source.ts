import { Parser } from 'htmlparser2';
import { fewerTagsThan, withFlatStack } from '../shared/parser-stack.js';
import { ScanningTokenizer } from '../shared/scanning-tokenizer.js';
import { heldAngle, withoutPageHolders } from './held-escapes.js';

/**
 * How deep the page's own tags may nest when linkedom reads them. linkedom parses with
 * htmlparser2's `Parser`, whose stack of open elements costs O(depth) a tag (it shifts an array);
 * the website extractor swaps that stack for a flat one (workers/shared/parser-stack.ts), but
 * linkedom makes its parser privately. So 80,000 nested `<b>` (240 KB) took 2.9 s of CPU, 40,000
 * took 0.69 s. The document is flattened to 50 levels below the body after parsing anyway
 * (flatten.ts), so tags nested deeper than this are dropped before, with the same effect: their
 * content stays, in the element at this depth.
 */
export const maxSourceDepth = 256;

/**
 * How many elements a page of `chars` characters may write before its later tags are dropped (their
 * text stays, in the element then open). Readability costs 30–120 µs of CPU an element on linkedom
 * (it reads each element's style, scores it and re-parses the page for each of its attempts), so a
 * page of four-byte elements (65,000 `<h2>` in 256 KB) took 3–5 s, where the page's size allows
 * 2.7 (the long fuzz run). Real pages write one element per 50–300 bytes (the densest long page of
 * the ScrapingHub set: 50; the largest: 1,737 elements), and only pages denser than one per 32
 * characters across their whole length reach the budget, which costs at most about 4 µs a byte.
 */
export function maxSourceElements(chars: number): number {
  return 512 + Math.floor(chars / 32);
}

/** A `<` the tokenizer may read as text: one that is not followed by what opens a tag, an end tag or a comment. */
const strayAngle = /<(?![A-Za-z!/?])/;
/** Where text is raw (script, style) or read whole as the page's own words (title, textarea): left as written. */
const wholeTextElements = new Set(['script', 'style', 'title', 'textarea']);

/**
 * The page's HTML made cheap for linkedom to parse, in one pass of htmlparser2's own tokenizer (the
 * one linkedom parses with, so both read the same tags and text):
 * - every `<` read as text is held (held-escapes.ts). The tokenizer ends a text run at each, and
 *   linkedom makes every piece a node that it registers for events: 256 KB of `<` in text was
 *   220,000 nodes and 3 s of CPU to parse and walk, most of it the garbage collector's (the long
 *   fuzz run). Held, a run of text is one node, as it is in a browser;
 * - tags nested deeper than `maxSourceDepth`, and those past the page's `maxSourceElements`, are
 *   dropped, with their explicit end tags.
 * Pages with none of these (almost all) are returned as they are after one scan for each.
 */
export function prepareSource(html: string): string {
  const page = withoutPageHolders(html);
  // Nesting past the cap, or elements past the budget, take more start tags than the cap, each with its `<`.
  if (!strayAngle.test(page) && fewerTagsThan(page, maxSourceDepth + 1)) return page;
  const maxElements = maxSourceElements(page.length);
  let elements = 0;
  /** [from, to) ranges of the page to replace, in page order: a held `<` or nothing. */
  const edits: { from: number; to: number; by: string }[] = [];
  /** For each open element, whether its start tag was dropped. */
  const dropped: boolean[] = [];
  let wholeText = false;
  const parser: Parser = withFlatStack(
    new Parser(
      {
        onopentagname: (name) => {
          wholeText = wholeTextElements.has(name);
          dropped.push(false);
        },
        // An implied start tag (`</p>` with no `<p>` open) has no text of its own to drop, and is
        // not one the page wrote.
        onopentag: (_name, _attributes, isImplied) => {
          if (isImplied) return;
          elements += 1;
          // A title or textarea stays wherever it is: dropped, its text would be read as tags.
          if (!wholeText && (dropped.length > maxSourceDepth || elements > maxElements)) {
            dropped[dropped.length - 1] = true;
            edits.push({ from: parser.startIndex, to: parser.endIndex + 1, by: '' });
          }
        },
        onclosetag: (name, isImplied) => {
          if (wholeTextElements.has(name)) wholeText = false;
          if (dropped.pop() === true && !isImplied) edits.push({ from: parser.startIndex, to: parser.endIndex + 1, by: '' });
        },
        // A stray `<` always starts the text run the tokenizer reports after it.
        ontext: (data) => {
          if (!wholeText && data.charCodeAt(0) === 0x3c) {
            const at = parser.endIndex + 1 - data.length;
            edits.push({ from: at, to: at + 1, by: heldAngle });
          }
        },
      },
      { decodeEntities: false, Tokenizer: ScanningTokenizer },
    ),
    page,
  );
  parser.end(page);
  let out = '';
  let copied = 0;
  for (const edit of edits) {
    // Spans come in page order and do not overlap; one that began inside a span already cut would
    // be skipped, so no part of the page is ever written twice.
    if (edit.from < copied) continue;
    out += page.slice(copied, edit.from) + edit.by;
    copied = edit.to;
  }
  return out + page.slice(copied);
}
