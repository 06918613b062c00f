import type { Bundle } from '../../domain/bundle.js';
import type { DeliveryAttempt } from '../../domain/delivery.js';
import type { Feed } from '../../domain/feed.js';
import type { Webhook } from '../../domain/webhook.js';
import type { Assets } from '../assets.js';
import type { FilterVerdict } from '../../app/filter-preview.js';
import { fieldChoices, filterFormOf, maxConditions, operatorChoices, type FilterForm } from '../filter-form.js';
import { copyField, formAlert, input, select, type FieldError } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import { time } from './items.js';

/** What the webhook form holds, as typed: on a refusal it comes back unchanged. */
export interface WebhookForm {
  url: string;
  scope: 'all' | 'feeds' | 'bundles';
  feeds: readonly string[];
  bundles: readonly string[];
  filter: FilterForm;
  error?: FieldError;
  /** A dry run of the filter over recent items of the scope (the "Preview filter" button). */
  preview?: readonly FilterVerdict[];
}

export const emptyWebhookForm: WebhookForm = { url: '', scope: 'all', feeds: [], bundles: [], filter: filterFormOf(null) };

const filterExample =
  '{"any": [{"field": "title", "op": "contains", "value": "release"}, {"all": [{"field": "url", "op": "matches", "value": "/blog/"}, {"field": "author", "op": "not_contains", "value": "bot"}]}]}';

function builderRows(filter: FilterForm): Html {
  const rows = [...filter.conditions, { field: 'title', op: 'contains', value: '' }].slice(0, maxConditions);
  return html`${rows.map((row, index) => {
    const n = index + 1;
    return html`<div class="condition" role="group" aria-label="Condition ${n}">
${select({ id: `condition-field-${n}`, name: 'condition_field', label: `Field ${n}`, options: fieldChoices, value: row.field })}
${select({ id: `condition-op-${n}`, name: 'condition_op', label: `Operator ${n}`, options: operatorChoices, value: row.op })}
${input({ id: `condition-value-${n}`, name: 'condition_value', label: `Value ${n}`, value: row.value })}
</div>`;
  })}`;
}

function filterPreview(preview: readonly FilterVerdict[] | undefined): Html {
  if (!preview) return html``;
  if (preview.length === 0)
    return html`<section class="panel" aria-label="Filter preview"><p class="muted">No recent items in this scope to try the filter on.</p></section>`;
  const kept = preview.filter((verdict) => verdict.kept).length;
  const rows = preview.map(
    (verdict) =>
      html`<li><strong class="${verdict.kept ? 'state-active' : 'state-failing'}">${verdict.kept ? 'sent' : 'not sent'}</strong> — ${verdict.item.title || verdict.item.url} <span class="item-meta">(${verdict.feedTitle})</span></li>`,
  );
  return html`<section class="panel" aria-label="Filter preview"><p role="status">${kept} of ${preview.length} recent items would be sent.</p><ul class="plain">${rows}</ul></section>`;
}

function checkboxes(name: string, legend: string, choices: readonly { id: string; label: string }[], checked: readonly string[]): Html {
  if (choices.length === 0) return html`<p class="hint">${legend}: none yet.</p>`;
  const boxes = choices.map(
    (choice) =>
      html`<label class="inline"><input type="checkbox" name="${name}" value="${choice.id}"${checked.includes(choice.id) ? html` checked` : ''}> ${choice.label}</label>`,
  );
  return html`<fieldset><legend>${legend}</legend>${boxes}</fieldset>`;
}

/** The fields shared by "Add a webhook" and "Edit webhook". */
function webhookFields(form: WebhookForm, feeds: readonly Feed[], bundles: readonly Bundle[], withUrl: boolean): Html {
  const radio = (value: WebhookForm['scope'], label: string): Html =>
    html`<label class="inline"><input type="radio" name="scope" value="${value}"${form.scope === value ? html` checked` : ''}> ${label}</label>`;
  const filtersError = form.error?.field === 'filters' ? form.error : undefined;
  const mode = (value: FilterForm['mode'], label: string): Html =>
    html`<label class="inline"><input type="radio" name="filter_mode" value="${value}"${form.filter.mode === value ? html` checked` : ''}> ${label}</label>`;
  const match = (value: FilterForm['match'], label: string): Html =>
    html`<label class="inline"><input type="radio" name="match" value="${value}"${form.filter.match === value ? html` checked` : ''}> ${label}</label>`;
  return html`${withUrl ? input({ id: 'webhook-url', name: 'url', label: 'Target URL', type: 'url', value: form.url, error: form.error, required: true, hint: 'An https:// address that answers 2xx; feedmill signs every call (Standard Webhooks).' }) : ''}
<fieldset><legend>Scope</legend>${radio('all', 'All feeds')}${radio('feeds', 'Some feeds')}${radio('bundles', 'Some bundles')}</fieldset>
${checkboxes(
  'feeds',
  'Feeds (for “Some feeds”)',
  feeds.map((feed) => ({ id: feed.id, label: feed.title || feed.id })),
  form.feeds,
)}
${checkboxes(
  'bundles',
  'Bundles (for “Some bundles”)',
  bundles.map((bundle) => ({ id: bundle.id, label: bundle.name || bundle.id })),
  form.bundles,
)}
${form.error && !['url', 'filters'].includes(form.error.field) ? formAlert(form.error.message) : ''}
<fieldset><legend>Filter</legend>
<p class="hint">Optional: only items that pass are sent. Conditions with an empty value are left out; save or preview to get another row.</p>
${filtersError ? html`<p class="field-error" id="webhook-filters-error" role="alert">${filtersError.message}</p>` : ''}
<fieldset><legend>Written with</legend>${mode('builder', 'the builder')}${mode('json', 'JSON (for nested groups)')}</fieldset>
<fieldset><legend>Send an item when it matches</legend>${match('all', 'all of the conditions')}${match('any', 'any of the conditions')}</fieldset>
${builderRows(form.filter)}
<label for="webhook-filters">Filters (JSON)</label>
<textarea id="webhook-filters" name="filters" aria-describedby="webhook-filters-hint${filtersError ? ' webhook-filters-error' : ''}"${
    filtersError ? html` aria-invalid="true"` : ''
  }>${form.filter.json}</textarea>
<p class="hint" id="webhook-filters-hint">Used when “JSON” is chosen: the API’s filter language — fields title, description, author, url; operators contains, not_contains, matches (a regular expression); groups all / any, nested twice at most. Example: <code>${filterExample}</code></p>
<button type="submit" name="action" value="preview" class="secondary">Preview filter</button>
${filterPreview(form.preview)}
</fieldset>`;
}

export interface WebhooksView {
  viewer: Viewer;
  webhooks: readonly Webhook[];
  feeds: readonly Feed[];
  bundles: readonly Bundle[];
  form?: WebhookForm;
}

const scopeText = (webhook: Webhook): string =>
  webhook.scope.kind === 'all'
    ? 'all feeds'
    : webhook.scope.kind === 'feeds'
      ? `${webhook.scope.feedIds.length} feed(s)`
      : `${webhook.scope.bundleIds.length} bundle(s)`;

export function webhooksPage(assets: Assets, view: WebhooksView): Html {
  const rows = view.webhooks.map(
    (webhook) =>
      html`<tr><th scope="row"><a href="/dashboard/webhooks/${webhook.id}">${webhook.url}</a></th><td>${scopeText(webhook)}</td><td>${
        webhook.enabled ? 'enabled' : html`<span class="state-failing">disabled</span>`
      }</td></tr>`,
  );
  const table =
    view.webhooks.length === 0
      ? html`<p class="muted">No webhooks yet: feedmill calls a webhook with every feed update in its scope.</p>`
      : html`<div class="table-wrap"><table><caption>Your webhooks</caption>
<thead><tr><th scope="col">Target</th><th scope="col">Scope</th><th scope="col">State</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return page(assets, {
    title: 'Webhooks',
    section: 'webhooks',
    viewer: view.viewer,
    body: html`<h1>Webhooks</h1>${table}
<h2>Add a webhook</h2>
<form class="panel" method="post" action="/dashboard/webhooks" aria-label="Add a webhook">
${csrfField(view.viewer)}
${webhookFields(view.form ?? emptyWebhookForm, view.feeds, view.bundles, true)}
<button type="submit">Add webhook</button>
</form>`,
  });
}

export interface WebhookView {
  viewer: Viewer;
  webhook: Webhook;
  attempts: readonly DeliveryAttempt[];
  feeds: readonly Feed[];
  bundles: readonly Bundle[];
  /** Shown once, right after creation or rotation. */
  secret?: string;
  form?: WebhookForm;
  notice?: string;
  error?: string;
}

function history(viewer: Viewer, webhookId: string, attempts: readonly DeliveryAttempt[]): Html {
  if (attempts.length === 0) return html`<p id="call-history" class="muted">No calls yet: send a test request.</p>`;
  const rows = attempts.map(
    (attempt) =>
      html`<tr><td>${time(attempt.at)}</td><td><code>${attempt.eventId}</code></td><td>${attempt.attempt}</td><td>${
        attempt.statusCode ?? html`<span class="state-failing">${attempt.error ?? 'no answer'}</span>`
      } ${attempt.outcome === 'failed' ? html`<span class="state-failing">(failed)</span>` : ''}</td><td>${attempt.latencyMs} ms</td><td><code>${attempt.responseExcerpt.slice(0, 200)}</code></td><td>${
        attempt.outcome === 'failed'
          ? html`<form method="post" action="/dashboard/webhooks/${webhookId}/deliveries/${attempt.deliveryId}/retry">${csrfField(viewer)}<button type="submit" class="secondary" aria-label="Retry ${attempt.deliveryId}">Retry</button></form>`
          : ''
      }</td></tr>`,
  );
  return html`<div id="call-history" class="table-wrap"><table><caption>Call history</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Response</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export function webhookPage(assets: Assets, view: WebhookView): Html {
  const { webhook, viewer } = view;
  const base = `/dashboard/webhooks/${webhook.id}`;
  const form: WebhookForm = view.form ?? {
    url: webhook.url,
    scope: webhook.scope.kind,
    feeds: webhook.scope.kind === 'feeds' ? webhook.scope.feedIds : [],
    bundles: webhook.scope.kind === 'bundles' ? webhook.scope.bundleIds : [],
    filter: filterFormOf(webhook.filters),
  };
  return page(assets, {
    title: webhook.url,
    section: 'webhooks',
    viewer,
    body: html`<p><a href="/dashboard/webhooks">← Webhooks</a></p>
<h1>${webhook.url}</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? formAlert(view.error) : ''}
${
  view.secret
    ? html`<section class="panel" aria-label="Signing secret"><p class="warning">Copy the signing secret now: it is shown only this once.</p>${copyField('signing-secret', 'Signing secret', view.secret, 'Copy secret')}</section>`
    : ''
}
${
  webhook.enabled
    ? ''
    : html`<section class="panel warning" aria-label="Disabled"><p><strong>Disabled:</strong> ${webhook.disabledReason ?? 'by request'}${
        webhook.failingSince ? html` (failing since ${time(webhook.failingSince)})` : ''
      }</p><form method="post" action="${base}/enable">${csrfField(viewer)}<button type="submit">Re-enable</button></form></section>`
}
<form method="post" action="${base}/test">${csrfField(viewer)}<button type="submit">Send test request</button></form>
${history(viewer, webhook.id, view.attempts)}
<h2>Edit webhook</h2>
<form class="panel" method="post" action="${base}" aria-label="Edit webhook">
${csrfField(viewer)}
${input({ id: 'edit-webhook-url', name: 'url', label: 'Target URL', type: 'url', value: form.url, error: form.error, required: true })}
${webhookFields(form, view.feeds, view.bundles, false)}
<button type="submit">Save webhook</button>
</form>
<h2>Secret</h2>
<form method="post" action="${base}/rotate-secret">${csrfField(viewer)}<button type="submit" class="secondary">Rotate secret</button>
<p class="hint">The old secret keeps signing for 24 hours beside the new one, so the receiver can switch without losing calls.</p></form>
<h2>Delete</h2>
<form method="get" action="${base}/delete"><button type="submit" class="danger">Delete webhook</button></form>`,
  });
}
