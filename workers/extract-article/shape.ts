import { parseDocument, selectAll, type DomDocument, type DomElement, type DomNode } from './dom.js';
import { flattenDeepNesting } from './flatten.js';

/**
 * What a browser's parser keeps in the head; everything else it moves into the body. A `<noscript>`
 * in the head is dropped: there it may hold only links, styles and metas for browsers without
 * scripts, and what a page writes into one anyway is not its article.
 */
const headElements = new Set(['title', 'meta', 'link', 'base', 'script', 'style']);

/**
 * A page as a document in the shape a browser's parser builds and Readability expects: one `<html>`
 * holding one `<head>` of metadata and one `<body>` holding everything else, nested no deeper than
 * `maxDomDepth`. linkedom builds the tree as the tags are written: a second `<html>` stays beside
 * the root, `<head>`s nest in each other, and paragraphs sit in the head or in the root beside the
 * body. Readability walks all of it, and climbs from its best candidate until it meets the body:
 * from a candidate outside the body it climbs off the top of the document and throws (`Cannot read
 * properties of null (reading 'tagName')`), and outside the body nothing bounded the depth (40k
 * nested `<head>`s took it 30 s of CPU, a deep second `<html>` overflowed its recursion).
 * @returns null for a page with no elements.
 */
export function pageDocument(html: string): DomDocument | null {
  const document = parseDocument(html);
  const root = document.documentElement;
  if (root === null) return null;
  const head = document.head;
  const body = document.body;
  if (head === null || body === null) return null;
  // What follows the root at the top of the document (a second `<html>`, text after `</html>`)
  // joins it, at its end, as the browser's "after body" rules put it in the body.
  const strays = Array.from(document.childNodes).filter((node) => node !== root && node.nodeType !== documentTypeNode);
  if (strays.length > 0) root.append(...strays);
  // Every other `<html>`, `<head>` and `<body>` is unwrapped: its children take its place. Outermost
  // first, in one pass over a list taken up front, so each element is moved once.
  for (const element of selectAll(root, 'html, head, body')) {
    if (element !== head && element !== body) element.replaceWith(...Array.from(element.childNodes));
  }
  for (const element of Array.from(head.children)) if (element.localName === 'noscript') element.remove();
  // The body takes, in document order, the head's content, the root's other children before it,
  // then (after its own) those after it.
  const before: DomNode[] = Array.from(head.childNodes).filter((node) => !isHeadElement(node));
  const after: DomNode[] = [];
  let pastBody = false;
  for (const node of Array.from(root.childNodes)) {
    if (node === body) pastBody = true;
    else if (node !== head) (pastBody ? after : before).push(node);
  }
  if (before.length > 0) body.prepend(...before);
  if (after.length > 0) body.append(...after);
  flattenDeepNesting(body, html.length);
  // The tokenizer ends a text run at every character reference, and linkedom makes each piece a
  // node (a `<` read as text is held before parsing, source.ts): joined, a run of references is the
  // one text node a browser's parser makes, and every later walk (Readability's four attempts, its
  // re-reads of the page) pays for one node, not one per reference.
  root.normalize();
  return document;
}

const documentTypeNode = 10;

function isHeadElement(node: DomNode): boolean {
  return node.nodeType === 1 && headElements.has((node as DomElement).localName);
}
