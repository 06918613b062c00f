import type { ArticlePreview } from '../../app/preview-article.js';
import type { FeedSettings } from '../../domain/feed.js';
import { feedHealth, type FeedHealth } from '../../domain/feed-health.js';
import { shownUrl } from '../../domain/safe-url.js';
import type { FeedWithItems } from '../../domain/shown-item.js';
import type { Assets } from '../assets.js';
import { copyField, formAlert, input, select, type FieldError } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import { articlePreviewPanel, fullTextFields, type FullTextForm } from './full-text.js';
import { itemList, time } from './items.js';
import { keepBlockFormOf, keepBlockSection, type KeepBlockForm } from './keep-block.js';
import { fetchOptionsDetails, renderField, selectorDetails, storedFetchOptions } from './source-options.js';
import { hasFetchOptions, selectorsFormOf, type FetchOptionsForm, type SelectorsForm } from '../source-options-form.js';

export interface FeedView {
  viewer: Viewer;
  feed: FeedWithItems;
  /** Where the hosted feed is read (domain/hosted-urls.ts). */
  hostedUrl: string;
  settings: FeedSettings;
  /** The order shown; absent means the feed's preference. */
  sort: 'last_added' | 'date';
  /** What was typed into a form that the use case refused, with why. */
  edit?: { title: string; description: string; icon: string; error?: FieldError };
  settingsForm?: SettingsForm;
  /** The article "Preview full text" read with the rules typed into settingsForm. */
  articlePreview?: ArticlePreview;
  filtersForm?: KeepBlockForm;
  /** Whether the feed reads a page given by its address (not a keyword search): only such a feed has selectors and fetch options. */
  pageSource: boolean;
  selectorsForm?: { form: SelectorsForm; error?: FieldError };
  fetchForm?: { form: FetchOptionsForm; error?: FieldError };
  notice?: string;
  /** A refusal that concerns the page rather than a form (a refresh asked for too soon). */
  error?: string;
}

/** The settings form as typed. */
export interface SettingsForm extends FullTextForm {
  customAuthor: string;
  sort: string;
  minInterval: string;
  render: string;
}

const sortChoices = [
  { value: 'last_added', label: 'Newest added first' },
  { value: 'date', label: 'By publication date' },
];

function health(viewer: Viewer, base: string, status: FeedHealth, paused: boolean): Html {
  // A paused or disabled feed is resumed the same way: `paused: false` (README "Feeds").
  const resume = paused || status.state === 'disabled';
  const polling = html`<form class="inline-form" method="post" action="${base}/pause">${csrfField(viewer)}<input type="hidden" name="paused" value="${
    resume ? 'false' : 'true'
  }"><button type="submit" class="secondary">${resume ? 'Resume polling' : 'Pause polling'}</button></form>`;
  return html`<section id="feed-health" data-live class="panel" aria-label="Health">
<form class="inline-form" method="post" action="${base}/refresh">${csrfField(viewer)}<button type="submit">Refresh now</button></form> ${polling}
${status.disabled?.reason ? html`<p class="error">Disabled ${time(status.disabled.at)}: ${status.disabled.reason}</p>` : ''}
<p><strong>State:</strong> <span class="state-${status.state}">${status.state}</span> · <strong>Last outcome:</strong> ${status.lastOutcome ?? '—'}</p>
<p><strong>Last fetch:</strong> ${time(status.lastFetchedAt)} · <strong>Next fetch:</strong> ${time(status.nextFetchAt)} · <strong>Consecutive errors:</strong> ${status.consecutiveErrors}</p>
${status.lastError ? html`<p class="error">${status.lastError.code}: ${status.lastError.message}</p>` : ''}
</section>`;
}

/**
 * The selectors and the fetch options, each a form of its own: saving one never asks for the
 * other again (fetch options are replaced whole, and their secrets are never shown to edit).
 */
function readingForms(view: FeedView, base: string): Html {
  const stored = view.settings.selectors;
  const selectors = view.selectorsForm ?? { form: selectorsFormOf(stored) };
  const selectorButtons = html`<p class="hint">Saving reads the page again with them; selectors that find nothing are refused and change nothing. Clearing them finds the items the usual way again.</p>
<button type="submit" name="action" value="save">Save selectors</button>
${stored ? html`<button type="submit" name="action" value="clear" class="secondary">Clear selectors</button>` : ''}`;
  const fetchStored = view.settings.fetchOptions;
  const fetch = view.fetchForm ?? {
    form: { userAgent: fetchStored?.userAgent ?? '', headers: '', username: '', passwordTyped: false },
  };
  const fetchButtons = html`<p class="hint">Replacing stores exactly what is typed here: type every header and the login again, as their values are never shown. Replaced with nothing typed, nothing is stored.</p>
<button type="submit" name="action" value="save">Replace fetch options</button>
${fetchStored ? html`<button type="submit" name="action" value="clear" class="secondary">Remove fetch options</button>` : ''}`;
  return html`<h2>Reading the page</h2>
<form class="panel" method="post" action="${base}/selectors" aria-label="Selectors">
${csrfField(view.viewer)}
${selectorDetails(selectors.form, selectors.error, selectorButtons)}
</form>
<form class="panel" method="post" action="${base}/fetch" aria-label="Fetch options">
${csrfField(view.viewer)}
${fetchOptionsDetails(fetch.form, fetch.error, fetchStored !== null || hasFetchOptions(fetch.form), storedFetchOptions(fetchStored), fetchButtons)}
</form>`;
}

export function feedPage(assets: Assets, view: FeedView): Html {
  const {
    feed: { feed, items },
    viewer,
  } = view;
  const edit = view.edit ?? { title: feed.title, description: feed.description, icon: shownUrl(feed.icon) };
  const settings: SettingsForm = view.settingsForm ?? {
    customAuthor: view.settings.customAuthor ?? '',
    sort: view.settings.sort,
    minInterval: view.settings.minIntervalSeconds === null ? '' : String(view.settings.minIntervalSeconds),
    render: view.settings.render,
    fullText: view.settings.fullText,
    fullTextContent: view.settings.fullTextRules?.content ?? '',
    fullTextRemove: (view.settings.fullTextRules?.remove ?? []).join('\n'),
  };
  const base = `/dashboard/feeds/${feed.id}`;
  return page(assets, {
    title: feed.title || feed.id,
    section: 'feeds',
    viewer,
    liveFeeds: [feed.id],
    body: html`<p><a href="/dashboard/feeds">← Feeds</a></p>
<h1>${feed.title || feed.id}</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
<p class="muted">Source: ${feed.sourceUrl}</p>
${copyField('hosted-address', 'Hosted feed address', view.hostedUrl, 'Copy address')}
${view.error ? formAlert(view.error) : ''}
${health(viewer, base, feedHealth(feed), view.settings.paused)}
<h2>Items</h2>
<p class="sort-links"><a href="${base}?sort=last_added"${view.sort === 'last_added' ? html` aria-current="true"` : ''}>Newest added</a>
<a href="${base}?sort=date"${view.sort === 'date' ? html` aria-current="true"` : ''}>By date</a></p>
${itemList('feed-items', items, 'Items', view.settings.fullText)}
<h2>Edit feed</h2>
<form class="panel" method="post" action="${base}" aria-label="Edit feed">
${csrfField(viewer)}
${input({ id: 'title', name: 'title', label: 'Title', value: edit.title, error: edit.error })}
${input({ id: 'description', name: 'description', label: 'Description', value: edit.description, error: edit.error })}
${input({ id: 'icon', name: 'icon', label: 'Icon URL', type: 'url', value: edit.icon, error: edit.error })}
<button type="submit">Save feed</button>
</form>
<h2>Settings</h2>
<form class="panel" method="post" action="${base}/settings" aria-label="Settings">
${csrfField(viewer)}
${input({ id: 'custom-author', name: 'customAuthor', label: 'Custom author', value: settings.customAuthor, error: settings.error, hint: 'Replaces every item’s authors, everywhere items are shown. Leave empty to keep the source’s.' })}
${select({ id: 'default-sort', name: 'sort', label: 'Default sort', options: sortChoices, value: settings.sort, error: settings.error })}
${input({ id: 'min-interval', name: 'minInterval', label: 'Minimum interval (seconds)', value: settings.minInterval, error: settings.error, hint: 'Fetch this feed at most this often; empty for the installation’s floor, which is also the least you may set.' })}
${renderField(settings.render, settings.error)}
${fullTextFields(settings)}
<button type="submit" name="action" value="save">Save settings</button>
<button type="submit" name="action" value="preview" class="secondary">Preview full text</button>
</form>
${view.articlePreview ? articlePreviewPanel(view.articlePreview) : ''}
${view.pageSource ? readingForms(view, base) : ''}
<h2>Filters</h2>
${keepBlockSection(viewer, `${base}/filters`, view.filtersForm ?? keepBlockFormOf(view.settings.filters))}
<h2>Delete</h2>
<form method="get" action="${base}/delete"><button type="submit" class="danger">Delete feed</button></form>`,
  });
}
