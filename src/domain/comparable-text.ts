/** A run of the whitespace the parser collapses (workers/shared/html.ts), no-break space included. */
const whitespaceRun = /[ \t\n\r\f\u00a0]+/g;

/**
 * A text as comparisons read it: each run of whitespace that holds a no-break space read as the
 * one space (or line break, when it holds one) that collapsing made of it. Titles keep the
 * no-break spaces their writer chose (`10&nbsp;km`), but `10 km` is the same title to a reader,
 * a filter and an item's identity, and items stored before titles kept them keep their keys
 * and content hashes.
 */
export function comparableText(text: string): string {
  // Most texts have none: one native scan, and no string made.
  if (!text.includes('\u00a0')) return text;
  return text.replace(whitespaceRun, (run) => (!run.includes('\u00a0') ? run : run.includes('\n') ? '\n' : ' '));
}
