import { parseHTML } from 'linkedom';

/**
 * The part of the DOM the extractor uses, typed here because the project compiles without the DOM
 * lib (workers run in Node, and nothing else of ours sees a DOM). linkedom implements all of it.
 */
export interface DomNode {
  /** 1 for an element, 3 for text. */
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  readonly localName: string;
  readonly parentElement: DomElement | null;
  readonly children: ArrayLike<DomElement>;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
  remove(): void;
  append(...nodes: DomElement[]): void;
}

export interface DomDocument {
  /** null for an empty document. */
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  createElement(name: string): DomElement;
}

/** A whole page as a linkedom document. */
export function parseDocument(html: string): DomDocument {
  // linkedom types its result with the DOM lib's Window, which this project does not load.
  return (parseHTML(html) as unknown as { document: DomDocument }).document;
}

/** Every element matching `selectors`; [] when the selector is one linkedom's engine (css-select) rejects. */
export function selectAll(root: DomDocument | DomElement, selectors: string): DomElement[] {
  try {
    return Array.from(root.querySelectorAll(selectors));
  } catch {
    return [];
  }
}
