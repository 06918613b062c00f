import { fieldRefusal } from '../domain/errors.js';
import { expectedMessage } from '../domain/field-message.js';
import { itemFieldSelectors, type ItemFieldSelector, type PageSelectors } from '../domain/page-selectors.js';
import { fieldOf, type FormBody } from './request.js';

/**
 * How a page source is read, as a person typed it into a form: the add-feed form and a feed's
 * settings share it. Each input is named as the API names its field (`selectors.item`,
 * `fetch.user_agent`), so a refusal's `details.field` finds its input without a second table.
 */

/** Every selector field as typed; empty: not given. */
export type SelectorsForm = Record<'item' | ItemFieldSelector, string>;

/** The fetch options as typed. The password is not kept: a page never sends it back. */
export interface FetchOptionsForm {
  userAgent: string;
  /** One `Name: value` a line. */
  headers: string;
  username: string;
  /** Whether a password was typed, so the page can ask for it again. */
  passwordTyped: boolean;
}

export const selectorFields = ['item', ...itemFieldSelectors] as const;

export const noFetchOptionsForm: FetchOptionsForm = { userAgent: '', headers: '', username: '', passwordTyped: false };

export const fetchInputs = {
  userAgent: 'fetch.user_agent',
  headers: 'fetch.headers',
  username: 'fetch.basic_auth.username',
  password: 'fetch.basic_auth.password',
} as const;

/** The API's fields → the inputs that show their refusals (`fetch.headers.Host` lies inside `fetch.headers`). */
export const sourceOptionInputs: Readonly<Record<string, string>> = {
  render: 'render',
  ...Object.fromEntries(selectorFields.map((field) => [`selectors.${field}`, `selectors.${field}`])),
  // A refusal of the whole object can only be of `item`: the form sends no other shape.
  selectors: 'selectors.item',
  [fetchInputs.userAgent]: fetchInputs.userAgent,
  [fetchInputs.headers]: fetchInputs.headers,
  [fetchInputs.username]: fetchInputs.username,
  [fetchInputs.password]: fetchInputs.password,
  // `fetch.basic_auth` itself is refused only for a missing part, which the user name input names.
  'fetch.basic_auth': fetchInputs.username,
};

export const selectorsFormFrom = (body: FormBody): SelectorsForm =>
  Object.fromEntries(selectorFields.map((field) => [field, fieldOf(body, `selectors.${field}`)])) as SelectorsForm;

export const fetchOptionsFormFrom = (body: FormBody): FetchOptionsForm => ({
  userAgent: fieldOf(body, fetchInputs.userAgent),
  headers: fieldOf(body, fetchInputs.headers),
  username: fieldOf(body, fetchInputs.username),
  passwordTyped: fieldOf(body, fetchInputs.password) !== '',
});

/** The password typed: passed to the use case, never kept in a form. */
export const passwordOf = (body: FormBody): string => fieldOf(body, fetchInputs.password);

/** Whether any selector was typed. */
export const hasSelectors = (form: SelectorsForm): boolean => selectorFields.some((field) => form[field].trim() !== '');

export const selectorsFormOf = (selectors: PageSelectors | null): SelectorsForm =>
  Object.fromEntries(selectorFields.map((field) => [field, selectors?.[field] ?? ''])) as SelectorsForm;

/**
 * The selectors for the use case, which checks them as the API does: the fields typed (an empty
 * `item` among others is sent, so it is refused by name), or null when none was.
 */
export function selectorsOf(form: SelectorsForm): PageSelectors | null {
  if (!hasSelectors(form)) return null;
  const selectors: PageSelectors = { item: form.item.trim() };
  for (const field of itemFieldSelectors) {
    const text = form[field].trim();
    if (text !== '') selectors[field] = text;
  }
  return selectors;
}

/** `Name: value` lines as the API's list of headers; blank lines are skipped. */
function headerList(text: string): { name: string; value: string }[] {
  const lines = text.split(/\r?\n/);
  return lines.flatMap((line, index) => {
    if (line.trim() === '') return [];
    const colon = line.indexOf(':');
    if (colon < 1) {
      // The line is not repeated: it may hold a secret.
      throw fieldRefusal(
        fetchInputs.headers,
        expectedMessage(fetchInputs.headers, 'one header a line, written `Name: value`', {
          said: `line ${index + 1} without a name and a colon`,
        }),
      );
    }
    return [{ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() }];
  });
}

/**
 * The fetch options for the use case (REST spelling), which checks them as the API does; null when
 * nothing was typed. A user name or a password alone still sends `basic_auth`, so the missing part
 * is refused by name rather than the login dropped.
 */
export function fetchOptionsOf(form: FetchOptionsForm, password: string): Record<string, unknown> | null {
  const headers = headerList(form.headers);
  const userAgent = form.userAgent.trim();
  const options: Record<string, unknown> = {
    ...(userAgent ? { user_agent: userAgent } : {}),
    ...(headers.length > 0 ? { headers } : {}),
    ...(form.username !== '' || password !== '' ? { basic_auth: { username: form.username, password } } : {}),
  };
  return Object.keys(options).length === 0 ? null : options;
}

/** Whether anything was typed into the fetch options. */
export const hasFetchOptions = (form: FetchOptionsForm): boolean =>
  form.userAgent.trim() !== '' || form.headers.trim() !== '' || form.username !== '' || form.passwordTyped;
