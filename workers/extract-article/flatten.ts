import type { DomElement } from './dom.js';

/**
 * Deeper than this, elements are unwrapped (their children take their place). Real article pages
 * nest a few dozen levels: of the 181 news pages of ScrapingHub's article-extraction benchmark
 * the median nests 16 below its root and the deepest 50, and the cap changes none of their scores.
 * Readability measures the whole subtree of every block, up to four times on each of two
 * documents, so a chain of nested elements costs the square of its depth: at a cap of 100, pages
 * of such chains cost 12-14 µs of CPU a byte, past the fuzz bound of 10 (test/fuzz/safety.ts); at
 * 50, 4-9. Unflattened, 400 nested divs took 3 s and 1,000 took 56 s, and a page nesting 100k deep
 * would overflow the stack of the recursive parts.
 */
export const maxDomDepth = 50;

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
