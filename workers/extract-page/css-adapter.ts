import type { Options } from 'css-select';
import type { PageElement, PageNode } from './dom.js';
import { textOf } from './walk.js';

/**
 * css-select's view of our page tree (dom.ts): the engine walks any tree through an adapter, so
 * a person's selectors run over the DOM the extractor already built, with no second parse. The
 * synthetic `#document` root is hidden: `<html>` has no parent element, so `:root` matches it.
 */
export const pageAdapter: NonNullable<Options<PageNode, PageElement>['adapter']> = {
  isTag: (node): node is PageElement => node.kind === 'element' && node.name !== '#document',
  getAttributeValue: (element, name) => element.attribs[name],
  getChildren: (node) => (node.kind === 'element' ? node.children : []),
  getName: (element) => element.name,
  getParent: (node) => parentOf(node),
  getSiblings: (node) => parentOf(node)?.children ?? [node],
  getText: (node) => (node.kind === 'text' ? node.text : textOf(node)),
  hasAttrib: (element, name) => Object.hasOwn(element.attribs, name),
  removeSubsets,
};

/** The nodes without duplicates and without any whose ancestor is also there, in the order given. */
function removeSubsets(nodes: PageNode[]): PageNode[] {
  const kept = new Set(nodes);
  return nodes.filter((node) => {
    for (let parent = node.parent; parent !== null; parent = parent.parent) if (kept.has(parent)) return false;
    return true;
  });
}

function parentOf(node: PageNode): PageElement | null {
  return node.parent === null || node.parent.name === '#document' ? null : node.parent;
}
