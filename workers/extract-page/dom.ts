import { Parser } from 'htmlparser2';
import { withFlatStack } from '../shared/parser-stack.js';
import { ScanningTokenizer } from '../shared/scanning-tokenizer.js';

/**
 * A small DOM of our own, built in one streaming htmlparser2 pass. Ours rather than domhandler's
 * because the extractor needs only elements, text and parent links, and every walk over it is
 * iterative: a page with 100k nested elements must not overflow the stack.
 */
export interface PageElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attribs: Readonly<Record<string, string>>;
  readonly parent: PageElement | null;
  readonly children: PageNode[];
  /** Depth from the root, counted while building so nothing has to climb to learn it. */
  readonly depth: number;
  /** Position in document order, for sorting items the way the page shows them. */
  readonly order: number;
  /** The largest `order` inside this element: its subtree is the range `order..end`. */
  end: number;
}

export interface PageText {
  readonly kind: 'text';
  readonly text: string;
  readonly parent: PageElement;
}

export type PageNode = PageElement | PageText;

/** Elements whose text is never page content; their text is dropped while parsing. */
const textless = new Set(['style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas']);

/** Parses HTML into a tree rooted at a synthetic `#document` element. */
export function parsePage(html: string): PageElement {
  const root: PageElement = { kind: 'element', name: '#document', attribs: {}, parent: null, children: [], depth: 0, order: 0, end: 0 };
  let current = root;
  let order = 1;
  // Script text is kept only for JSON-LD, the one script a page means as data.
  let keepScriptText = false;
  const parser = withFlatStack(
    new Parser(
      {
        onopentag(name, attribs) {
          const element: PageElement = {
            kind: 'element',
            name,
            attribs,
            parent: current,
            children: [],
            depth: current.depth + 1,
            order,
            end: order,
          };
          order++;
          current.children.push(element);
          current = element;
          if (name === 'script') keepScriptText = (attribs['type'] ?? '').trim().toLowerCase() === 'application/ld+json';
        },
        onclosetag() {
          current.end = order - 1;
          if (current.parent !== null) current = current.parent;
        },
        ontext(text) {
          const name = current.name;
          if (textless.has(name) || (name === 'script' && !keepScriptText)) return;
          const last = current.children[current.children.length - 1];
          // htmlparser2 may deliver one text run in several chunks; keep them as one node.
          if (last !== undefined && last.kind === 'text') {
            current.children[current.children.length - 1] = { kind: 'text', text: last.text + text, parent: current };
          } else {
            current.children.push({ kind: 'text', text, parent: current });
          }
        },
      },
      {
        decodeEntities: true,
        lowerCaseTags: true,
        lowerCaseAttributeNames: true,
        recognizeSelfClosing: false,
        Tokenizer: ScanningTokenizer,
      },
    ),
    html,
  );
  parser.write(html);
  parser.end();
  root.end = order - 1;
  return root;
}
