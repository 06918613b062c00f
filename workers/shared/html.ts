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
  if (html.indexOf('<') === -1 && html.indexOf('&') === -1) return collapseText(html);
  let text = '';
  let skipDepth = 0;
  const parser = withFlatStack(new Parser(
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
  ));
  parser.end(html);
  return collapseText(text);
}

// The whitespace collapseText folds: space, tab, form feed, carriage return and no-break space.
const lineBreakRun = /[ \t\f\r\u00a0]*\n[ \t\f\r\u00a0\n]*/g;
const spaceRun = /[ \t\f\r\u00a0]+/g;

/**
 * Runs of spaces and tabs become one space, runs containing a line break become one line break,
 * and the ends are trimmed. Two native replaces: they build one flat string, where a loop
 * appending word by word built a rope of hundreds of pieces per description for the GC.
 */
export function collapseText(text: string): string {
  const folded = text.replace(lineBreakRun, '\n').replace(spaceRun, ' ');
  let start = 0;
  let end = folded.length;
  if (start < end && isFolded(folded.charCodeAt(start))) start++;
  if (end > start && isFolded(folded.charCodeAt(end - 1))) end--;
  return start === 0 && end === folded.length ? folded : folded.slice(start, end);
}

function isFolded(code: number): boolean {
  return code === 32 || code === 10;
}
