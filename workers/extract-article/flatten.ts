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

/**
 * How much nesting a page of `chars` characters may hold in all: the sum, over its elements, of
 * their depth below the body. Measuring each block's subtree, Readability pays about 12 µs of CPU
 * for each element under each block, so 1,365 elements under 48 nested blocks (31 KB) took 1 s
 * where the page's size allows 0.6 (the long fuzz run). Of ScrapingHub's 181 news pages the most
 * nested holds 0.31 a character; a page holding more than this budget is flattened below the depth
 * that fits it, which costs at most about 5 µs a character.
 */
export function maxDepthSum(chars: number): number {
  return 10_000 + Math.floor(chars * 0.4);
}

/**
 * Unwraps every element below `maxDomDepth` under `root`, or below the shallower depth that keeps
 * the page within `maxDepthSum(chars)`, in two iterative walks.
 */
export function flattenDeepNesting(root: DomElement, chars: number): void {
  const depth = depthWithin(root, maxDepthSum(chars));
  const stack: { element: DomElement; depth: number }[] = [{ element: root, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop() as { element: DomElement; depth: number };
    const children = Array.from(next.element.children);
    if (next.depth > depth && next.element.parentElement !== null) {
      next.element.replaceWith(...Array.from(next.element.childNodes));
      for (const child of children) stack.push({ element: child, depth: next.depth });
    } else {
      for (const child of children) stack.push({ element: child, depth: next.depth + 1 });
    }
  }
}

/** The deepest level, at most `maxDomDepth`, such that the elements down to it have depths summing to at most `budget`. */
function depthWithin(root: DomElement, budget: number): number {
  // Unwrapped elements leave only elements at the cap or above it, so the sum for a cap is that of
  // the elements found at each depth down to it.
  const perDepth = new Array<number>(maxDomDepth + 1).fill(0);
  const stack: { element: DomElement; depth: number }[] = [{ element: root, depth: 0 }];
  while (stack.length > 0) {
    const { element, depth } = stack.pop() as { element: DomElement; depth: number };
    perDepth[depth] = (perDepth[depth] ?? 0) + 1;
    if (depth < maxDomDepth) for (const child of Array.from(element.children)) stack.push({ element: child, depth: depth + 1 });
  }
  let sum = 0;
  for (let depth = 1; depth <= maxDomDepth; depth++) {
    sum += depth * (perDepth[depth] ?? 0);
    if (sum > budget) return Math.max(1, depth - 1);
  }
  return maxDomDepth;
}
