import { DecodingMode, decodeHTML } from 'entities';
import { innerXml, rawAttribute, type XmlNode } from './xml-tree.js';

// Characters XML 1.0 §2.2 forbids; feeds carry them anyway (form feeds, NULs, stray C0 bytes).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const invalidXmlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Decodes the five XML entities, numeric character references and HTML named entities (real
 * feeds use `&nbsp;` and `&eacute;` without declaring them). Strict mode: an entity needs its
 * `;`, so `?a=1&copy=2` in a URL stays as written. Unknown names such as DTD-declared entities
 * are left as written, never expanded.
 */
export function decodeXmlText(value: string): string {
  const decoded = value.indexOf('&') === -1 ? value : decodeHTML(value, DecodingMode.Strict);
  invalidXmlChars.lastIndex = 0;
  return invalidXmlChars.test(decoded) ? decoded.replace(invalidXmlChars, '') : decoded;
}

/** The text of a plainly parsed element: text decoded, CDATA literal, trimmed. */
export function elementText(node: XmlNode): string {
  const text = node.text === '' ? '' : decodeXmlText(node.text);
  return (node.cdata === '' ? text : text + node.cdata).trim();
}

/**
 * The text of an element meant to hold text only (`<guid>`, `<category>`) that carries markup
 * instead, as in `<category><p>News</p></category>`: its own text, else the text of its
 * descendants (the XPath string-value), parts joined by a space. Only elements without text of
 * their own are walked, so the common case costs nothing more than `elementText`.
 */
export function elementStringValue(node: XmlNode): string {
  const own = elementText(node);
  if (own !== '') return own;
  let value = '';
  for (const child of node.children) {
    const text = elementStringValue(child);
    if (text !== '') value = value === '' ? text : `${value} ${text}`;
  }
  return value;
}

/** An attribute's value, entities decoded, trimmed; `uri` for a namespaced one (`xml:base`). */
export function attribute(node: XmlNode, name: string, uri = ''): string | undefined {
  const value = rawAttribute(node, name, uri);
  return value === undefined ? undefined : decodeXmlText(value).trim();
}

/** Inner XML with CDATA sections unwrapped (taken literally) and everything else entity-decoded. */
export function unwrapCdata(raw: string): string {
  let start = raw.indexOf('<![CDATA[');
  if (start === -1) return decodeXmlText(raw);
  let result = '';
  let position = 0;
  while (start !== -1) {
    result += decodeXmlText(raw.slice(position, start));
    const end = raw.indexOf(']]>', start + 9);
    if (end === -1) {
      result += raw.slice(start + 9);
      return result;
    }
    result += raw.slice(start + 9, end);
    position = end + 3;
    start = raw.indexOf('<![CDATA[', position);
  }
  return result + decodeXmlText(raw.slice(position));
}

export interface TextValue {
  value: string;
  /** Whether `value` is HTML (to sanitise) rather than plain text (to escape). */
  html: boolean;
}

/**
 * An Atom text construct (RFC 4287 §3.1, Atom 0.3 `mode`), read the way gofeed's parseAtomText
 * reads it: CDATA unwrapped; `text` decoded; `html` decoded; `xhtml` markup kept without its
 * wrapping div; `mode="base64"` and binary types base64-decoded.
 */
export function atomText(child: XmlNode): TextValue {
  const raw = innerXml(child).trim();
  const type = (attribute(child, 'type') ?? '').toLowerCase();
  const mode = (attribute(child, 'mode') ?? '').toLowerCase();
  const htmlType = type === 'html' || type.includes('html');
  if (raw.includes('<![CDATA[')) return { value: unwrapCdata(raw).trim(), html: htmlType };
  // Base64 content is taken as HTML unless declared plain: it is how publishers ship escaped markup.
  if (mode === 'base64') return { value: decodeBase64(raw) ?? raw, html: type !== 'text' && type !== 'text/plain' };
  if (mode === 'xml' || type.includes('xhtml')) return { value: stripWrappingDiv(raw), html: true };
  if (mode === 'escaped' || type === 'html' || type === 'text/html')
    return { value: decodeXmlText(stripWrappingDiv(raw)).trim(), html: true };
  if (type === '' || type === 'text' || type.startsWith('text/')) {
    // Markup in a plain-text construct is taken as HTML, as every reader does.
    return { value: decodeXmlText(raw).trim(), html: raw.includes('<') };
  }
  const decoded = decodeBase64(raw);
  return decoded === undefined ? { value: decodeXmlText(raw).trim(), html: false } : { value: decoded, html: type !== 'text/plain' };
}

/** Markup written inline as XHTML (an RSS item's `xhtml:body`): kept as written; CDATA unwrapped as atomText does. */
export function inlineXhtml(child: XmlNode): TextValue {
  const raw = innerXml(child).trim();
  return { value: raw.includes('<![CDATA[') ? unwrapCdata(raw).trim() : raw, html: true };
}

/** An RSS text element read raw: CDATA unwrapped, entities decoded; HTML by convention. */
export function rssText(child: XmlNode): string {
  return unwrapCdata(innerXml(child)).trim();
}

/**
 * `rssText` as an HTML TextValue decoded on first read. A description beside `content:encoded`
 * is read only when the content is empty or has no image, and it is often the most
 * entity-dense element of an item (escaped HTML): decoding it up front was wasted work.
 */
export function deferredRssHtml(child: XmlNode): TextValue {
  let value: string | undefined;
  return {
    html: true,
    get value(): string {
      return (value ??= rssText(child));
    },
  };
}

/** `atomText` decoded on first read, for an Atom summary beside a content element. */
export function deferredAtomText(child: XmlNode): TextValue {
  let text: TextValue | undefined;
  return {
    get html(): boolean {
      return (text ??= atomText(child)).html;
    },
    get value(): string {
      return (text ??= atomText(child)).value;
    },
  };
}

function stripWrappingDiv(markup: string): string {
  if (!/^<(?:[\w-]+:)?div[\s>]/.test(markup)) return markup;
  const open = markup.indexOf('>');
  const close = markup.lastIndexOf('</');
  if (close <= open || !/^<\/(?:[\w-]+:)?div\s*>$/.test(markup.slice(close))) return markup;
  return markup.slice(open + 1, close).trim();
}

function decodeBase64(raw: string): string | undefined {
  const compact = raw.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  const decoded = Buffer.from(compact, 'base64').toString('utf8');
  // Plain words are often valid base64 too ("test"); bytes that are not UTF-8 mean it was not base64 after all.
  return decoded.includes('\uFFFD') ? undefined : decoded;
}
