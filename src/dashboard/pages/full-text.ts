import type { ArticlePreview } from '../../app/preview-article.js';
import type { FullTextView } from '../../domain/item-article.js';
import { input, type FieldError } from '../forms.js';
import { html, Html } from '../html.js';

/** The full-text part of a feed's settings form, as typed; `fullTextRemove` holds one selector a line. */
export interface FullTextForm {
  fullText: boolean;
  fullTextContent: string;
  fullTextRemove: string;
  error?: FieldError;
}

/** The switch, and the feed's own rules for a site the extractor gets wrong (docs/full-text.md). */
export function fullTextFields(form: FullTextForm): Html {
  const removeError = form.error?.field === 'fullTextRemove' ? form.error : undefined;
  const described = `full-text-remove-hint${removeError ? ' full-text-remove-error' : ''}`;
  return html`<fieldset>
<legend>Full text</legend>
<label class="inline"><input type="checkbox" id="full-text" name="fullText" value="on"${form.fullText ? html` checked` : ''} aria-describedby="full-text-hint"> Full article text</label>
<p class="hint" id="full-text-hint">Fetch the page behind each new item and show its article instead of the feed’s teaser; turning it on also fills in the latest 20 items.</p>
${input({ id: 'full-text-content', name: 'fullTextContent', label: 'Article selector (optional)', value: form.fullTextContent, error: form.error, hint: 'The CSS selector of the element holding the article, for a site the extractor gets wrong, e.g. article .post-body.' })}
<label for="full-text-remove">Remove selectors (optional)</label>
<textarea id="full-text-remove" name="fullTextRemove" aria-describedby="${described}"${removeError ? html` aria-invalid="true"` : ''}>${form.fullTextRemove}</textarea>
<p class="hint" id="full-text-remove-hint">One CSS selector a line: parts of the page dropped before the article is read.</p>
${removeError ? html`<p class="field-error" id="full-text-remove-error">${removeError.message}</p>` : ''}
</fieldset>`;
}

/** What "Preview full text" read: the article (sanitised by the extractor, so shown as markup) or why not. */
export function articlePreviewPanel(preview: ArticlePreview): Html {
  const source = preview.url ? html`<p class="muted">From ${preview.title || preview.url}: ${preview.url}</p>` : '';
  if ('error' in preview) {
    return html`<section id="article-preview" class="panel" aria-label="Full text preview">${source}
<p class="error" role="status">Full text failed (${preview.error.code}): ${preview.error.message}</p></section>`;
  }
  return html`<section id="article-preview" class="panel" aria-label="Full text preview">${source}
<p role="status">This is the article full text would show.</p>
<article class="article-preview">${new Html(preview.article.html)}</article></section>`;
}

/** An item's full-text status in a list, when the feed has full text on: nothing once the article is in. */
export function fullTextBadge(view: FullTextView | undefined): Html | string {
  if (!view || view.status === 'ok' || view.status === 'skipped') return '';
  if (view.status === 'pending') return html` · <span class="full-text-pending">Full text pending</span>`;
  return html` · <span class="full-text-failed">Full text failed${view.error ? html`: ${view.error.message}` : ''}</span>`;
}
