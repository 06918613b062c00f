import { DecodingMode, decodeHTML, escapeText } from 'entities';
import { Parser } from 'htmlparser2';
import { withFlatStack } from './parser-stack.js';
import { ScanningTokenizer } from './scanning-tokenizer.js';
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
 * The text of an HTML fragment (for titles and names): tags removed, entities decoded, collapsed,
 * a no-break space kept where it stands inside (the writer's choice: `10&nbsp;km`, `M.&nbsp;Dupont`;
 * comparisons read it as a space, see src/domain/comparable-text.ts).
 * Entities are decoded in strict mode, as the XML text was (see decodeXmlText): an entity needs
 * its `;`, so `?page=1&copy=2` in a title stays as written instead of becoming `?page=1©=2`
 * (gofeed issue #320). htmlparser2's own decoding would apply HTML's legacy no-semicolon rule.
 */
export function htmlToText(html: string): string {
  // Without a `<` the tokenizer reports the whole fragment as one text: only its entities to decode
  // (titles such as `Q&amp;A &#8211; 3` are the common case, and a parser per title was most of their cost).
  if (html.indexOf('<') === -1) return collapseText(html.indexOf('&') === -1 ? html : decodeHTML(html, DecodingMode.Strict), 'keep');
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
      { decodeEntities: false, Tokenizer: ScanningTokenizer },
    ),
    html,
  );
  parser.end(html);
  return collapseText(text, 'keep');
}

/** A run that is not already one space or one line break: two or more whitespace characters, or one that is neither. */
const nonCanonicalRun = /[ \t\n\r\f\u00a0]{2,}|[\t\r\f\u00a0]/g;
/** The same, the no-break space not counted as whitespace. */
const nonCanonicalRunKeepingNoBreak = /[ \t\n\r\f]{2,}|[\t\r\f]/g;

/**
 * Runs of whitespace (space, tab, form feed, carriage return, no-break space, line feed) become
 * one space, or one line break when the run holds one, and the ends are trimmed. With `noBreak`
 * `keep`, a no-break space inside the text is text (titles keep it), and only the ends are
 * trimmed of it. Most item text
 * is words with single spaces and single line breaks, so the regex skips to the runs that change
 * (in native code), and the text between is copied only where one does: half the cost of the
 * character loop this replaced, which in turn had replaced two whole-text regex replaces.
 */
export function collapseText(text: string, noBreak: 'fold' | 'keep' = 'fold'): string {
  let start = 0;
  let end = text.length;
  while (start < end && isCollapsible(text.charCodeAt(start))) start++;
  while (end > start && isCollapsible(text.charCodeAt(end - 1))) end--;
  const runs = noBreak === 'fold' ? nonCanonicalRun : nonCanonicalRunKeepingNoBreak;
  // Trimmed first, so no run the regex finds before `end` reaches past it.
  runs.lastIndex = start;
  let out = '';
  let copied = start;
  for (let run = runs.exec(text); run !== null && run.index < end; run = runs.exec(text)) {
    out += text.slice(copied, run.index) + (run[0].indexOf('\n') === -1 ? ' ' : '\n');
    copied = run.index + run[0].length;
  }
  if (copied !== start) return out + text.slice(copied, end);
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isCollapsible(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 160;
}
