import type { DomElement, DomNode } from './dom.js';

/** A block whose links hold more than this share of its text is a list of links, not prose. */
const maxLinkDensity = 0.5;
/** Prose: a block with a paragraph this long is never taken for a link list. */
const proseChars = 200;
const blocks = new Set(['ul', 'ol', 'div', 'section', 'p', 'h2', 'h3', 'h4', 'table']);
/** Not looked inside. */
const keptWhole = new Set(['blockquote', 'pre', 'figure']);

interface Counts {
  text: number;
  linked: number;
  prose: boolean;
}

/**
 * The article Readability chose, cleared of what it leaves at the edges: lists and boxes of links
 * ("You may also like", "More stories", read-more promos) that its conditional cleaning keeps when
 * they sit inside the chosen container. Text and link-text lengths are counted in one bottom-up
 * walk, then blocks are judged outermost first, so the cost is linear in the article's size.
 */
export function tidyContent(content: DomElement): void {
  const counts = new Map<DomNode, Counts>();
  // Post-order without recursion: a node is counted once all its children are.
  const stack: { node: DomNode; visited: boolean }[] = [{ node: content, visited: false }];
  while (stack.length > 0) {
    const top = stack.pop() as { node: DomNode; visited: boolean };
    const { node } = top;
    if (node.nodeType === 3) {
      counts.set(node, { text: (node.textContent ?? '').trim().length, linked: 0, prose: false });
      continue;
    }
    if (node.nodeType !== 1) continue;
    if (!top.visited) {
      stack.push({ node, visited: true });
      for (const child of Array.from(node.childNodes)) stack.push({ node: child, visited: false });
      continue;
    }
    const own: Counts = { text: 0, linked: 0, prose: false };
    for (const child of Array.from(node.childNodes)) {
      const counted = counts.get(child);
      if (counted === undefined) continue;
      own.text += counted.text;
      own.linked += counted.linked;
      own.prose ||= counted.prose;
    }
    const name = (node as DomElement).localName;
    if (name === 'a') own.linked = own.text;
    if (name === 'p' && own.text > proseChars) own.prose = true;
    counts.set(node, own);
  }
  const queue: DomElement[] = Array.from(content.children);
  while (queue.length > 0) {
    const element = queue.pop() as DomElement;
    const counted = counts.get(element);
    if (
      counted !== undefined &&
      blocks.has(element.localName) &&
      counted.text > 0 &&
      !counted.prose &&
      counted.linked / counted.text > maxLinkDensity
    ) {
      element.remove();
      continue;
    }
    // A quote is the author's, links and all: an embedded post is mostly its links and date.
    if (!keptWhole.has(element.localName)) queue.push(...Array.from(element.children));
  }
}
