import type { PageElement } from './dom.js';
import type { PageLink } from './links.js';

/** A run of repeated blocks: the elements that each hold one article, in page order. */
export interface BlockGroup {
  items: PageElement[];
}

/**
 * Lists rarely nest links deeper than this below the element the items share; a group that has
 * not met by then is scattered links that happen to share a tag path (or a pathological page).
 */
const maxClimb = 24;

/**
 * Finds repeated blocks from the links: links with the same tag path are one candidate list. Each
 * link's block is its highest ancestor that holds no other link of the list, so a card with a
 * title, an image and a "read more" link is one block, and a grid of rows of cards is one list.
 */
export function findBlockGroups(links: PageLink[]): BlockGroup[] {
  const byPath = new Map<number, PageLink[]>();
  for (const link of links) {
    const same = byPath.get(link.path);
    if (same === undefined) byPath.set(link.path, [link]);
    else same.push(link);
  }
  const groups: BlockGroup[] = [];
  const seen = new Set<string>();
  for (const members of byPath.values()) {
    // A card often links its picture and its text separately to one article: one member, not two.
    const distinct = members.filter((link, i) => i === 0 || members[i - 1]?.url !== link.url);
    if (distinct.length < 2) continue;
    addLists(groups, seen, distinct);
    // Sibling links of one item ("abs", "pdf", "other" in one span) share a path too: the first
    // of each parent stands for its item.
    const firsts = distinct.filter((link, i) => i === 0 || distinct[i - 1]?.element.parent !== link.element.parent);
    if (firsts.length >= 2 && firsts.length < distinct.length) addLists(groups, seen, firsts);
  }
  return groups;
}

function addLists(groups: BlockGroup[], seen: Set<string>, members: readonly PageLink[]): void {
  for (const items of splitIntoLists(blockRoots(members.map((link) => link.element)))) {
    const key = items.map((item) => item.order).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push({ items });
  }
}

/** Each element's highest ancestor not shared with another element of the list (all at one depth). */
function blockRoots(elements: PageElement[]): PageElement[] {
  let level: PageElement[] = elements;
  const roots = elements.slice();
  const settled = new Array<boolean>(elements.length).fill(false);
  for (let climb = 0; climb < maxClimb; climb++) {
    const next: PageElement[] = [];
    const counts = new Map<PageElement, number>();
    for (const element of level) {
      const parent = element.parent ?? element;
      next.push(parent);
      counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
    let open = 0;
    for (let i = 0; i < next.length; i++) {
      if (settled[i]) continue;
      const parent = next[i] as PageElement;
      if ((counts.get(parent) ?? 0) > 1 || parent.parent === null) settled[i] = true;
      else {
        roots[i] = parent;
        open++;
      }
    }
    if (open === 0) break;
    level = next;
  }
  return roots;
}

/**
 * Blocks with one parent form one list. Parents that are alike siblings (the rows of a grid: same
 * tag, same class) join into one list; unlike parents (a main list and a sidebar list) stay apart.
 */
function splitIntoLists(roots: PageElement[]): PageElement[][] {
  const lists = new Map<string | PageElement, PageElement[]>();
  const rowCounts = new Map<string, number>();
  for (const root of roots) {
    const parent = root.parent;
    if (parent === null) continue;
    const key = rowKey(parent, rowCounts) ?? parent;
    const list = lists.get(key);
    if (list === undefined) lists.set(key, [root]);
    else if (list[list.length - 1] !== root) list.push(root);
  }
  return [...lists.values()].filter((list) => list.length >= 2);
}

/** How far a list's container may climb to find alike siblings: a grid's rows sit a few wrappers down. */
const maxRowClimb = 4;

/**
 * A key shared by lists that are alike siblings (the rows of a grid, or repeated sections each
 * holding one run of cards), or null when `parent` has none (then it is its own list). Climbs a
 * few wrappers, since each row is often nested in its own section.
 */
function rowKey(parent: PageElement, rowCounts: Map<string, number>): string | null {
  let element = parent;
  for (let climb = 0; climb < maxRowClimb; climb++) {
    const grand = element.parent;
    if (grand === null || element.name === 'body' || element.name === 'main') return null;
    const signature = `${element.name}.${element.attribs['class'] ?? ''}`;
    const key = `${grand.order}:${signature}`;
    let count = rowCounts.get(key);
    if (count === undefined) {
      count = 0;
      for (const child of grand.children) {
        if (child.kind === 'element' && child.name === element.name && (child.attribs['class'] ?? '') === (element.attribs['class'] ?? ''))
          count++;
      }
      rowCounts.set(key, count);
    }
    if (count > 1) return key;
    element = grand;
  }
  return null;
}
