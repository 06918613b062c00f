import { escapeUTF8 } from 'entities';

/** Markup that is already safe to send: only `html` and `joinHtml` make one. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: markup, text (escaped), numbers, lists of either, or nothing. */
export type Fragment = Html | string | number | null | undefined | false | readonly Fragment[];

function render(value: Fragment): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Fragment[]).map(render).join('');
  // Every text is escaped for element content and quoted attribute values alike (& < > " '), so a
  // template cannot forget which of the two it is writing into.
  return escapeUTF8(String(value));
}

/**
 * The one way pages are written: every interpolated value is escaped unless it is itself `Html`.
 * Attribute values must be quoted in the template (`href="${url}"`).
 */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}
