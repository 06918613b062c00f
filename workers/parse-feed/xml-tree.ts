import { XMLParser } from 'fast-xml-parser';

/**
 * An element as fast-xml-parser gives it with our options: attributes under `@name` (strings,
 * entities not yet decoded), the text under `#text`, CDATA sections under `#cdata`, and every
 * child element name mapped to an array of its occurrences (a bare string when the child has
 * neither attributes nor children).
 */
export interface XmlElement {
  [key: string]: unknown;
}
export type XmlChild = string | XmlElement;

/**
 * Elements whose inner markup we read raw, the way gofeed reads `innerxml`: Atom text constructs
 * (type="xhtml" keeps its markup, type="html" and CDATA are decoded by us), RSS titles and
 * descriptions that carry unescaped HTML, and content:encoded.
 */
const rawTextElements = [
  'title', 'subtitle', 'tagline', 'summary', 'content', 'description', 'rights', 'copyright', 'info',
  'content:encoded', 'atom:title', 'atom:summary', 'atom:content', 'atom:subtitle',
  'dc:title', 'dc:description', 'itunes:summary', 'itunes:subtitle', 'media:description', 'media:title',
  'rss:title', 'rss:description', 'body', 'xhtml:body',
];

// Options, and why:
// - processEntities/htmlEntities false: no DTD entity is ever expanded (billion laughs, XXE);
//   we decode the five XML entities, character references and HTML named entities ourselves
//   with `entities` in strict mode, outside CDATA only.
// - parseTagValue/parseAttributeValue false: "0123" ids and "1.0" versions stay strings.
// - cdataPropName: CDATA stays apart from text, so its content is taken literally.
// - isArray for every element: one shape to walk, however many times a child occurs.
// - jPath false: callbacks get a matcher, not a freshly joined path string per node.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  cdataPropName: '#cdata',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  allowBooleanAttributes: true,
  removeNSPrefix: false,
  stopNodes: rawTextElements.map((name) => `..${name}`),
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
  jPath: false,
});

/** The document element: its (raw) name and the element. Throws on XML fast-xml-parser rejects. */
export function parseXml(text: string): { name: string; element: XmlElement } | undefined {
  const document = parser.parse(text) as XmlElement;
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
