import { ScanningTokenizer } from '../shared/scanning-tokenizer.js';
import { conventionalNamespaces, xmlNamespace, xmlnsNamespace } from './namespaces.js';
import { maxXmlDepth } from '../../src/domain/xml-depth.js';

/**
 * An element of the document, its name resolved to a namespace URI. Attribute values and text are
 * kept as written (entities undecoded: the readers decode them, HTML named entities included);
 * `innerStart`/`innerEnd` delimit the element's inner markup in `source`, so a format reader can
 * take any element raw (`innerXml`) without the tree knowing which ones it will want.
 */
export interface XmlNode {
  /** The namespace URI; '' when the element is in no namespace. */
  uri: string;
  local: string;
  /** The qualified name as written, for messages. */
  name: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  /** Text runs, each trimmed, concatenated; undecoded. */
  text: string;
  /** CDATA sections, concatenated, taken literally. */
  cdata: string;
  source: string;
  innerStart: number;
  innerEnd: number;
}

export interface XmlAttribute {
  uri: string;
  local: string;
  value: string;
}

/** Deeper nesting is refused (the one rule for XML we read): feeds are shallow, and the readers recurse over the tree. */
const maxDepth = maxXmlDepth;

/** Prefix → URI bindings in scope, chained to the enclosing element's. */
interface Scope {
  parent: Scope | undefined;
  defaultUri: string | undefined;
  prefixes: Map<string, string> | undefined;
}

const rootScope: Scope = {
  parent: undefined,
  defaultUri: undefined,
  prefixes: new Map([
    ['xml', xmlNamespace],
    ['xmlns', xmlnsNamespace],
  ]),
};

/**
 * Shared by every element without attributes or children (most leaves of a feed): one object per
 * element instead of three. Frozen, so no code can fill the shared one by mistake.
 */
const noAttributes: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
const noChildren: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

/**
 * Reads a document into a tree of namespace-resolved elements. htmlparser2's Tokenizer (XML mode,
 * entities left alone) does the tokenizing; this file only builds the tree, and is lenient where
 * real feeds are broken: a document cut off at the end keeps what was read, a closing tag closes
 * the open element of its name (and the ones inside it), a closing tag that matches nothing closes
 * the current element (`<title>…</subtitle>`, as gofeed reads it), an undeclared prefix resolves
 * to the namespace it conventionally names (`dc:`, `content:`, `media:`…).
 *
 * `unnested` names elements that never contain one of their own name (an RSS `item`): one
 * opened directly inside another closes it first, as HTML closes a `<p>` at the next `<p>`, so an
 * element left unclosed does not swallow its siblings.
 *
 * `strayNamespace` may set aside the default namespace the document element declares (see
 * StrayNamespaceRule): `<rss xmlns="…">` written by mistake.
 *
 * What it refuses, with an Error: nesting deeper than `maxDepth`, and a DOCTYPE that declares an
 * external or parameter entity. No entity is ever expanded: declarations are skipped, references
 * stay in the text.
 * @returns the document element, or undefined when the document has none.
 */
export function parseXml(
  input: string,
  onClose?: CloseHook,
  unnested?: ReadonlySet<string>,
  strayNamespace?: StrayNamespaceRule,
): XmlNode | undefined {
  // XML 2.11: every line break is read as \n. One replace when the document has any \r at all.
  const source = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
  const builder = new TreeBuilder(source, onClose, unnested, strayNamespace);
  const tokenizer = new ScanningTokenizer({ xmlMode: true, decodeEntities: false }, builder);
  tokenizer.write(source);
  tokenizer.end();
  return builder.root;
}

const noText = '';

/**
 * Told of each element as it closes (complete: children, text and `innerEnd` set), with its
 * parent and the document element, while the rest of the document is still to come. A format
 * reader uses it to read an item the moment it is whole and then `release` it, so a 10 MB feed
 * never holds the tree of every item at once: each item's elements die young, in the GC's
 * cheapest generation, instead of being promoted and copied with the whole tree.
 */
export type CloseHook = (node: XmlNode, parent: XmlNode, root: XmlNode) => void;

/**
 * Whether the default namespace an unprefixed document element declares (`local`, `uri`) is a slip
 * to read past: then the document's unprefixed elements are in no namespace, as if it had declared
 * none. Asked once, of the document element, before any element is resolved, so a CloseHook sees
 * the elements as the readers will.
 */
export type StrayNamespaceRule = (local: string, uri: string) => boolean;

/** Elements of HTML markup that feeds put unescaped inside their text elements. */
const htmlEndTags: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'b',
  'big',
  'blockquote',
  'br',
  'center',
  'code',
  'div',
  'em',
  'font',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'tr',
  'u',
  'ul',
]);

class TreeBuilder {
  root: XmlNode | undefined;
  private readonly stack: XmlNode[] = [];
  private readonly scopes: Scope[] = [];
  private tagName = '';
  /** The open tag's attributes as written: names and values side by side, reused from tag to tag. */
  private readonly attributeNames: string[] = [];
  private readonly attributeValues: string[] = [];
  private attributeValue = '';
  /** The run of text being read: its element, where it started and ended, the element's text before it. */
  private textNode: XmlNode | undefined;
  private textStart = 0;
  private textEnd = -1;
  private textBefore = '';
  /** Set once the root element has closed: anything after it belongs to nothing. */
  private done = false;

  /** Where the open tag's `<` is: the inner end of an element it closes (see `unnested`). */
  private tagStart = 0;

  constructor(
    private readonly source: string,
    private readonly onClose: CloseHook | undefined,
    private readonly unnested: ReadonlySet<string> | undefined,
    private readonly strayNamespace: StrayNamespaceRule | undefined,
  ) {}

  onopentagname(start: number, end: number): void {
    this.tagStart = start - 1;
    this.tagName = this.source.slice(start, end);
    if (this.attributeNames.length > 0) {
      this.attributeNames.length = 0;
      this.attributeValues.length = 0;
    }
  }

  onattribname(start: number, end: number): void {
    this.attributeNames.push(this.source.slice(start, end));
    this.attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    this.attributeValue += this.source.slice(start, end);
  }

  onattribend(): void {
    this.attributeValues.push(this.attributeValue.trim());
  }

  onattribentity(): void {
    // Entities are not decoded by the tokenizer (decodeEntities: false): never called.
  }

  onopentagend(end: number): void {
    this.open(end + 1, false);
  }

  onselfclosingtag(end: number): void {
    this.open(end + 1, true);
  }

  onclosetag(start: number, end: number): void {
    if (this.stack.length === 0) return;
    const tagStart = this.source.lastIndexOf('<', start);
    // Compared in place: nearly every closing tag matches the open element, and slicing its name
    // out first was a string per element for nothing.
    const length = end - start;
    let match = this.stack.length - 1;
    while (match >= 0) {
      const open = (this.stack[match] as XmlNode).name;
      if (open.length === length && this.source.startsWith(open, start)) break;
      match--;
    }
    if (match === -1) {
      // A stray HTML end tag in unescaped markup is ignored, as HTML parsers ignore it; any other
      // closing tag that matches nothing closes the current element, as libxml2 recovers.
      if (htmlEndTags.has(this.source.slice(start, end).toLowerCase())) return;
      match = this.stack.length - 1;
    }
    while (this.stack.length > match) this.close(tagStart);
  }

  ontext(start: number, end: number): void {
    const current = this.stack[this.stack.length - 1];
    if (current === undefined) {
      // Before the root, text is what the tokenizer made of a DOCTYPE's internal subset.
      if (this.root === undefined) refuseUnsafeEntities(this.source.slice(start, end));
      return;
    }
    // The tokenizer may report one run of text in pieces (at a `<` that starts no tag): a piece
    // that continues the last one is joined to it before trimming, so `a < b` keeps its spaces.
    if (start !== this.textEnd || current !== this.textNode) {
      this.textNode = current;
      this.textBefore = current.text;
      this.textStart = start;
    }
    this.textEnd = end;
    const run = this.source.slice(this.textStart, end).trim();
    current.text = run === '' ? this.textBefore : this.textBefore + run;
  }

  ontextentity(): void {
    // Not called with decodeEntities: false.
  }

  /** `end - offset` is the end of the section's content (`offset` counts the `]]` of its `]]>`). */
  oncdata(start: number, end: number, offset: number): void {
    const current = this.stack[this.stack.length - 1];
    if (current !== undefined) current.cdata += this.source.slice(start, end - offset);
  }

  oncomment(): void {}

  onprocessinginstruction(): void {}

  ondeclaration(start: number, end: number): void {
    if (this.root === undefined) refuseUnsafeEntities(this.source.slice(start, end));
  }

  onend(): void {
    // Elements still open at the end are kept, as a lenient reader would.
    while (this.stack.length > 0) this.close(this.source.length);
  }

  private open(innerStart: number, selfClosing: boolean): void {
    if (this.done) return;
    if (this.opensSibling()) this.close(this.tagStart);
    const parent = this.stack[this.stack.length - 1];
    const parentScope = this.scopes[this.scopes.length - 1] ?? rootScope;
    const names = this.attributeNames;
    const scope = names.length === 0 ? parentScope : declaredScope(names, this.attributeValues, parentScope);
    const qname = this.tagName;
    const colon = qname.indexOf(':');
    // The document element's scope is its own (the parent's is rootScope, which declares no default).
    if (parent === undefined && colon <= 0 && scope.defaultUri && this.strayNamespace?.(qname, scope.defaultUri)) scope.defaultUri = '';
    const node: XmlNode = {
      uri: colon <= 0 ? defaultUri(scope) : prefixUri(qname.slice(0, colon), scope),
      local: safeName(colon <= 0 ? qname : qname.slice(colon + 1)),
      name: qname,
      attributes: names.length === 0 ? noAttributes : resolveAttributes(names, this.attributeValues, scope),
      children: noChildren,
      text: noText,
      cdata: '',
      source: this.source,
      innerStart,
      innerEnd: innerStart,
    };
    if (parent === undefined) this.root = node;
    else if (parent.children === noChildren) parent.children = [node];
    else parent.children.push(node);
    if (selfClosing) {
      if (parent === undefined) this.done = true;
      return;
    }
    if (this.stack.length >= maxDepth) throw new Error(`Elements nested deeper than ${maxDepth} levels`);
    this.stack.push(node);
    this.scopes.push(scope);
  }

  /** Whether the tag being opened is one of `unnested` inside another of its name (any case): then it is that one's sibling. */
  private opensSibling(): boolean {
    const open = this.stack[this.stack.length - 1];
    if (open === undefined || this.unnested === undefined || this.stack.length < 2 || open.name.length !== this.tagName.length)
      return false;
    return open.name.toLowerCase() === this.tagName.toLowerCase() && this.unnested.has(open.local.toLowerCase());
  }

  private close(innerEnd: number): void {
    const node = this.stack.pop();
    this.scopes.pop();
    if (node === undefined) return;
    node.innerEnd = Math.max(node.innerStart, innerEnd);
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) this.done = true;
    else if (this.onClose !== undefined && this.root !== undefined) this.onClose(node, parent, this.root);
  }
}

/**
 * The tokenizer knows no DTD syntax: a DOCTYPE's internal subset reaches us as declarations and
 * text cut at each `>`. Any `ENTITY` declaration in those pieces that is a parameter entity or
 * names an external resource refuses the document; no entity is ever expanded either way.
 */
function refuseUnsafeEntities(piece: string): void {
  if (!/ENTITY/i.test(piece)) return;
  for (const match of piece.matchAll(/(?:^|<!|\s)ENTITY\s+(%)?\s*[^\s%]+\s+(SYSTEM|PUBLIC)?/gi)) {
    if (match[1] !== undefined) throw new Error('Parameter entities are not supported');
    if (match[2] !== undefined) throw new Error('External entities are not supported');
  }
}

/** The scope an element's own `xmlns` attributes make; the parent's when it declares none. */
function declaredScope(names: string[], values: string[], parent: Scope): Scope {
  let scope: Scope | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (!name.startsWith('xmlns')) continue;
    const value = values[i] ?? '';
    if (name === 'xmlns') (scope ??= { parent, defaultUri: undefined, prefixes: undefined }).defaultUri = value;
    else if (name.charCodeAt(5) === 58 /* : */)
      ((scope ??= { parent, defaultUri: undefined, prefixes: undefined }).prefixes ??= new Map()).set(name.slice(6), value);
  }
  return scope ?? parent;
}

function defaultUri(scope: Scope | undefined): string {
  for (let s = scope; s !== undefined; s = s.parent) if (s.defaultUri !== undefined) return s.defaultUri;
  return '';
}

/**
 * The namespace a prefix is bound to. An undeclared prefix resolves to the namespace it
 * conventionally names (feeds use `dc:` or `content:` without declaring them), else to a URI of
 * its own that no reader matches.
 */
function prefixUri(prefix: string, scope: Scope | undefined): string {
  for (let s = scope; s !== undefined; s = s.parent) {
    const uri = s.prefixes?.get(prefix);
    if (uri !== undefined) return uri;
  }
  return conventionalNamespaces.get(prefix.toLowerCase()) ?? `urn:feedmill:undeclared-prefix:${prefix}`;
}

/** Attributes with their names resolved: unprefixed ones are in no namespace; declarations are left out. */
function resolveAttributes(names: string[], values: string[], scope: Scope): XmlAttribute[] {
  const resolved: XmlAttribute[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const value = values[i] ?? '';
    const colon = name.indexOf(':');
    if (colon <= 0 || colon === name.length - 1) resolved.push({ uri: '', local: name, value });
    else resolved.push({ uri: prefixUri(name.slice(0, colon), scope), local: name.slice(colon + 1), value });
  }
  return resolved.length === 0 ? noAttributes : resolved;
}

/** Names are compared, never used as object keys; `__proto__` is renamed all the same, so no later code can be tempted. */
function safeName(name: string): string {
  return name === '__proto__' ? '#__proto__' : name;
}

/** An attribute's raw value (entities undecoded), or undefined. */
export function rawAttribute(node: XmlNode, local: string, uri = ''): string | undefined {
  for (const attribute of node.attributes) if (attribute.local === local && attribute.uri === uri) return attribute.value;
  return undefined;
}

/** The element's inner markup as written: what gofeed calls `innerxml`. */
export function innerXml(node: XmlNode): string {
  return node.source.slice(node.innerStart, node.innerEnd);
}

/**
 * Empties `node.children` into `target`: the tree no longer holds the items, so each one can be
 * collected as soon as `readEach` has read it (on a 10 MB feed the tree and the finished items are
 * otherwise alive together).
 */
export function moveInto(target: XmlNode[], children: XmlNode[]): void {
  for (const child of children) target.push(child);
  children.length = 0;
}

/**
 * Lets go of everything an element holds once a reader has read it whole (see CloseHook): the
 * node stays in its parent, in its place, with its name, so the document's order is kept.
 */
export function release(node: XmlNode): void {
  node.children = noChildren;
  node.attributes = noAttributes;
  node.text = noText;
  node.cdata = '';
}

/** An element's inner markup as the document wrote it (line breaks normalised). */
export const innerSource = (node: XmlNode): string => node.source.slice(node.innerStart, node.innerEnd);

/** Lets go of an element's children once a reader has taken what it needs from them. */
export function releaseChildren(node: XmlNode): void {
  node.children = noChildren;
}

/** `nodes.map(read)`, dropping each node once read so the GC can reclaim it during the loop. */
export function readEach<T>(nodes: (XmlNode | undefined)[], read: (node: XmlNode) => T): T[] {
  const results: T[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node === undefined) continue;
    nodes[i] = undefined;
    results.push(read(node));
  }
  return results;
}
