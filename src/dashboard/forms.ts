import { FeedmillError } from '../domain/errors.js';
import { html, type Fragment, type Html } from './html.js';

/** A use case's refusal, shown next to the field it concerns; the form keeps what was typed. */
export interface FieldError {
  field: string;
  message: string;
}

/** Whether `refused` (a field as the API names it, `filters.any[0].op`) is `name` or lies inside it. */
const within = (refused: string, name: string): boolean =>
  refused === name || refused.startsWith(`${name}.`) || refused.startsWith(`${name}[`);

/**
 * The use case's own message for the person, tied to the form's input the refusal names: the
 * refused field (`details.field`, set where the value was refused) looked up in `inputs` (the API's
 * field name → the form's input name; a name covers its sub-fields), else `fallback`. Only refusals
 * of the input are shown on the form; anything else (the store down, a bug) goes to the error page.
 */
export function fieldErrorOf(error: unknown, fallback: string, inputs: Readonly<Record<string, string>> = {}): FieldError {
  if (error instanceof FeedmillError && !['internal_error', 'store_unavailable', 'unauthorized'].includes(error.code)) {
    const refused = error.details.field;
    const named = typeof refused === 'string' ? Object.keys(inputs).find((name) => within(refused, name)) : undefined;
    return { field: named === undefined ? fallback : (inputs[named] ?? fallback), message: error.message };
  }
  throw error;
}

export interface InputOptions {
  /** The element id; the label points at it and the error's id derives from it. */
  id: string;
  name: string;
  label: string;
  type?: 'text' | 'url' | 'email' | 'password';
  value?: string;
  error?: FieldError | undefined;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  readonly?: boolean;
}

/** A field's hint and error, and the attributes that tie them to its control (`aria-describedby`), as screen readers expect. */
function described(options: { id: string; name: string; hint?: string | undefined; error?: FieldError | undefined }): {
  attributes: Html;
  after: Html;
} {
  const error = options.error?.field === options.name ? options.error : undefined;
  const hintId = `${options.id}-hint`;
  const errorId = `${options.id}-error`;
  const ids = [options.hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return {
    attributes: html`${error ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`,
    after: html`${options.hint ? html`<p class="hint" id="${hintId}">${options.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${errorId}">${error.message}</p>` : ''}`,
  };
}

/** A labelled input with its hint and error tied to it. */
export function input(options: InputOptions): Html {
  const { attributes, after } = described(options);
  return html`<label for="${options.id}">${options.label}</label>
<input id="${options.id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${options.required ? html` required` : ''}${
    options.readonly ? html` readonly` : ''
  }${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${attributes}>
${after}`;
}

export interface TextareaOptions {
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: FieldError | undefined;
  hint?: string;
  /** Lines shown before it scrolls. */
  rows?: number;
}

/** A labelled multi-line input, its hint and error tied to it like `input`'s. */
export function textarea(options: TextareaOptions): Html {
  const { attributes, after } = described(options);
  return html`<label for="${options.id}">${options.label}</label>
<textarea id="${options.id}" name="${options.name}"${options.rows ? html` rows="${options.rows}"` : ''}${attributes}>${options.value ?? ''}</textarea>
${after}`;
}

/** An option; those with a `group` are shown under it, and the group names what it applies to (`data-for`). */
export interface SelectChoice {
  value: string;
  label: string;
  group?: { label: string; for: readonly string[] };
}

export interface SelectOptions {
  id: string;
  name: string;
  label: string;
  options: readonly SelectChoice[];
  value?: string;
  error?: FieldError | undefined;
  hint?: string;
}

export function select(options: SelectOptions): Html {
  const { attributes, after } = described(options);
  const option = (choice: SelectChoice): Html =>
    html`<option value="${choice.value}"${choice.value === options.value ? html` selected` : ''}>${choice.label}</option>`;
  // Consecutive options of one group go in one <optgroup>; ungrouped ones stand alone.
  const runs: { group: SelectChoice['group']; choices: SelectChoice[] }[] = [];
  for (const choice of options.options) {
    const last = runs.at(-1);
    if (last && last.group === choice.group) last.choices.push(choice);
    else runs.push({ group: choice.group, choices: [choice] });
  }
  const choices = runs.map(({ group, choices: members }) =>
    group
      ? html`<optgroup label="${group.label}" data-for="${group.for.join(' ')}">${members.map(option)}</optgroup>`
      : members.map(option),
  );
  return html`<label for="${options.id}">${options.label}</label>
<select id="${options.id}" name="${options.name}"${attributes}>${choices}</select>
${after}`;
}

/** A read-only address with a copy button (the button appears only when the script runs). */
export function copyField(id: string, label: string, value: string, buttonLabel: string): Html {
  return html`<label for="${id}">${label}</label>
<div class="copy-row"><input id="${id}" type="text" value="${value}" readonly><button type="button" class="secondary" data-copy="${id}" hidden>${buttonLabel}</button></div>`;
}

/** An error that concerns the whole form rather than one field. */
export const formAlert = (message: Fragment): Html => html`<p class="error" role="alert">${message}</p>`;
