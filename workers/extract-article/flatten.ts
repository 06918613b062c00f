import type { DomElement } from './dom.js';

/**
 * Deeper than this, elements are unwrapped (their children take their place). Real article pages
 * nest a few dozen levels; Readability's cost grows faster than the square of the depth (400
 * nested divs took it 3 s, 1,000 took it 56 s), and a page built to nest 100k deep would
 * overflow the stack of the recursive parts. Mirrors the sanitiser's own cap (maxHtmlDepth).
 */
export const maxDomDepth = 100;

/** Unwraps every element below `maxDomDepth` under `root`, in one iterative walk. */
export function flattenDeepNesting(root: DomElement): void {
  const stack: { element: DomElement; depth: number }[] = [{ element: root, depth: 0 }];
  while (stack.length > 0) {
    const { element, depth } = stack.pop() as { element: DomElement; depth: number };
    const children = Array.from(element.children);
    if (depth > maxDomDepth && element.parentElement !== null) {
      element.replaceWith(...Array.from(element.childNodes));
      for (const child of children) stack.push({ element: child, depth });
    } else {
      for (const child of children) stack.push({ element: child, depth: depth + 1 });
    }
  }
}
