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
  replaceWith(...nodes: DomNode[]): void;
  append(...nodes: DomNode[]): void;
  prepend(...nodes: DomNode[]): void;
  /** Joins adjacent text nodes below this one and drops empty ones. */
  normalize(): void;
}

export interface DomDocument {
  /** null for an empty document. */
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  readonly childNodes: ArrayLike<DomNode>;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  createElement(name: string): DomElement;
}

/**
 * A whole page as a linkedom document. linkedom, unlike a browser, does not supply the `<html>`
 * and `<body>` a page leaves out: its first element becomes the root and the body is detached,
 * and Readability, climbing from a paragraph to the body, walks off the top. Such a page is
 * parsed again inside the two elements a browser would have made.
 */
export function parseDocument(html: string): DomDocument {
  const document = parse(html);
  const root = document.documentElement;
  if (root === null || (root.localName === 'html' && document.body?.parentElement === root)) return document;
  return parse(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`);
}

function parse(html: string): DomDocument {
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
