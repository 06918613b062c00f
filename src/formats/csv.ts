import type { RenderableFeed, RenderableItem } from './rss.js';

/** The CSV columns, in order; docs/hosted-outputs.md lists them with their meaning. */
export const csvColumns = ['id', 'title', 'url', 'date_published', 'authors', 'categories', 'enclosures', 'content_html'] as const;

/**
 * OWASP "CSV injection": a spreadsheet runs a field that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula, and titles come from the sources. Not only a cell's start is a
 * field's start: a spreadsheet that splits on `;` or a tab (a locale's CSV, a paste), or that
 * ignores our quotes, starts a field after any `,`, `;`, tab or line break inside a cell, perhaps
 * after spaces and a quote. An apostrophe goes before the character at every such start, which
 * makes that field text whichever way the line is split (so `a;=1+1` is written `a;'=1+1`).
 */
const formulaAtFieldStart = /(?<=(?:^|[,;\t\r\n]) *"?)(?=[=+\-@\t\r])/g;

/** RFC 4180 §2: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function field(text: string): string {
  const safe = text.replace(formulaAtFieldStart, "'");
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

// Several values in one cell are joined with "; ", which no feed value needs to be told apart from.
const row = (item: RenderableItem): string =>
  [
    item.key,
    item.title,
    item.url,
    item.date_published,
    item.authors.map((author) => author.name).join('; '),
    item.categories.join('; '),
    item.enclosures.map((enclosure) => enclosure.url).join('; '),
    item.description_html,
  ]
    .map(field)
    .join(',');

/**
 * One row per item under a header row, CRLF line ends (RFC 4180 §2), UTF-8. A tiny quoting
 * function rather than a library: no CSV library is among the dependencies, and writing (unlike
 * parsing) CSV is this one rule.
 */
export function renderCsv(feed: RenderableFeed): string {
  return [csvColumns.join(','), ...feed.items.map(row)].map((line) => `${line}\r\n`).join('');
}
