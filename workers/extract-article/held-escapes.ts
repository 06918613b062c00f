import type { DomElement, DomNode } from './dom.js';

/** What a `<` in text is held as; source.ts holds those the tokenizer would cut text at before parsing. */
export const heldAngle = '\uFDD0';

/**
 * The characters linkedom writes as character references in text (`<`, `>`, `&`, no-break space),
 * each held as a noncharacter while Readability runs. Readability reads the page again from its own
 * HTML on every attempt after the first (`page.innerHTML = pageCacheHtml`), and linkedom makes a
 * text node of every reference it parses: a page of 220,000 `<` in its text cost 3–4 s of CPU and
 * 580 MB for 256 KB (the long fuzz run). Held, a run of them is one text node, as it was in the
 * page. Noncharacters are never interchanged, so one found in a page is taken as U+FFFD first
 * (`withoutPageHolders`).
 */
const held = new Map([
  ['<', heldAngle],
  ['>', '\uFDD1'],
  ['&', '\uFDD2'],
  ['\u00A0', '\uFDD3'],
]);
const releasedAsHtml = new Map([
  ['\uFDD0', '&lt;'],
  ['\uFDD1', '&gt;'],
  ['\uFDD2', '&amp;'],
  ['\uFDD3', '&#160;'],
]);
const releasedAsText = new Map([...held].map(([character, holder]) => [holder, character]));

const escaped = /[<>&\u00A0]/g;
const anyEscaped = /[<>&\u00A0]/;
const holders = /[\uFDD0-\uFDD3]/g;
/** The page's own holders, written or as numeric references (U+FDD0–FDD3 are 64976–64979). */
const pageHolders = /[\uFDD0-\uFDD3]|&#(?:[xX]0*[fF][dD][dD][0-3]|0*6497[6-9]);?/g;

/**
 * The page with its own holders taken as U+FFFD, written or as numeric references, so that every
 * holder in a document is one of ours and is released as what it was. Every page passes here
 * (source.ts) before it is parsed.
 */
export function withoutPageHolders(html: string): string {
  return html.replace(pageHolders, '\uFFFD');
}

interface TextNode extends DomNode {
  data: string;
}

/** Holds the escaped characters of every text node under `root`, in one walk without recursion. */
export function holdEscapes(root: DomElement): void {
  const stack: DomNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeType === 3) {
      const text = node as TextNode;
      if (anyEscaped.test(text.data)) text.data = text.data.replace(escaped, (character) => held.get(character) ?? character);
    } else {
      for (const child of Array.from(node.childNodes)) stack.push(child);
    }
  }
}

/** HTML written while the characters were held, with their references back. */
export function releaseInHtml(html: string): string {
  return html.replace(holders, (holder) => releasedAsHtml.get(holder) ?? holder);
}

/** Text read while the characters were held, with the characters back. */
export function releaseInText(text: string): string {
  return text.replace(holders, (holder) => releasedAsText.get(holder) ?? holder);
}
