import { escapeAttribute, escapeText } from 'entities';
import type { PageElement, PageNode } from './dom.js';

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Serialisation is for item descriptions; past this the summary is no longer a summary. */
const maxLength = 20_000;

/**
 * The element's inner HTML, rebuilt from our tree without recursion. The output still goes through
 * the sanitiser: this only turns the tree back into markup.
 */
export function innerHtml(element: PageElement): string {
  const out: string[] = [];
  let length = 0;
  const stack: (PageNode | string)[] = [];
  for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i] as PageNode);
  while (stack.length > 0 && length < maxLength) {
    const node = stack.pop();
    if (node === undefined) break;
    let piece: string;
    if (typeof node === 'string') piece = node;
    else if (node.kind === 'text') piece = escapeText(node.text);
    else {
      piece = openTag(node);
      if (!voidElements.has(node.name)) {
        stack.push(`</${node.name}>`);
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as PageNode);
      }
    }
    out.push(piece);
    length += piece.length;
  }
  return out.join('');
}

function openTag(element: PageElement): string {
  let tag = `<${element.name}`;
  for (const [name, value] of Object.entries(element.attribs)) {
    // Only what the sanitiser may keep; a 30k-attribute element must not cost a 30k-attribute string.
    if (name === 'href' || name === 'src' || name === 'alt' || name === 'title') tag += ` ${name}="${escapeAttribute(value)}"`;
  }
  return `${tag}>`;
}
