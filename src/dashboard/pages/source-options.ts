import { allowedHeaderNames, type FetchOptionsSummary } from '../../domain/fetch-options.js';
import { html, type Html } from '../html.js';
import { input, select, textarea, type FieldError } from '../forms.js';
import { fetchInputs, type FetchOptionsForm, type SelectorsForm } from '../source-options-form.js';

/**
 * The fields that say how a page source is read — rendering, a person's selectors, fetch options —
 * shared by the add-feed form and a feed's settings (docs/rendering.md, docs/selectors.md,
 * docs/fetch-options.md).
 */

export const renderChoices = [
  { value: 'auto', label: 'Automatic: only when the page as served lists nothing' },
  { value: 'always', label: 'Always (needs a browser on the server)' },
  { value: 'never', label: 'Never' },
];

/** docs/rendering.md "What it costs" gives the numbers. */
const renderHint =
  'Rendering runs the page’s scripts in a browser on the server: about 2 seconds a page, with a browser holding several hundred MB, against a few milliseconds to read it as served. ' +
  'Automatic renders only a page that lists nothing as served, and only when the server has a browser. ' +
  'Always renders every read, and fails when the server has no browser. Never reads pages as served.';

export const renderField = (value: string, error: FieldError | undefined): Html =>
  select({ id: 'render', name: 'render', label: 'Render the page in a browser', options: renderChoices, value, error, hint: renderHint });

const refusedWithin = (error: FieldError | undefined, prefix: string): boolean => error?.field.startsWith(prefix) === true;

const selectorHints: Record<keyof SelectorsForm, { label: string; hint: string }> = {
  item: { label: 'Item', hint: 'Each item’s element, anywhere on the page, e.g. article or li.post. Needed when any selector is given.' },
  title: { label: 'Title', hint: 'Inside the item, e.g. h2 a. Default: the text of the item’s first link.' },
  link: {
    label: 'Link',
    hint: 'E.g. h2 a: its href, or that of its first link; @data-href reads the item’s own attribute. Default: the item’s first link.',
  },
  date: {
    label: 'Date',
    hint: 'E.g. time@datetime; a text such as 5 March 2024 is read as a date. Default: the item’s first time element.',
  },
  summary: { label: 'Summary', hint: 'The teaser, e.g. p.excerpt. Default: none.' },
  image: { label: 'Image', hint: 'E.g. img@data-src; an image’s src or srcset is read. Default: the item’s first image.' },
  author: { label: 'Author', hint: 'E.g. .byline. Default: none.' },
};

/**
 * The selector inputs in a disclosure, open when something is in them or one was refused. `extra`
 * goes inside it after the inputs (the settings form's buttons).
 */
export function selectorDetails(form: SelectorsForm, error: FieldError | undefined, extra: Html | string = ''): Html {
  const filled = Object.values(form).some((value) => value.trim() !== '');
  const open = filled || refusedWithin(error, 'selectors.');
  const fields = (Object.keys(selectorHints) as (keyof SelectorsForm)[]).map((field) =>
    input({
      id: `selector-${field}`,
      name: `selectors.${field}`,
      label: selectorHints[field].label,
      value: form[field],
      error,
      hint: selectorHints[field].hint,
    }),
  );
  return html`<details id="selectors"${open ? html` open` : ''}>
<summary>Choose the items yourself (CSS selectors)</summary>
<p class="hint">When the items found are the wrong parts of the page, name them with CSS selectors. The others are looked for inside each item, and any of them may end in @attribute to read that attribute instead of the text: for example Item <code>article</code>, Title <code>h2 a</code>, Date <code>time@datetime</code>. Given selectors alone decide the items: no feed the page links to is followed.</p>
${fields}${extra}
</details>`;
}

const headersHint = `One a line, written Name: value, e.g. X-Api-Key: k3y. Allowed: ${allowedHeaderNames.join(', ')}, and X-… headers.`;

/**
 * The fetch option inputs. The password input never holds a value: when one was typed and the form
 * comes back refused, the person is asked for it again.
 */
function fetchFields(form: FetchOptionsForm, error: FieldError | undefined): Html {
  const passwordHint = form.passwordTyped
    ? 'Type the password again: it is never sent back to this page.'
    : 'Sent with the user name as HTTP Basic authentication.';
  return html`${input({ id: 'fetch-user-agent', name: fetchInputs.userAgent, label: 'User agent', value: form.userAgent, error, hint: 'Replaces feedmill’s own User-Agent for this source.' })}
${textarea({ id: 'fetch-headers', name: fetchInputs.headers, label: 'Request headers', value: form.headers, error, hint: headersHint, rows: 3 })}
${input({ id: 'fetch-username', name: fetchInputs.username, label: 'Login user name', value: form.username, error, autocomplete: 'off' })}
${input({ id: 'fetch-password', name: fetchInputs.password, label: 'Login password', type: 'password', error, hint: passwordHint, autocomplete: 'new-password' })}`;
}

const fetchIntro =
  'For a source that answers only a request bringing a key, a cookie or a login. They are stored encrypted, sent only to the source’s own origin (scheme, host and port), and never shown again: only the header names are.';

export function fetchOptionsDetails(
  form: FetchOptionsForm,
  error: FieldError | undefined,
  open: boolean,
  before: Html | string = '',
  extra: Html | string = '',
): Html {
  const shown = open || refusedWithin(error, 'fetch.');
  return html`<details id="fetch-options"${shown ? html` open` : ''}>
<summary>Fetch options (user agent, headers, login)</summary>
<p class="hint">${fetchIntro}</p>
${before}${fetchFields(form, error)}${extra}
</details>`;
}

/** What the API reads back of a feed's fetch options: never a value, only what is set. */
export function storedFetchOptions(summary: FetchOptionsSummary | null): Html {
  if (summary === null) return html`<p id="fetch-stored">None stored.</p>`;
  const parts = [
    summary.userAgent === null ? null : html`user agent <code>${summary.userAgent}</code>`,
    summary.headerNames.length > 0
      ? html`headers ${summary.headerNames.map((name, index) => html`${index > 0 ? ', ' : ''}<code>${name}</code>`)} (values not shown)`
      : null,
    summary.basicAuth ? html`a login (not shown)` : null,
  ].filter((part): part is Html => part !== null);
  return html`<p id="fetch-stored">Stored: ${parts.map((part, index) => html`${index > 0 ? '; ' : ''}${part}`)}.</p>`;
}
