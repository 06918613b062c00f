import { selectAll, type DomElement } from './dom.js';

/** A block whose links hold more than this share of its text is a list of links, not prose. */
const maxLinkDensity = 0.5;
/** Prose: a block with a paragraph this long is never taken for a link list. */
const proseChars = 200;

/**
 * The article Readability chose, cleared of what it leaves at the edges: lists and boxes of links
 * ("You may also like", "More stories", read-more promos) that its conditional cleaning keeps when
 * they sit inside the chosen container. Works on the detached content, so its cost is the article's.
 */
export function tidyContent(content: DomElement): void {
  for (const element of selectAll(content, 'ul, ol, div, section, p, h2, h3, h4, table')) {
    if (element.parentElement === null) continue;
    const text = (element.textContent ?? '').trim().length;
    if (text === 0) continue;
    const linked = selectAll(element, 'a').reduce((sum, a) => sum + (a.textContent ?? '').trim().length, 0);
    if (linked / text <= maxLinkDensity) continue;
    if (selectAll(element, 'p').some((p) => (p.textContent ?? '').length > proseChars)) continue;
    element.remove();
  }
}
