import { DecodingMode, decodeHTML, escapeText } from 'entities';
import { Parser } from 'htmlparser2';
import { withFlatStack } from './parser-stack.js';
import { blockElements, localName, sanitise } from './sanitise.js';

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
  // Without a `<` the tokenizer reports the whole fragment as one text: only its entities to decode
  // (titles such as `Q&amp;A &#8211; 3` are the common case, and a parser per title was most of their cost).
  if (html.indexOf('<') === -1) return collapseText(html.indexOf('&') === -1 ? html : decodeHTML(html, DecodingMode.Strict));
  let text = '';
  let skipDepth = 0;
  const parser = withFlatStack(
    new Parser(
      {
        onopentagname: (qualifiedName) => {
          const name = localName(qualifiedName);
          if (name === 'script' || name === 'style') skipDepth++;
        },
        onclosetag: (qualifiedName) => {
          const name = localName(qualifiedName);
          if ((name === 'script' || name === 'style') && skipDepth > 0) skipDepth--;
          else if (blockElements.has(name)) text += '\n';
        },
        ontext: (data) => {
          if (skipDepth === 0) text += data.indexOf('&') === -1 ? data : decodeHTML(data, DecodingMode.Strict);
        },
      },
      { decodeEntities: false },
    ),
  );
  parser.end(html);
  return collapseText(text);
}

/**
 * Runs of whitespace (space, tab, form feed, carriage return, no-break space, line feed) become
 * one space, or one line break when the run holds one, and the ends are trimmed. One pass that
 * copies the text between runs only where a run changes: most item text is words with single
 * spaces and single line breaks, and comes back as it is, without a copy. (Two regex replaces
 * over the whole text were 7% of a parse: their classes have no literal to skip to, so the
 * engine tried a match at every character.)
 */
export function collapseText(text: string): string {
  const length = text.length;
  let start = 0;
  while (start < length && isCollapsible(text.charCodeAt(start))) start++;
  let out = '';
  // Text from `copied` up to the current run is kept as written; it is copied when a run changes.
  let copied = start;
  for (let i = start; i < length; i++) {
    const code = text.charCodeAt(i);
    if (!isCollapsible(code)) continue;
    let end = i + 1;
    let lineBreak = code === 10;
    for (; end < length; end++) {
      const next = text.charCodeAt(end);
      if (!isCollapsible(next)) break;
      if (next === 10) lineBreak = true;
    }
    if (end === length) {
      // A trailing run is trimmed.
      return out + text.slice(copied, i);
    }
    if (end - i !== 1 || code !== (lineBreak ? 10 : 32)) {
      out += text.slice(copied, i) + (lineBreak ? '\n' : ' ');
      copied = end;
    }
    i = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isCollapsible(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 160;
}
