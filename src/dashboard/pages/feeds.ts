import type { Feed } from '../../domain/feed.js';
import type { FeedCandidate } from '../../domain/platforms/feed-candidate.js';
import type { AddFeedForm } from '../add-feed-form.js';
import { feedHealth, type FeedHealth } from '../../domain/feed-health.js';
import type { Assets } from '../assets.js';
import { input, select } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import { itemList, time } from './items.js';
import { fetchOptionsDetails, renderField, selectorDetails } from './source-options.js';
import { hasFetchOptions, noFetchOptionsForm, selectorsFormOf } from '../source-options-form.js';

export interface FeedsView {
  viewer: Viewer;
  feeds: readonly Feed[];
  total: number;
  /** Where this page of the list starts; pages hold `pageSize` feeds. */
  offset: number;
  pageSize: number;
  regions: readonly { value: string; label: string }[];
  form?: AddFeedForm;
}

function healthCells(status: FeedHealth): Html {
  const outcome = status.lastError ? html`<span class="state-failing">${status.lastError.code}</span>` : html`${status.lastOutcome ?? '—'}`;
  return html`<td>${time(status.lastFetchedAt)}</td><td><span class="state-${status.state}">${status.state}</span> · ${outcome}</td><td>${time(
    status.nextFetchAt,
  )}</td><td>${status.consecutiveErrors}</td>`;
}

function pager(view: FeedsView): Html {
  const { offset, pageSize, total } = view;
  if (total <= pageSize) return html``;
  const previous = offset > 0 ? html`<a href="/dashboard/feeds?offset=${Math.max(0, offset - pageSize)}" rel="prev">Previous page</a>` : '';
  const next = offset + pageSize < total ? html`<a href="/dashboard/feeds?offset=${offset + pageSize}" rel="next">Next page</a>` : '';
  return html`<nav aria-label="Pages of feeds" class="sort-links">${previous}${next}</nav>`;
}

function feedTable(view: FeedsView): Html {
  const { feeds, total, offset } = view;
  if (feeds.length === 0 && offset === 0) return html`<p id="feed-table" data-live class="muted">No feeds yet: add one below.</p>`;
  const rows = feeds.map(
    (feed) =>
      html`<tr><th scope="row"><a href="/dashboard/feeds/${feed.id}">${feed.title || feed.sourceUrl}</a></th>${healthCells(feedHealth(feed))}</tr>`,
  );
  return html`<div id="feed-table" data-live class="table-wrap"><table>
<caption>Your feeds${total > feeds.length ? html` (${offset + 1}–${offset + feeds.length} of ${total})` : ''}</caption>
<thead><tr><th scope="col">Feed</th><th scope="col">Last fetch</th><th scope="col">Outcome</th><th scope="col">Next fetch</th><th scope="col">Errors</th></tr></thead>
<tbody>${rows}</tbody></table>${pager(view)}</div>`;
}

const sourceLabels: Record<FeedCandidate['source'], string> = {
  direct: 'the address is a feed',
  rule: 'platform feed',
  advertised: 'linked by the page',
  'well-known': 'found at a usual path',
  page: 'the page’s own articles',
};

/** The feeds found at the pasted address, to pick one; by default feedmill follows the first with items. */
function candidateChoice(form: AddFeedForm): Html {
  const candidates = form.candidates ?? [];
  if (candidates.length === 0) return html``;
  const option = (value: string, id: string, label: Html, checked: boolean): Html =>
    html`<div class="choice"><input type="radio" id="${id}" name="candidate" value="${value}"${checked ? html` checked` : ''}><label for="${id}">${label}</label></div>`;
  const rows = candidates.map((candidate, index) => {
    const where = candidate.platform ? `${sourceLabels[candidate.source]}, ${candidate.platform}` : sourceLabels[candidate.source];
    const label = html`${candidate.title ?? candidate.url} <span class="muted">(${where} · ${candidate.format}${candidate.confirmed ? '' : ' · not checked'}) ${candidate.url}</span>`;
    return option(candidate.url, `candidate-${index}`, label, form.chosen === candidate.url);
  });
  return html`<fieldset class="panel" id="feed-candidates"><legend>Feeds found at this address</legend>
${option('', 'candidate-auto', html`The best one: the first, in this order, that has articles`, !form.chosen)}${rows}</fieldset>`;
}

/**
 * The address form, then the keyword form. The address form says how the page is read too
 * (rendering, selectors, fetch options), each part folded away until used; a link to pick the
 * items by pointing at the page belongs right after the address input.
 */
function addForms(view: FeedsView): Html {
  const form = view.form ?? {};
  const preview = form.preview
    ? html`<section aria-label="Preview" class="panel"><h3>${form.preview.title}</h3>${itemList('preview-items', form.preview.items.slice(0, 10), 'Preview')}</section>`
    : '';
  return html`<h2 id="add-feed">Add a feed</h2>
<form class="panel" method="post" action="/dashboard/feeds" aria-label="Add a feed">
${csrfField(view.viewer)}
${input({ id: 'feed-url', name: 'url', label: 'Feed URL', type: 'url', value: form.url ?? '', error: form.error, hint: 'A feed (RSS, Atom, JSON Feed) or any web page — a YouTube channel, a subreddit, a repository, a blog: Preview lists the feeds found there.' })}
${form.url !== undefined ? candidateChoice(form) : ''}
${renderField(form.render ?? 'auto', form.error)}
${selectorDetails(form.selectors ?? selectorsFormOf(null), form.error)}
${fetchOptionsDetails(form.fetch ?? noFetchOptionsForm, form.error, hasFetchOptions(form.fetch ?? noFetchOptionsForm))}
<button type="submit" name="action" value="preview" class="secondary">Preview</button>
<button type="submit" name="action" value="add">Add feed</button>
<button type="submit" formaction="/dashboard/feeds/pick/start" formnovalidate class="secondary">Pick items on the page</button>
${form.url !== undefined ? preview : ''}
</form>
<form class="panel" method="post" action="/dashboard/feeds" aria-label="Add a keyword feed">
${csrfField(view.viewer)}
${input({ id: 'keyword', name: 'keyword', label: 'Keyword', value: form.keyword ?? '', error: form.error, hint: 'News about this keyword, from the region’s edition.' })}
${select({ id: 'region', name: 'region', label: 'Region', options: view.regions, value: form.region ?? 'US:en', error: form.error })}
<button type="submit" name="action" value="preview" class="secondary">Preview</button>
<button type="submit" name="action" value="add">Add keyword feed</button>
${form.keyword !== undefined ? preview : ''}
</form>`;
}

export function feedsPage(assets: Assets, view: FeedsView): Html {
  return page(assets, {
    title: 'Feeds',
    section: 'feeds',
    viewer: view.viewer,
    liveFeeds: ['*'],
    body: html`<h1>Feeds</h1>${feedTable(view)}${addForms(view)}`,
  });
}
