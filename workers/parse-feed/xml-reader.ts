/**
 * An element as `readXmlTree` gives it: attributes under `@name` (strings, entities not yet
 * decoded), the text under `#text`, CDATA sections under `#cdata`, and every child element name
 * mapped to an array of its occurrences (a bare string when the child has neither attributes nor
 * children).
 */
export interface XmlElement {
  [key: string]: unknown;
}
export type XmlChild = string | XmlElement;

/**
 * Reads XML text into the element tree the feed readers walk, in one pass over the string.
 *
 * Why our own reader: the generic parser we used before (fast-xml-parser) appends text one
 * character at a time, builds an ordered node list and then a second, compressed copy of it, and
 * matches every tag against path expressions. That was most of the parse time on large feeds,
 * and the bench held us to a floor measured by that same parser. A feed needs much less: element
 * names, attributes as written, text, CDATA, and the raw inner markup of text constructs. Here each
 * of those is one `slice` between positions found with `indexOf`.
 *
 * What it accepts: well-formed XML and the usual damage in real feeds (a closing tag with the
 * wrong name closes the open element, text constructs included; elements left open at the end are
 * kept; unquoted attribute values). What it refuses, with an Error: a `<` that never closes, an unterminated comment, CDATA
 * section or processing instruction, a text construct with no closing tag, nesting deeper than
 * `maxDepth`, and a DOCTYPE that declares an external or parameter entity. No entity is ever
 * expanded: DTD declarations are skipped, and references stay in the text for the caller to decode.
 */

/** Deeper nesting is refused: feeds are shallow, and the readers recurse over the tree. */
const maxDepth = 100;

/**
 * Elements read raw: the way gofeed reads `innerxml`, so xhtml keeps its markup and CDATA/entity
 * layering is decoded by the readers.
 */
export const rawTextElements: ReadonlySet<string> = new Set([
  'title', 'subtitle', 'tagline', 'summary', 'content', 'description', 'rights', 'copyright', 'info',
  'content:encoded', 'atom:title', 'atom:summary', 'atom:content', 'atom:subtitle',
  'dc:title', 'dc:description', 'itunes:summary', 'itunes:subtitle', 'media:description', 'media:title',
  'rss:title', 'rss:description', 'body', 'xhtml:body',
]);

/** An element being read: its children so far, its text so far. */
interface Open {
  name: string;
  /** Created on the first attribute or child: most leaves never need an object. */
  element: XmlElement | undefined;
  text: string | undefined;
}

/**
 * The document as an element whose children are the top-level elements. Each element maps every
 * child name to the array of its occurrences; an attribute is `@name` (raw, untrimmed entities);
 * its text, trimmed and concatenated, is `#text`; CDATA sections are `#cdata` (an array). An
 * element with neither attributes nor children is its text as a bare string. Text constructs
 * (`rawTextElements`) hold their inner markup untrimmed as `#text`.
 */
export function readXmlTree(input: string): XmlElement {
  // XML 2.11: every line break is read as \n. One replace when the document has any \r at all.
  const xml = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
  const length = xml.length;
  const document: Open = { name: '', element: {}, text: undefined };
  const stack: Open[] = [];
  let current = document;
  let pending = '';
  let position = 0;
  // Per text-construct name, a position after which no `</name` appears at all. Without it, a
  // hostile document of many `<title>x</subtitle>` would rescan to its end for every one.
  const unclosedFrom = new Map<string, number>();

  while (position < length) {
    const lt = xml.indexOf('<', position);
    if (lt === -1) break; // trailing text after the last tag belongs to nothing
    if (lt > position) pending += xml.slice(position, lt);
    const next = xml.charCodeAt(lt + 1);

    if (next === 47 /* / */) {
      const gt = expect(xml.indexOf('>', lt + 2), 'a closing tag is not closed', xml, lt);
      current.text = withText(current.text, pending);
      pending = '';
      if (stack.length > 0) {
        const closed = current;
        current = stack.pop() ?? document;
        addChild(current, closed.name, finish(closed));
      }
      position = gt + 1;
    } else if (next === 33 /* ! */ && xml.startsWith('--', lt + 2)) {
      // Comments vanish without ending the text around them: "a<!-- x -->b" reads "ab".
      position = expect(xml.indexOf('-->', lt + 4), 'a comment is not closed', xml, lt) + 3;
    } else if (next === 33 && xml.startsWith('[CDATA[', lt + 2)) {
      const end = expect(xml.indexOf(']]>', lt + 9), 'a CDATA section is not closed', xml, lt);
      current.text = withText(current.text, pending);
      pending = '';
      addChild(current, '#cdata', xml.slice(lt + 9, end));
      position = end + 3;
    } else if (next === 33 && xml.startsWith('DOCTYPE', lt + 2)) {
      position = skipDoctype(xml, lt + 9);
    } else if (next === 63 /* ? */) {
      const end = expect(xml.indexOf('?>', lt + 2), 'a processing instruction is not closed', xml, lt);
      current.text = withText(current.text, pending);
      pending = '';
      position = end + 2;
    } else {
      const gt = expect(tagEnd(xml, lt + 1), 'a tag is not closed', xml, lt);
      const selfClosing = xml.charCodeAt(gt - 1) === 47 /* / */;
      const nameEnd = nameEndIn(xml, lt + 1, selfClosing ? gt - 1 : gt);
      const name = safeName(xml.slice(lt + 1, nameEnd));
      if (current !== document) {
        current.text = withText(current.text, pending);
      }
      pending = '';
      const opened: Open = { name, element: readAttributes(xml, nameEnd, selfClosing ? gt - 1 : gt), text: undefined };
      if (selfClosing) {
        addChild(current, name, finish(opened));
        position = gt + 1;
      } else if (rawTextElements.has(name)) {
        const hopeless = (unclosedFrom.get(name) ?? Infinity) <= gt + 1;
        let close = hopeless ? undefined : closingTagOf(xml, name, gt + 1);
        if (close === undefined) {
          if (!hopeless && !xml.includes(`</${name}`, gt + 1)) unclosedFrom.set(name, gt + 1);
          close = strayClosingTag(xml, gt + 1);
        }
        if (close === undefined) throw new Error(`Unexpected end of ${name}: no </${name}> closes it`);
        opened.text = xml.slice(gt + 1, close.start);
        addChild(current, name, finishRaw(opened));
        position = close.end;
      } else {
        if (stack.length >= maxDepth) throw new Error(`Elements nested deeper than ${maxDepth} levels`);
        stack.push(current);
        current = opened;
        position = gt + 1;
      }
    }
  }
  // Elements still open at the end are kept, innermost first, as a lenient reader would.
  while (stack.length > 0) {
    const closed = current;
    current = stack.pop() ?? document;
    addChild(current, closed.name, finish(closed));
  }
  return document.element ?? {};
}

function expect(index: number, problem: string, xml: string, at: number): number {
  if (index === -1) throw new Error(`${problem} (at "${xml.slice(at, at + 40).replace(/\s+/g, ' ')}")`);
  return index;
}

/** Text between tags, trimmed, added to what the element already has. */
function withText(text: string | undefined, raw: string): string | undefined {
  if (raw === '') return text;
  const trimmed = raw.trim();
  if (trimmed === '') return text;
  return text === undefined ? trimmed : text + trimmed;
}

function addChild(parent: Open, name: string, value: XmlChild): void {
  const element = (parent.element ??= {});
  // Own keys only: `<constructor>` or `<toString>` must not find Object.prototype's.
  const list = Object.hasOwn(element, name) ? (element[name] as XmlChild[]) : undefined;
  if (list === undefined) element[name] = [value];
  else list.push(value);
}

function finish(open: Open): XmlChild {
  if (open.element === undefined) return open.text ?? '';
  if (open.text !== undefined) open.element['#text'] = open.text;
  return open.element;
}

/** A raw element's inner markup is kept as written, whitespace included; empty means none. */
function finishRaw(open: Open): XmlChild {
  const text = open.text === '' ? undefined : open.text;
  if (open.element === undefined) return text ?? '';
  if (text !== undefined) open.element['#text'] = text;
  return open.element;
}

/** Names that would reach Object.prototype or collide with our own keys are renamed out of the way. */
function safeName(name: string): string {
  if (name === '__proto__' || name.charCodeAt(0) === 35 /* # */ || name.charCodeAt(0) === 64 /* @ */) return `#${name}`;
  return name;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
}

/** The `>` that ends a tag opened at `from`, skipping quoted attribute values; -1 when none. */
function tagEnd(xml: string, from: number): number {
  for (let i = from; i < xml.length; i++) {
    const code = xml.charCodeAt(i);
    if (code === 62 /* > */) return i;
    if (code === 34 /* " */ || code === 39 /* ' */) {
      const close = xml.indexOf(code === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close;
    }
  }
  return -1;
}

function nameEndIn(xml: string, from: number, end: number): number {
  let i = from;
  while (i < end && !isSpace(xml.charCodeAt(i))) i++;
  return i;
}

/**
 * Attributes between `from` and `end` as `@name` keys. Values are kept raw (entities undecoded)
 * and trimmed; a name with no value is `true`; an unquoted value runs to the next space.
 */
function readAttributes(xml: string, from: number, end: number): XmlElement | undefined {
  let element: XmlElement | undefined;
  let i = from;
  while (i < end) {
    while (i < end && isSpace(xml.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < end) {
      const code = xml.charCodeAt(i);
      if (code === 61 /* = */ || isSpace(code)) break;
      i++;
    }
    if (i === nameStart) {
      i++; // a stray "=": skip it
      continue;
    }
    const name = xml.slice(nameStart, i);
    let j = i;
    while (j < end && isSpace(xml.charCodeAt(j))) j++;
    let value: string | true = true;
    if (j < end && xml.charCodeAt(j) === 61) {
      j++;
      while (j < end && isSpace(xml.charCodeAt(j))) j++;
      const quote = xml.charCodeAt(j);
      if (quote === 34 || quote === 39) {
        // Bounded by the tag: an unmatched quote must not send a search to the end of the document.
        let valueEnd = j + 1;
        while (valueEnd < end && xml.charCodeAt(valueEnd) !== quote) valueEnd++;
        value = xml.slice(j + 1, valueEnd).trim();
        i = valueEnd + 1;
      } else {
        const valueStart = j;
        while (j < end && !isSpace(xml.charCodeAt(j))) j++;
        value = xml.slice(valueStart, j);
        i = j;
      }
    }
    (element ??= {})[`@${name}`] = value;
  }
  return element;
}

/**
 * Where the `</name>` that closes a raw element starts and ends, counting nested elements of the
 * same name and skipping comments, CDATA sections and processing instructions (a CDATA section
 * may well contain `</description>`).
 */
function closingTagOf(xml: string, name: string, from: number): { start: number; end: number } | undefined {
  let depth = 1;
  let position = from;
  for (;;) {
    const lt = xml.indexOf('<', position);
    if (lt === -1) return undefined;
    const next = xml.charCodeAt(lt + 1);
    const skipped = skippedEnd(xml, lt);
    if (next === 47 /* / */) {
      const gt = xml.indexOf('>', lt + 2);
      if (gt === -1) return undefined;
      if (namedAt(xml, name, lt + 2, gt) && --depth === 0) return { start: lt, end: gt + 1 };
      position = gt + 1;
    } else if (skipped !== undefined) {
      if (skipped === -1) return undefined;
      position = skipped;
    } else if (xml.startsWith(name, lt + 1)) {
      // A nested element of the same name. Its end is the next ">", quotes or not: a quote-aware
      // scan from every such "<" could run to the end of the document each time.
      const gt = xml.indexOf('>', lt + 1);
      if (gt === -1) return undefined;
      if (namedAt(xml, name, lt + 1, gt) && xml.charCodeAt(gt - 1) !== 47) depth++;
      position = gt + 1;
    } else {
      position = lt + 1; // any other tag is just text here, and so is a "<" that starts none
    }
  }
}

/**
 * For a text construct with no `</name>` at all, such as `<title>Title</subtitle>`: the first
 * closing tag that closes nothing opened inside it, which is how a lenient reader (Go's
 * encoding/xml with Strict off, gofeed's) ends it. Undefined when the inner markup never gets back
 * to its own level (unclosed `<br>`s, say): the document is then refused as before.
 */
function strayClosingTag(xml: string, from: number): { start: number; end: number } | undefined {
  let depth = 0;
  let position = from;
  for (;;) {
    const lt = xml.indexOf('<', position);
    if (lt === -1) return undefined;
    const next = xml.charCodeAt(lt + 1);
    const skipped = skippedEnd(xml, lt);
    let end: number;
    if (next === 47 /* / */) {
      end = xml.indexOf('>', lt + 2);
      if (end === -1) return undefined;
      if (depth === 0) return { start: lt, end: end + 1 };
      depth--;
      end += 1;
    } else if (skipped !== undefined) {
      end = skipped;
    } else {
      const gt = tagEnd(xml, lt + 1);
      if (gt === -1) return undefined;
      if (xml.charCodeAt(gt - 1) !== 47) depth++;
      end = gt + 1;
    }
    if (end === -1) return undefined; // an unterminated comment, CDATA section or instruction
    position = end;
  }
}

/**
 * Just after the comment, CDATA section or processing instruction that starts at `lt`: -1 when it
 * never ends, undefined when none starts there. Inside a text construct all three are skipped
 * whole (a CDATA section may well contain `</description>`).
 */
function skippedEnd(xml: string, lt: number): number | undefined {
  const next = xml.charCodeAt(lt + 1);
  if (next === 33 /* ! */ && xml.startsWith('--', lt + 2)) return after(xml.indexOf('-->', lt + 4), 3);
  if (next === 33 && xml.startsWith('[CDATA[', lt + 2)) return after(xml.indexOf(']]>', lt + 9), 3);
  if (next === 63 /* ? */) return after(xml.indexOf('?>', lt + 2), 2);
  return undefined;
}

function after(index: number, length: number): number {
  return index === -1 ? -1 : index + length;
}

/** Whether the tag text from `at` to `end` starts with exactly `name` (then space, `/` or the end). */
function namedAt(xml: string, name: string, at: number, end: number): boolean {
  if (!xml.startsWith(name, at)) return false;
  const after = at + name.length;
  if (after === end) return true;
  const code = xml.charCodeAt(after);
  return isSpace(code) || code === 47;
}

/**
 * Skips a DOCTYPE declaration whose body starts at `from` and returns the position after it.
 * Internal entity declarations are skipped, never expanded; an external (SYSTEM/PUBLIC) or a
 * parameter entity declaration is refused, so no file or URL is ever read on a document's behalf.
 */
function skipDoctype(xml: string, from: number): number {
  let i = from;
  let inSubset = false;
  while (i < xml.length) {
    const code = xml.charCodeAt(i);
    if (code === 34 || code === 39) {
      const close = xml.indexOf(code === 34 ? '"' : "'", i + 1);
      if (close === -1) break;
      i = close + 1;
    } else if (code === 91 /* [ */) {
      inSubset = true;
      i++;
    } else if (code === 93 /* ] */) {
      inSubset = false;
      i++;
    } else if (code === 62 /* > */ && !inSubset) {
      return i + 1;
    } else if (code === 60 /* < */ && inSubset) {
      if (xml.startsWith('<!--', i)) {
        const end = xml.indexOf('-->', i + 4);
        if (end === -1) break;
        i = end + 3;
        continue;
      }
      if (xml.startsWith('<!ENTITY', i)) refuseUnsafeEntity(xml, i + 8);
      const end = tagEnd(xml, i + 1);
      if (end === -1) break;
      i = end + 1;
    } else {
      i++;
    }
  }
  throw new Error('Unclosed DOCTYPE');
}

function refuseUnsafeEntity(xml: string, from: number): void {
  let i = from;
  while (isSpace(xml.charCodeAt(i))) i++;
  if (xml.charCodeAt(i) === 37 /* % */) throw new Error('Parameter entities are not supported');
  while (i < xml.length && !isSpace(xml.charCodeAt(i)) && xml.charCodeAt(i) !== 62) i++;
  while (isSpace(xml.charCodeAt(i))) i++;
  const keyword = xml.slice(i, i + 6).toUpperCase();
  if (keyword === 'SYSTEM' || keyword === 'PUBLIC') throw new Error('External entities are not supported');
}
