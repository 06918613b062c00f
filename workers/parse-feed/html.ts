import { DecodingMode, decodeHTML, escapeText } from 'entities';
import { Parser } from 'htmlparser2';
import { blockElements, sanitise } from './sanitise.js';

export interface RenderedHtml {
  /** Sanitised, with relative href/src made absolute. */
  html: string;
  /** Tags removed, entities decoded, block boundaries as newlines, whitespace collapsed. */
  text: string;
  /** The first `<img src>` that survived sanitising, absolute. */
  firstImage: string | null;
}

/**
 * Sanitises item HTML and renders its text in one htmlparser2 pass (see sanitise.ts for the
 * policy): URLs made absolute, the first image noted, the text collected as it is parsed.
 */
export function renderHtml(html: string, base: string | undefined): RenderedHtml {
  if (html === '') return { html: '', text: '', firstImage: null };
  const rendered = sanitise(html, base);
  return { html: rendered.html, text: collapseText(rendered.text), firstImage: rendered.firstImage };
}

/** Plain text escaped for use as HTML, so a plain-text description survives sanitising as written. */
export function textAsHtml(text: string): string {
  return escapeText(text).replace(/\n/g, '<br>');
}

/**
 * The text of an HTML fragment (for titles and names): tags removed, entities decoded, collapsed.
 * Entities are decoded in strict mode, as the XML text was (see decodeXmlText): an entity needs
 * its `;`, so `?page=1&copy=2` in a title stays as written instead of becoming `?page=1©=2`
 * (gofeed issue #320). htmlparser2's own decoding would apply HTML's legacy no-semicolon rule.
 */
export function htmlToText(html: string): string {
  if (html.indexOf('<') === -1 && html.indexOf('&') === -1) return collapseText(html);
  let text = '';
  let skipDepth = 0;
  const parser = new Parser(
    {
      onopentagname: (name) => {
        if (name === 'script' || name === 'style') skipDepth++;
      },
      onclosetag: (name) => {
        if ((name === 'script' || name === 'style') && skipDepth > 0) skipDepth--;
        else if (blockElements.has(name)) text += '\n';
      },
      ontext: (data) => {
        if (skipDepth === 0) text += data.indexOf('&') === -1 ? data : decodeHTML(data, DecodingMode.Strict);
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  return collapseText(text);
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
