import { DecodingMode, decodeHTML, decodeHTMLAttribute } from 'entities';
import { Parser } from 'htmlparser2';
import { safeUrl } from '../../src/domain/safe-url.js';
import { withFlatStack } from './parser-stack.js';
import { ScanningTokenizer } from './scanning-tokenizer.js';
import { resolveUrl } from './urls.js';

/**
 * The item-HTML policy, applied in one htmlparser2 pass that writes the sanitised HTML, the text
 * rendering and the first image together. It reproduces what sanitize-html did with our options
 * (same parser, same escaping, same `discard` mode, same output spelling) at a fraction of the
 * cost: no per-tag frames, no option lookups, one pass per fragment.
 *
 * Guarantees (test/workers/parse-feed-safety.test.ts, parse-feed-sanitise.test.ts):
 * - only `allowedTags` are written, only with their `allowedAttributes`; so no script, style,
 *   iframe, object, embed, form, svg, and no `on*` or `style` attribute;
 * - the text inside script, style, textarea, option, xmp, iframe, noembed and noframes is
 *   dropped; other disallowed tags are dropped and their text kept;
 * - URL attributes (href, src, poster, cite) are resolved against the base and kept only when
 *   `safeUrl` (src/domain/safe-url.ts, the one rule for every URL that leaves feedmill) allows
 *   them: http(s), and mailto: on `<a href>`; relative URLs with no base, `javascript:`, `data:`
 *   and every other scheme, however spelled, are dropped with their attribute. `srcset` is not
 *   an allowed attribute at all;
 * - text is escaped (`& < >`), attribute values too (`& < > "`);
 * - elements nested deeper than `maxHtmlDepth` are flattened to their text: no tag past that depth
 *   is written, so neither the output nor a reader's tree of it nests without bound.
 */
export interface Rendered {
  html: string;
  text: string;
  firstImage: string | null;
}

/** The elements kept: sanitize-html's defaults and those established feed sanitisers (feedparser, html5lib) keep. */
export const allowedTags: ReadonlySet<string> = new Set([
  // sanitize-html's defaults.allowedTags (2.17)…
  'address',
  'article',
  'aside',
  'footer',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hgroup',
  'main',
  'nav',
  'section',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'hr',
  'li',
  'menu',
  'ol',
  'p',
  'pre',
  'ul',
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'caption',
  'col',
  'colgroup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  // …and the media and legacy formatting feeds use.
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'del',
  'ins',
  'center',
  'font',
  'big',
  'tt',
  'strike',
  'acronym',
]);

/** Kept on every allowed element: they change how text reads (language, direction, a tooltip), never what runs. */
const globalAttributes = ['title', 'lang', 'dir'];
const cellAttributes = ['colspan', 'rowspan', 'align', 'valign', 'width', 'height', 'abbr'];

/**
 * Per element, the attributes kept besides `globalAttributes`: the presentational ones feed
 * sanitisers keep (feedparser's acceptable_attributes), so tables and images keep their layout.
 * No `style`, no `class`, no `on*`, no `srcset`.
 */
const attributesByTag: Record<string, readonly string[]> = {
  a: ['href', 'name'],
  img: ['src', 'alt', 'width', 'height', 'align', 'border', 'hspace', 'vspace'],
  source: ['src', 'type', 'media'],
  video: ['src', 'poster', 'controls', 'width', 'height'],
  audio: ['src', 'controls'],
  table: ['align', 'border', 'width', 'cellpadding', 'cellspacing', 'summary'],
  td: cellAttributes,
  th: [...cellAttributes, 'scope'],
  tr: ['align', 'valign'],
  col: ['span', 'width', 'align', 'valign'],
  colgroup: ['span', 'width', 'align', 'valign'],
  ol: ['start', 'type'],
  ul: ['type'],
  li: ['value'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite', 'datetime'],
  ins: ['cite', 'datetime'],
  time: ['datetime'],
  font: ['color', 'face', 'size'],
  hr: ['align', 'width', 'size'],
  p: ['align'],
  div: ['align'],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  caption: ['align'],
};

/** Every allowed element's allowed attributes: the policy, exported for the sanitize-html oracle test. */
export const allowedAttributes: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  [...allowedTags].map((tag) => [tag, new Set([...globalAttributes, ...(attributesByTag[tag] ?? [])])]),
);

const urlAttributes = new Set(['href', 'src', 'poster', 'cite']);
/** Attributes that are meaningless when empty (the HTML attribute index); an empty one is dropped. `alt=""` is kept. */
const nonBooleanAttributes = new Set([
  'href',
  'title',
  'name',
  'src',
  'width',
  'height',
  'type',
  'media',
  'poster',
  'colspan',
  'rowspan',
  'scope',
  'start',
  'cite',
  'lang',
  'dir',
  'abbr',
  'span',
  'datetime',
  'color',
  'size',
  'value',
]);
/** Written as `<img ... />`, with no closing tag. */
const selfClosing = new Set(['img', 'br', 'hr']);
/**
 * Disallowed tags whose text is dropped with them. htmlparser2 12 reads iframe, noembed and noframes
 * as raw text, as HTML does: their content is markup a browser never shows, and kept it would reach
 * the reader as escaped tags (`<iframe/><p>…` opens an iframe that runs to the fragment's end).
 */
export const nonTextTags: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'option', 'xmp', 'iframe', 'noembed', 'noframes']);
/**
 * Elements whose boundaries separate words: line breaks in the text rendering of item HTML, and
 * word boundaries in a page's visible text (extract-page/walk.ts). Table cells count, so two cells
 * never read as one word.
 */
export const blockElements = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
/**
 * Item HTML deeper than this is flattened to its text. Real descriptions nest a few levels (a
 * table in a figure in a div); 100 matches the XML readers' own limit (maxXmlDepth in src/domain/xml-depth.ts).
 */
export const maxHtmlDepth = 100;

/** What the handler needs to know of an allowed element, found with one lookup per tag. */
interface TagPolicy {
  attributes: ReadonlySet<string>;
  block: boolean;
  selfClosing: boolean;
}

/**
 * The policy above by element, in a Map: the handler asks for every tag of every item, and a
 * lookup in an object of 80 keys by a name fresh from the parser (`attribs` of `allowedAttributes`
 * is a dictionary lookup that first interns the name) was a third of the handler's time.
 */
const policies: ReadonlyMap<string, TagPolicy> = new Map(
  [...allowedTags].map((tag) => [
    tag,
    { attributes: allowedAttributes[tag] as ReadonlySet<string>, block: blockElements.has(tag), selfClosing: selfClosing.has(tag) },
  ]),
);

/**
 * The htmlparser2 handler. A fresh parser per fragment: htmlparser2 10.1's `reset()` leaves the
 * tokenizer inside a raw-text element (`<script>` never closed) when the previous fragment ended
 * there, so the next item's markup would be read as script text.
 */
class Sanitiser {
  html = '';
  text = '';
  firstImage: string | null = null;
  /** For each open element, whether its tags were written. */
  private readonly written: boolean[] = [];
  /** Depth inside a dropped script/style/textarea/option/xmp; text and tags there are skipped. */
  private skipDepth = 0;
  /**
   * Whether `text` ends in a line break: a run of block boundaries adds one, not one per tag
   * (collapseText would fold them anyway), so 100k nested divs do not build a 200k-piece string.
   */
  private atLineBreak = false;

  constructor(private readonly base: string | undefined) {}

  onopentag(qualifiedName: string, attribs: Record<string, string>): void {
    const name = localName(qualifiedName);
    const policy = policies.get(name);
    // Every block element is an allowed one.
    if (policy?.block === true) this.lineBreak();
    if (this.skipDepth > 0) {
      this.skipDepth++;
      return;
    }
    if (policy === undefined) {
      this.written.push(false);
      if (nonTextTags.has(name)) this.skipDepth = 1;
      return;
    }
    if (this.written.length >= maxHtmlDepth) {
      this.written.push(false);
      return;
    }
    this.written.push(true);
    let html = `<${name}`;
    const allowed = policy.attributes;
    for (const key in attribs) {
      // Every allowed name is a valid attribute name: the allow-list is also the syntax check.
      if (!allowed.has(key)) continue;
      const raw = attribs[key] as string;
      let value = raw.indexOf('&') === -1 ? raw : decodeHTMLAttribute(raw);
      if (urlAttributes.has(key)) {
        const safe = safeUrl(resolveUrl(value, this.base), undefined, name === 'a' && key === 'href' ? 'link' : 'resource');
        if (safe === null) continue;
        value = safe;
        if (this.firstImage === null && name === 'img' && key === 'src') this.firstImage = value;
      }
      if (value === '') {
        if (key === 'alt') html += ' alt=""';
        else if (!nonBooleanAttributes.has(key)) html += ` ${key}`;
      } else {
        html += ` ${key}="${escapeAttribute(value)}"`;
      }
    }
    this.html += policy.selfClosing ? `${html} />` : `${html}>`;
  }

  ontext(raw: string): void {
    if (this.skipDepth > 0) return;
    const data = raw.indexOf('&') === -1 ? raw : decodeHTML(raw, DecodingMode.Legacy);
    this.html += escapeText(data);
    this.text += data;
    if (data !== '') this.atLineBreak = false;
  }

  onclosetag(qualifiedName: string): void {
    const name = localName(qualifiedName);
    const policy = policies.get(name);
    if (policy?.block === true) this.lineBreak();
    if (this.skipDepth > 0 && --this.skipDepth > 0) return;
    if (this.written.pop() === true && policy?.selfClosing === false) this.html += `</${name}>`;
  }

  private lineBreak(): void {
    if (this.atLineBreak) return;
    this.text += '\n';
    this.atLineBreak = true;
  }
}

/**
 * An element name without its prefix: markup a feed carries raw keeps the prefixes the document
 * chose (`<xhtml:div>`, or `<a:p>` in an Atom feed bound to `a:`), and which prefix was chosen must
 * not change what is kept. Allow-lists are applied to the local name, so `<x:script>` is a script.
 */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** Sanitised HTML, its decoded text (block boundaries as `\n`, not yet collapsed) and the first surviving `<img src>`. */
export function sanitise(fragment: string, base: string | undefined): Rendered {
  const handler = new Sanitiser(base);
  // htmlparser2's own open-element stack is O(depth) per tag (see parser-stack.ts): 100k nested
  // elements cost seconds without the flat one, whatever this handler writes.
  // Entities are decoded here, not by the tokenizer: with decodeEntities the tokenizer visits every
  // character of text one state-machine step at a time, without it it skips to the next `<`, and
  // text was most of the sanitiser's cost. The modes are the tokenizer's own: legacy for text (the
  // only raw-text element whose text is kept, `<title>`, decodes as text does), attribute mode
  // for attribute values.
  withFlatStack(new Parser(handler, { decodeEntities: false, Tokenizer: ScanningTokenizer }), fragment).end(fragment);
  return { html: handler.html, text: handler.text, firstImage: handler.firstImage };
}

const textSpecial = /[&<>]/;
const attributeSpecial = /[&<>"]/;

function escapeText(value: string): string {
  if (!textSpecial.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  if (!attributeSpecial.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
