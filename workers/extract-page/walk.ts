import { collapseText } from '../shared/html.js';
import { blockElements } from '../shared/sanitise.js';
import type { PageElement } from './dom.js';

/**
 * Visits every element below `root` in document order, with an explicit stack (never recursion:
 * page depth is unbounded). `visit` returning false skips the element's subtree. `maxElements`
 * stops the walk after that many visits: what reads one block of a listing reads at most a block's
 * worth, since blocks nest and each reading its whole subtree would cost the square of the page.
 */
export function walkElements(
  root: PageElement,
  visit: (element: PageElement) => boolean | void,
  maxElements = Number.POSITIVE_INFINITY,
): void {
  const stack: PageElement[] = [];
  pushChildren(stack, root);
  let visits = 0;
  for (let element = stack.pop(); element !== undefined && visits++ < maxElements; element = stack.pop()) {
    if (visit(element) === false) continue;
    pushChildren(stack, element);
  }
}

function pushChildren(stack: PageElement[], element: PageElement): void {
  const children = element.children;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child !== undefined && child.kind === 'element') stack.push(child);
  }
}

/**
 * The visible text of an element, collapsed. `limit` stops collecting once that many characters
 * are gathered, or once that many nodes are visited, so scoring a huge container costs no more
 * than scoring a small one, even when its nodes hold no text (a link wrapping thousands of empty
 * elements: nested, every block of the page read them all, cubic in the page; found by the fuzzer).
 */
export function textOf(root: PageElement, limit = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  let length = 0;
  let visits = 0;
  // Entries are nodes to visit, or the string '\n' to emit after a block closes.
  const stack: (PageElement['children'][number] | '\n')[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i] as PageElement['children'][number]);
  while (stack.length > 0 && length < limit && visits++ < limit) {
    const node = stack.pop();
    if (node === undefined) break;
    if (node === '\n') {
      parts.push('\n');
      continue;
    }
    if (node.kind === 'text') {
      parts.push(node.text);
      length += node.text.length;
      continue;
    }
    if (node.name === 'script') continue;
    const block = blockElements.has(node.name);
    if (block) {
      parts.push('\n');
      stack.push('\n');
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as PageElement['children'][number]);
  }
  return collapseText(parts.join(''));
}

/** Elements one block of a listing is read through: far more than any article card holds. */
export const blockElementBudget = 2000;

/** The element's class attribute split into lower-case tokens. */
export function classTokens(element: PageElement): string[] {
  const value = element.attribs['class'];
  return value === undefined || value === ''
    ? []
    : value
        .toLowerCase()
        .split(/\s+/)
        .filter((token) => token !== '');
}

/** The nearest ancestor (or the element itself) that satisfies `test`. Iterative by construction. */
export function closest(element: PageElement, test: (candidate: PageElement) => boolean): PageElement | null {
  for (let current: PageElement | null = element; current !== null; current = current.parent) {
    if (test(current)) return current;
  }
  return null;
}
