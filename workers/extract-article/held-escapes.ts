import { Parser } from 'htmlparser2';
import { withFlatStack } from '../shared/parser-stack.js';
import { ScanningTokenizer } from '../shared/scanning-tokenizer.js';
import type { DomElement, DomNode } from './dom.js';

/**
 * The characters linkedom writes as character references in text (`<`, `>`, `&`, no-break space),
 * each held as a noncharacter while Readability runs. Readability reads the page again from its own
 * HTML on every attempt after the first (`page.innerHTML = pageCacheHtml`), and linkedom makes a
 * text node of every reference it parses: a page of 220,000 `<` in its text cost 3–4 s of CPU and
 * 580 MB for 256 KB (the long fuzz run). Held, a run of them is one text node, as it was in the
 * page. Noncharacters are never interchanged, so one found in a page is taken as U+FFFD first
 * (`holdStrayAngles`, which every page passes before it is parsed).
 */
const held = new Map([
  ['<', '\uFDD0'],
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

/** A `<` the tokenizer may read as text: one that is not followed by what opens a tag, an end tag or a comment. */
const strayAngle = /<(?![A-Za-z!/?])/;
/** Where text is raw (script, style) or read whole as the page's own words (title, textarea): left as written. */
const wholeTextElements = new Set(['script', 'style', 'title', 'textarea']);

/**
 * The page's HTML with every `<` that the tokenizer reads as text held, before the page is parsed.
 * The tokenizer ends a text run at each of them, and linkedom makes every piece a node that it
 * registers for events: 256 KB of `<` in text was 220,000 nodes and 3 s of CPU to parse and walk,
 * most of it the garbage collector's (the long fuzz run). Held, a run of text is one node, as it is
 * in a browser. The positions come from htmlparser2's own tokenizer, the one linkedom parses with,
 * so a `<` in an attribute value or a comment is never touched. Noncharacters already in the page
 * become U+FFFD first, so that everything held is released as what it was.
 */
export function holdStrayAngles(html: string): string {
  const page = html.replace(pageHolders, '\uFFFD');
  if (!strayAngle.test(page)) return page;
  const strays: number[] = [];
  let wholeText = false;
  const parser: Parser = withFlatStack(
    new Parser(
      {
        onopentagname: (name) => {
          wholeText = wholeTextElements.has(name);
        },
        onclosetag: (name) => {
          if (wholeTextElements.has(name)) wholeText = false;
        },
        // A stray `<` always starts the text run the tokenizer reports after it.
        ontext: (data) => {
          if (!wholeText && data.charCodeAt(0) === 0x3c) strays.push(parser.endIndex + 1 - data.length);
        },
      },
      { decodeEntities: false, Tokenizer: ScanningTokenizer },
    ),
    page,
  );
  parser.end(page);
  let out = '';
  let copied = 0;
  for (const at of strays) {
    out += `${page.slice(copied, at)}\uFDD0`;
    copied = at + 1;
  }
  return out + page.slice(copied);
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
