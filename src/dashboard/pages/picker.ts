import { itemFieldSelectors, type PageSelectors } from '../../domain/page-selectors.js';
import type { Assets } from '../assets.js';
import { formAlert, input, select, type FieldError } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import { renderChoices } from './source-options.js';
import { itemList, type ListedItem } from './items.js';

/** The selector inputs, named as the API names the fields, each with what it reads when left empty. */
const selectorInputs: readonly { name: keyof PageSelectors; label: string; hint: string }[] = [
  { name: 'item', label: 'Item', hint: 'The element of each item: click a title in the page to fill it.' },
  { name: 'title', label: 'Title', hint: 'Inside the item; empty: the text of its first link.' },
  { name: 'link', label: 'Link', hint: 'Empty: the href of the title’s link, else of the item’s first link.' },
  { name: 'date', label: 'Date', hint: 'Empty: the item’s first <time>. End with @attribute to read one.' },
  { name: 'summary', label: 'Summary', hint: 'The teaser, if the page has one.' },
  { name: 'image', label: 'Image', hint: 'Empty: the item’s first image.' },
  { name: 'author', label: 'Author', hint: '' },
];

export type SelectorForm = Record<keyof PageSelectors, string>;
export const emptySelectorForm: SelectorForm = { item: '', title: '', link: '', date: '', summary: '', image: '', author: '' };

/** The selectors as typed, for the use cases to check: empty fields left out, `item` always there (empty: refused as missing). */
export function selectorsOf(form: SelectorForm): PageSelectors {
  const given: PageSelectors = { item: form.item.trim() };
  for (const name of itemFieldSelectors) if (form[name].trim() !== '') given[name] = form[name].trim();
  return given;
}

export interface PickerView {
  viewer: Viewer;
  url: string;
  /** Where the frame reads the snapshot; absent when the page could not be read. */
  snapshotPath?: string;
  token?: string;
  render: string;
  /** The page was rendered to list its items: a feed from it renders it too. */
  rendered?: boolean;
  selectors: SelectorForm;
  error?: FieldError;
  /** What the selectors gave, when the form was sent without the script's live list. */
  items?: readonly ListedItem[];
}

const modes = [
  { value: 'title', label: 'Title (and the items)' },
  { value: 'date', label: 'Date' },
  { value: 'image', label: 'Image' },
];

/** Which field a click in the page sets; the script reads it, and without the script it does nothing. */
function modeSwitch(): Html {
  const options = modes.map(
    (mode, index) =>
      html`<div class="choice"><input type="radio" id="pick-mode-${mode.value}" name="pick_mode" value="${mode.value}"${index === 0 ? html` checked` : ''}><label for="pick-mode-${mode.value}">${mode.label}</label></div>`,
  );
  return html`<fieldset id="pick-modes" hidden><legend>A click in the page sets</legend>${options}</fieldset>`;
}

/** The live region's line: the number first, as it is read out. */
export const countLine = (count: number): string => `${count} item${count === 1 ? '' : 's'} match.`;

function status(view: PickerView): Html {
  const count = view.items?.length;
  const text =
    count !== undefined
      ? countLine(count)
      : view.selectors.item
        ? ''
        : 'Click the title of one item in the page (or tab to it and press Enter), or type the selectors.';
  return html`<p id="pick-status" role="status" aria-live="polite">${text}</p>`;
}

function selectorForm(view: PickerView): Html {
  const error = view.error;
  const fields = selectorInputs.map((field) =>
    input({
      id: `pick-${field.name}`,
      name: field.name,
      label: field.label,
      value: view.selectors[field.name],
      error,
      ...(field.hint ? { hint: field.hint } : {}),
    }),
  );
  const wholeError =
    error && !['url', 'render', ...selectorInputs.map((field) => field.name)].includes(error.field) ? formAlert(error.message) : '';
  return html`<form class="panel" id="pick-form" method="post" action="/dashboard/feeds/pick" aria-label="Selectors">
${csrfField(view.viewer)}
<input type="hidden" name="token" value="${view.token ?? ''}">
${input({ id: 'pick-url', name: 'url', label: 'Page address', type: 'url', value: view.url, error, readonly: view.snapshotPath !== undefined })}
${modeSwitch()}
${wholeError}
<p id="pick-error" class="field-error" role="alert" hidden></p>
${fields}
${select({ id: 'pick-render', name: 'render', label: 'Render the page in a browser', options: renderChoices, value: view.render, error })}
${view.rendered ? html`<p class="hint">This page lists its items only once rendered: the feed renders it every time.</p>` : ''}
<button type="submit" name="action" value="preview" class="secondary">Show items</button>
<button type="submit" name="action" value="save">Save feed</button>
</form>`;
}

/**
 * The picker: the page's snapshot in a frame that runs nothing, the selectors beside it, and the
 * items they give. The script (picker.js) turns clicks in the frame into selectors, highlights what
 * they match and refreshes the list; without it, the form and "Show items" do the same by hand.
 */
export function pickerPage(assets: Assets, view: PickerView): Html {
  const frame = view.snapshotPath
    ? html`<iframe id="pick-frame" class="pick-frame" title="The page at ${view.url}, to click its items in" sandbox="allow-same-origin" src="${view.snapshotPath}"></iframe>`
    : '';
  const items = view.items
    ? itemList('pick-items', view.items, 'Items these selectors give')
    : html`<ol id="pick-items" class="items" aria-label="Items these selectors give"></ol>`;
  return page(assets, {
    title: 'Pick items on the page',
    section: 'feeds',
    viewer: view.viewer,
    scripts: [assets.picker],
    body: html`<h1>Pick items on the page</h1>
<div class="picker">
${selectorForm(view)}
<div class="pick-page">${frame}</div>
<section class="panel pick-list" aria-label="Items">${status(view)}${items}</section>
</div>`,
  });
}
