import type { CreateFeedInput } from '../app/create-feed.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedCandidate } from '../domain/platforms/feed-candidate.js';
import { parseRenderMode } from '../domain/render-mode.js';
import { fieldErrorOf, type FieldError } from './forms.js';
import type { ListedItem } from './pages/items.js';
import { fieldOf, type FormBody } from './request.js';
import {
  fetchOptionsFormFrom,
  fetchOptionsOf,
  hasFetchOptions,
  hasSelectors,
  selectorsFormFrom,
  selectorsOf,
  sourceOptionInputs,
  type FetchOptionsForm,
  type SelectorsForm,
} from './source-options-form.js';

/** The add-feed forms (by address, by keyword) as typed, with what Preview found. */
export interface AddFeedForm {
  url?: string;
  keyword?: string;
  region?: string;
  error?: FieldError;
  /** Items read from `url` (or the keyword) without saving anything. */
  preview?: { title: string; items: readonly ListedItem[] };
  /** The feeds found at `url` (GET /v1/discover's), offered to pick from. */
  candidates?: readonly FeedCandidate[];
  /** The candidate picked; none: the first with items is followed. */
  chosen?: string;
  /** How the page at `url` is read, as typed (absent: the defaults). */
  render?: string;
  selectors?: SelectorsForm;
  fetch?: FetchOptionsForm;
}

/** The form as posted; the keyword form is the one that sends `keyword`. Never throws: nothing typed is lost. */
export function addFeedFormFrom(body: FormBody): AddFeedForm {
  if (body.keyword !== undefined) return { keyword: fieldOf(body, 'keyword'), region: fieldOf(body, 'region') };
  const chosen = fieldOf(body, 'candidate');
  return {
    url: fieldOf(body, 'url'),
    ...(chosen ? { chosen } : {}),
    render: fieldOf(body, 'render'),
    selectors: selectorsFormFrom(body),
    fetch: fetchOptionsFormFrom(body),
  };
}

/** Whether the address alone was given: no selectors and no fetch options, so discovery's candidates apply. */
export const isPlainAddress = (form: AddFeedForm): boolean =>
  !(form.selectors && hasSelectors(form.selectors)) && !(form.fetch && hasFetchOptions(form.fetch));

/**
 * The create (or preview) the form asks for, as `POST /v1/feeds` would take it; the use case checks
 * it. A candidate picked from Preview's list is read from its own address, unless selectors name
 * the items of the page typed.
 * @throws FeedmillError `validation_failed` for what only the form can get wrong (a header line without a colon, a `render` not offered)
 */
export function addFeedInputOf(form: AddFeedForm, password: string): CreateFeedInput {
  if (form.url === undefined) return { keyword: form.keyword ?? '', region: form.region ?? '' };
  const selectors = form.selectors ? selectorsOf(form.selectors) : null;
  const fetch = form.fetch ? fetchOptionsOf(form.fetch, password) : null;
  return {
    url: (!selectors && form.chosen) || form.url,
    ...(selectors ? { selectors } : {}),
    ...(fetch ? { fetch } : {}),
    ...(form.render ? { render: parseRenderMode(form.render) } : {}),
  };
}

/**
 * Where a refusal of the form is shown: beside the field it names, else beside the input the failure
 * concerns — a missing browser beside `render`, selectors that match nothing beside `item` — else
 * beside the address (a source that cannot be read).
 */
export function addFeedRefusal(error: unknown, form: AddFeedForm): FieldError {
  if (form.url === undefined) return fieldErrorOf(error, 'keyword', { region: 'region' });
  const code = error instanceof FeedmillError ? error.code : undefined;
  const selected = form.selectors !== undefined && hasSelectors(form.selectors);
  const fallback = code === 'render_unavailable' ? 'render' : code === 'no_items_found' && selected ? 'selectors.item' : 'url';
  return fieldErrorOf(error, fallback, sourceOptionInputs);
}
