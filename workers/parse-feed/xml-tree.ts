import { readXmlTree, type XmlChild, type XmlElement } from './xml-reader.js';

export type { XmlChild, XmlElement };

/** The document element: its (raw) name and the element. Throws on XML `readXmlTree` refuses. */
export function parseXml(text: string): { name: string; element: XmlElement } | undefined {
  const document = readXmlTree(text);
  for (const key of Object.keys(document)) {
    if (key.startsWith('@') || key.startsWith('#')) continue;
    const value = document[key];
    const first = Array.isArray(value) ? (value[0] as XmlChild | undefined) : undefined;
    if (first === undefined) continue;
    return { name: key, element: typeof first === 'string' ? { '#text': first } : first };
  }
  return undefined;
}

export function asElement(child: XmlChild): XmlElement {
  return typeof child === 'string' ? { '#text': child } : child;
}

/** The children of an element: every key that is not an attribute or text. */
export function childEntries(element: XmlElement): [string, XmlChild[]][] {
  const entries: [string, XmlChild[]][] = [];
  for (const key in element) {
    const first = key.charCodeAt(0);
    if (first === 64 /* @ */ || first === 35 /* # */) continue;
    const value = element[key];
    if (Array.isArray(value)) entries.push([key, value as XmlChild[]]);
  }
  return entries;
}

/** An attribute value, entities decoded, or undefined. */
export function attr(child: XmlChild, name: string, decode: (s: string) => string): string | undefined {
  if (typeof child === 'string') return undefined;
  const value = child[`@${name}`];
  return typeof value === 'string' ? decode(value) : undefined;
}

/**
 * Moves `children` to the end of `target`, emptying the parsed tree's array: the tree no longer
 * holds the items, so each one can be collected as soon as `readEach` has read it (on a 10 MB
 * feed the tree and the finished items are otherwise alive together).
 */
export function moveInto(target: XmlChild[], children: XmlChild[]): void {
  for (const child of children) target.push(child);
  children.length = 0;
}

/** `nodes.map(read)`, dropping each node once read so the GC can reclaim it during the loop. */
export function readEach<T>(nodes: (XmlChild | undefined)[], read: (node: XmlChild) => T): T[] {
  const results: T[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node === undefined) continue;
    nodes[i] = undefined;
    results.push(read(node));
  }
  return results;
}
