import { parseDate } from '../shared/dates.js';

const month = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';

/**
 * Date shapes people write on pages, tried in this order on a short text: ISO (`2024-03-05`,
 * optionally with a time), month first (`March 5, 2024`), day first (`5 March 2024`), and
 * slashed year-first (`2024/03/05`). Day-month order of `05/03/2024` is ambiguous, so it is never read.
 */
const shapes: readonly RegExp[] = [
  /\b(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)(?![\d-])/,
  new RegExp(`\\b(${month}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4})\\b`, 'i'),
  new RegExp(`\\b(\\d{1,2}(?:st|nd|rd|th)?\\.?\\s+${month},?\\s+\\d{4})\\b`, 'i'),
  /\b(\d{4})\/(\d{2})\/(\d{2})\b/,
];

/** The first date written in `text`, as ISO 8601 UTC with ms, or null when there is none. */
export function findDateInText(text: string): string | null {
  for (const shape of shapes) {
    const match = shape.exec(text);
    if (match === null) continue;
    const candidate = match.length === 4 ? `${match[1]}-${match[2]}-${match[3]}` : (match[1] ?? '');
    const parsed = parseDate(candidate.replace(/(\d)\.(?=\s)/, '$1'));
    if (parsed !== null && plausible(parsed)) return parsed;
  }
  return null;
}

/** A published date before the web or far in the future is a number that looked like a date. */
function plausible(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  return year >= 1990 && year <= 2100;
}

/** A machine-readable date (`<time datetime>`, JSON-LD, meta), parsed strictly or falling back to the text shapes. */
export function parseStatedDate(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  return parseDate(value) ?? findDateInText(value);
}
