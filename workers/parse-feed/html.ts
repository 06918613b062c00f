import { decodeHTML, escapeText } from 'entities';
import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { resolveUrl } from './urls.js';

export interface RenderedHtml {
  /** Sanitised, with relative href/src made absolute. */
  html: string;
  /** Tags removed, entities decoded, block boundaries as newlines, whitespace collapsed. */
  text: string;
  /** The first `<img src>` that survived sanitising, absolute. */
  firstImage: string | null;
}

/** Elements whose boundaries become line breaks in the text rendering. */
const blockElements = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'table', 'tr', 'ul',
]);

const allowedTags = [
  ...sanitizeHtml.defaults.allowedTags,
  'img', 'picture', 'source', 'video', 'audio', 'del', 'ins', 'figure', 'figcaption', 'center', 'font',
];

const allowedAttributes: sanitizeHtml.IOptions['allowedAttributes'] = {
  a: ['href', 'title', 'name'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  source: ['src', 'type', 'media'],
  video: ['src', 'poster', 'controls', 'width', 'height'],
  audio: ['src', 'controls'],
  td: ['colspan', 'rowspan', 'align'],
  th: ['colspan', 'rowspan', 'align', 'scope'],
  ol: ['start', 'type'],
  blockquote: ['cite'],
  q: ['cite'],
  abbr: ['title'],
};

const urlAttributes = ['href', 'src', 'poster', 'cite'];

/**
 * Sanitises item HTML and renders its text in one sanitize-html pass (one htmlparser2 parse):
 * the tag transform absolutises URLs and notes the first image, the text filter and open/close
 * hooks collect the text.
 */
export function renderHtml(html: string, base: string | undefined): RenderedHtml {
  if (html === '') return { html: '', text: '', firstImage: null };
  const textParts: string[] = [];
  let firstImage: string | null = null;
  const clean = sanitizeHtml(html, {
    allowedTags,
    allowedAttributes,
    allowedSchemes: ['http', 'https', 'mailto', 'tel', 'ftp'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      '*': (tagName, attribs) => {
        for (const name of urlAttributes) {
          const value = attribs[name];
          if (value !== undefined) attribs[name] = resolveUrl(value, base);
        }
        if (tagName === 'img') {
          const src = attribs['src'];
          // data: is allowed for images only, and only image types (sanitize-html checks the scheme, not the type).
          if (src !== undefined && /^data:/i.test(src) && !/^data:image\//i.test(src)) delete attribs['src'];
          else if (firstImage === null && src) firstImage = src;
        }
        return { tagName, attribs };
      },
    },
    onOpenTag: (name) => {
      if (blockElements.has(name)) textParts.push('\n');
    },
    onCloseTag: (name) => {
      if (blockElements.has(name)) textParts.push('\n');
    },
    textFilter: (text) => {
      textParts.push(text);
      return text;
    },
  });
  return { html: clean, text: collapseText(decodeHTML(textParts.join(''))), firstImage };
}

/** Plain text escaped for use as HTML, so a plain-text description survives sanitising as written. */
export function textAsHtml(text: string): string {
  return escapeText(text).replace(/\n/g, '<br>');
}

/** The text of an HTML fragment (for titles and names): tags removed, entities decoded, collapsed. */
export function htmlToText(html: string): string {
  if (html.indexOf('<') === -1 && html.indexOf('&') === -1) return collapseText(html);
  const parts: string[] = [];
  let skipDepth = 0;
  const parser = new Parser(
    {
      onopentagname: (name) => {
        if (name === 'script' || name === 'style') skipDepth++;
      },
      onclosetag: (name) => {
        if ((name === 'script' || name === 'style') && skipDepth > 0) skipDepth--;
        else if (blockElements.has(name)) parts.push('\n');
      },
      ontext: (text) => {
        if (skipDepth === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return collapseText(parts.join(''));
}

/**
 * Runs of spaces and tabs become one space, runs containing a line break become one line break,
 * and the ends are trimmed. One pass that copies whole words, since it runs on every description.
 */
export function collapseText(text: string): string {
  let out = '';
  let wordStart = -1;
  let gap = 0; // 0 none, 1 space, 2 line break
  for (let i = 0; i <= text.length; i++) {
    const code = i === text.length ? 10 : text.charCodeAt(i);
    const isSpace = code === 32 || code === 9 || code === 12 || code === 13 || code === 0xa0;
    if (isSpace || code === 10) {
      if (wordStart !== -1) {
        if (out !== '') out += gap === 2 ? '\n' : gap === 1 ? ' ' : '';
        out += text.slice(wordStart, i);
        wordStart = -1;
        gap = 0;
      }
      if (code === 10) gap = 2;
      else if (gap === 0) gap = 1;
    } else if (wordStart === -1) {
      if (out === '') gap = 0;
      wordStart = i;
    }
  }
  return out;
}
