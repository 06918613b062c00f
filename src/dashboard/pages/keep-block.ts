import type { KeepBlockPreview } from '../../app/filter-preview.js';
import { fieldRefusal } from '../../domain/errors.js';
import type { KeepBlock } from '../../domain/keep-block.js';
import type { FieldError } from '../forms.js';
import { html, type Html } from '../html.js';
import { csrfField, type Viewer } from '../layout.js';
import { fieldOf, type FormBody } from '../request.js';

/** The keep/block filters as typed: each the API's filter language as JSON, empty for none. */
export interface KeepBlockForm {
  keep: string;
  block: string;
  error?: FieldError;
  /** A dry run over the newest items ("Preview filters"). */
  preview?: readonly KeepBlockPreview[];
}

export const keepBlockFormOf = (filters: KeepBlock): KeepBlockForm => ({
  keep: filters.keep ? JSON.stringify(filters.keep, null, 2) : '',
  block: filters.block ? JSON.stringify(filters.block, null, 2) : '',
});

/** The textareas a refusal of `filters.keep…` or `filters.block…` belongs to (the API's names → the inputs). */
export const keepBlockInputs = { 'filters.keep': 'keep', 'filters.block': 'block' };

export const keepBlockFormFrom = (body: FormBody): KeepBlockForm => ({ keep: fieldOf(body, 'keep'), block: fieldOf(body, 'block') });

/** `{keep, block}` for the use case, which checks each filter as the API does. */
export function keepBlockOf(form: KeepBlockForm): { keep: unknown; block: unknown } {
  const parse = (name: 'keep' | 'block'): unknown => {
    const text = form[name].trim();
    if (text === '') return null;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw fieldRefusal(`filters.${name}`, `\`filters.${name}\` must be JSON (or empty for none): ${(error as Error).message}`);
    }
  };
  return { keep: parse('keep'), block: parse('block') };
}

function preview(rows: readonly KeepBlockPreview[]): Html {
  if (rows.length === 0)
    return html`<section class="panel" aria-label="Filter preview"><p class="muted">No stored items yet to try the filters on.</p></section>`;
  const kept = rows.filter((row) => row.verdict.kept).length;
  const items = rows.map((row) => {
    const decided = row.verdict.decidedBy;
    const why = decided
      ? html` <span class="item-meta">(${decided.rule}: ${decided.condition.field} ${decided.condition.op.replace('_', ' ')} “${decided.condition.value}”)</span>`
      : '';
    return html`<li><strong class="${row.verdict.kept ? 'state-active' : 'state-failing'}">${row.verdict.kept ? 'kept' : 'dropped'}</strong> — ${row.item.title || row.item.url}${why}</li>`;
  });
  return html`<section class="panel" aria-label="Filter preview"><p role="status">${kept} of ${rows.length} recent items would be kept.</p><ul class="plain">${items}</ul></section>`;
}

/** The "Filters" form of a feed or a bundle: keep and block, a dry run, and saving. */
export function keepBlockSection(viewer: Viewer, action: string, form: KeepBlockForm): Html {
  const error = form.error;
  const textarea = (name: 'keep' | 'block', label: string, hint: string): Html => {
    const invalid = error?.field === name;
    return html`<label for="filters-${name}">${label}</label>
<textarea id="filters-${name}" name="${name}" aria-describedby="filters-${name}-hint${invalid ? ' filters-error' : ''}"${invalid ? html` aria-invalid="true"` : ''}>${form[name]}</textarea>
<p class="hint" id="filters-${name}-hint">${hint}</p>`;
  };
  return html`<form class="panel" method="post" action="${action}" aria-label="Filters">
${csrfField(viewer)}
${error ? html`<p class="field-error" id="filters-error" role="alert">${error.message}</p>` : ''}
${textarea('keep', 'Keep (JSON)', 'Only items that match are shown; empty keeps everything.')}
${textarea('block', 'Block (JSON)', 'Items that match are never shown, whatever Keep says; empty blocks nothing.')}
<p class="hint">The filter language of webhooks: fields title, description, author, url, category, date_published; operators contains, not_contains, matches, older_than, newer_than (an age such as 7d); groups all / any. Filters apply to stored items at once, without fetching again.</p>
<button type="submit" name="action" value="preview" class="secondary">Preview filters</button>
<button type="submit" name="action" value="save">Save filters</button>
${form.preview ? preview(form.preview) : ''}
</form>`;
}
