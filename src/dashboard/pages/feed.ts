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

export const renderChoices = [
  { value: 'auto', label: 'When the page lists nothing as served' },
  { value: 'always', label: 'Always' },
  { value: 'never', label: 'Never' },
];

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
${select({ id: 'render', name: 'render', label: 'Render the page in a browser', options: renderChoices, value: settings.render, error: settings.error })}
${fullTextFields(settings)}
<button type="submit" name="action" value="save">Save settings</button>
<button type="submit" name="action" value="preview" class="secondary">Preview full text</button>
</form>
${view.articlePreview ? articlePreviewPanel(view.articlePreview) : ''}
<h2>Filters</h2>
${keepBlockSection(viewer, `${base}/filters`, view.filtersForm ?? keepBlockFormOf(view.settings.filters))}
<h2>Delete</h2>
<form method="get" action="${base}/delete"><button type="submit" class="danger">Delete feed</button></form>`,
  });
}
