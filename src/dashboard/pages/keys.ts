import type { Scope } from '../../domain/api-key.js';
import type { Assets } from '../assets.js';
import { copyField, formAlert } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, page, type Viewer } from '../layout.js';
import { time } from './items.js';

export interface KeyRow {
  id: string;
  scopes: readonly Scope[];
  createdAt: string;
  lastUsedAt?: string | null;
  revokedAt: string | null;
}

export interface KeysView {
  viewer: Viewer;
  keys: readonly KeyRow[];
  /** A key just created: the only time its secret is shown. */
  created?: { key: string; secret: string; scopes: readonly Scope[] };
  error?: string;
  notice?: string;
}

function keyTable(keys: readonly KeyRow[]): Html {
  if (keys.length === 0) return html`<p class="muted">No API keys yet.</p>`;
  const rows = keys.map(
    (key) =>
      html`<tr><th scope="row"><code>${key.id}</code></th><td>${key.scopes.join(', ')}</td><td>${time(key.createdAt)}</td><td>${
        key.lastUsedAt ? time(key.lastUsedAt) : html`<span class="muted">never</span>`
      }</td><td>${
        key.revokedAt
          ? html`revoked ${time(key.revokedAt)}`
          : html`<form method="get" action="/dashboard/keys/${key.id}/revoke"><button type="submit" class="danger" aria-label="Revoke ${key.id}">Revoke</button></form>`
      }</td></tr>`,
  );
  return html`<div class="table-wrap"><table><caption>Your API keys</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function created(view: NonNullable<KeysView['created']>): Html {
  return html`<section class="panel" aria-label="New API key">
<h2>Your new key</h2>
<p class="warning" role="status">Copy the secret now: it is shown only this once, and feedmill keeps only a hash of it.</p>
${copyField('new-key', 'API key', view.key, 'Copy key')}
${copyField('new-secret', 'API secret', view.secret, 'Copy secret')}
${copyField('new-header', 'Authorization header', `Bearer ${view.key}:${view.secret}`, 'Copy header')}
<p class="hint">Scopes: ${view.scopes.join(', ')}. Send it as <code>Authorization: Bearer KEY:SECRET</code> to <code>/v1</code> and <code>/graphql</code>.</p>
</section>`;
}

export function keysPage(assets: Assets, view: KeysView): Html {
  return page(assets, {
    title: 'API keys',
    section: 'keys',
    viewer: view.viewer,
    body: html`<h1>API keys</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.created ? created(view.created) : ''}
${keyTable(view.keys)}
<h2>Create a key</h2>
<form class="panel" method="post" action="/dashboard/keys" aria-label="Create a key">
${csrfField(view.viewer)}
${view.error ? formAlert(view.error) : ''}
<fieldset><legend>Scopes</legend>
<label class="inline"><input type="checkbox" name="scopes" value="read" checked> Read</label>
<label class="inline"><input type="checkbox" name="scopes" value="write" checked> Write</label>
</fieldset>
<button type="submit">Create key</button>
</form>`,
  });
}
