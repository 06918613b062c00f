import type { Bundle } from '../../domain/bundle.js';
import type { Feed } from '../../domain/feed.js';
import type { BundleWithItems } from '../../domain/shown-item.js';
import type { Assets } from '../assets.js';
import { copyField, input, select, type FieldError } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import type { KeepBlock } from '../../domain/keep-block.js';
import { itemList } from './items.js';
import { keepBlockFormOf, keepBlockSection, type KeepBlockForm } from './keep-block.js';

export interface BundlesView {
  viewer: Viewer;
  bundles: readonly Bundle[];
  total: number;
  form?: { name: string; error?: FieldError };
}

export function bundlesPage(assets: Assets, view: BundlesView): Html {
  const rows = view.bundles.map(
    (bundle) =>
      html`<tr><th scope="row"><a href="/dashboard/bundles/${bundle.id}">${bundle.name || bundle.id}</a></th><td>${bundle.feedIds.length}</td></tr>`,
  );
  const table =
    view.bundles.length === 0
      ? html`<p class="muted">No bundles yet: a bundle merges feeds into one hosted feed.</p>`
      : html`<div class="table-wrap"><table><caption>Your bundles${view.total > view.bundles.length ? html` (${view.bundles.length} of ${view.total} shown)` : ''}</caption>
<thead><tr><th scope="col">Bundle</th><th scope="col">Feeds</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return page(assets, {
    title: 'Bundles',
    section: 'bundles',
    viewer: view.viewer,
    body: html`<h1>Bundles</h1>${table}
<h2>Create a bundle</h2>
<form class="panel" method="post" action="/dashboard/bundles" aria-label="Create a bundle">
${csrfField(view.viewer)}
${input({ id: 'bundle-name', name: 'name', label: 'Bundle name', value: view.form?.name ?? '', error: view.form?.error, required: true })}
<button type="submit">Create bundle</button>
</form>`,
  });
}

export interface BundleView {
  viewer: Viewer;
  bundle: BundleWithItems;
  /** Where the hosted bundle is read (domain/hosted-urls.ts). */
  hostedUrl: string;
  /** Every feed of the account: the members by title, the rest to choose from. */
  feeds: readonly Feed[];
  edit?: { name: string; description: string; error?: FieldError };
  /** The bundle's keep/block filters as stored, and the form when it came back refused or previewed. */
  filters: KeepBlock;
  filtersForm?: KeepBlockForm;
  addError?: FieldError;
  notice?: string;
}

export function bundlePage(assets: Assets, view: BundleView): Html {
  const {
    bundle: { bundle, items },
    viewer,
  } = view;
  const base = `/dashboard/bundles/${bundle.id}`;
  const titles = new Map(view.feeds.map((feed) => [feed.id, feed.title || feed.id]));
  const members = bundle.feedIds.map(
    (feedId) => html`<li><a href="/dashboard/feeds/${feedId}">${titles.get(feedId) ?? feedId}</a>
<form class="inline-form" method="post" action="${base}/feeds/${feedId}/remove">${csrfField(viewer)}<button type="submit" class="secondary">Remove ${
      titles.get(feedId) ?? feedId
    }</button></form></li>`,
  );
  const candidates = view.feeds
    .filter((feed) => !bundle.feedIds.includes(feed.id))
    .map((feed) => ({ value: feed.id, label: feed.title || feed.id }));
  const edit = view.edit ?? { name: bundle.name, description: bundle.description };
  return page(assets, {
    title: bundle.name || bundle.id,
    section: 'bundles',
    viewer,
    liveFeeds: bundle.feedIds.length ? bundle.feedIds : undefined,
    body: html`<p><a href="/dashboard/bundles">← Bundles</a></p>
<h1>${bundle.name || bundle.id}</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${copyField('hosted-address', 'Hosted feed address', view.hostedUrl, 'Copy address')}
<h2>Feeds</h2>
${members.length ? html`<ul class="plain" aria-label="Feeds in this bundle">${members}</ul>` : html`<p class="muted">No feeds in this bundle yet.</p>`}
${
  candidates.length
    ? html`<form class="panel" method="post" action="${base}/feeds" aria-label="Add a feed to this bundle">${csrfField(viewer)}
${select({ id: 'bundle-feed', name: 'feedId', label: 'Feed', options: candidates, error: view.addError })}
<button type="submit">Add to bundle</button></form>`
    : html`<p class="hint">Every feed of yours is in this bundle; <a href="/dashboard/feeds#add-feed">add a feed</a> first to add more.</p>`
}
<h2>Items</h2>
${itemList('bundle-items', items)}
<h2>Filters</h2>
${keepBlockSection(viewer, `${base}/filters`, view.filtersForm ?? keepBlockFormOf(view.filters))}
<h2>Edit bundle</h2>
<form class="panel" method="post" action="${base}" aria-label="Edit bundle">
${csrfField(viewer)}
${input({ id: 'edit-bundle-name', name: 'name', label: 'Bundle name', value: edit.name, error: edit.error })}
${input({ id: 'edit-bundle-description', name: 'description', label: 'Description', value: edit.description, error: edit.error })}
<button type="submit">Save bundle</button>
</form>
<h2>Delete</h2>
<form method="get" action="${base}/delete"><button type="submit" class="danger">Delete bundle</button></form>`,
  });
}
