import type { Assets } from '../assets.js';
import { formAlert, input } from '../forms.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';

export interface SignInView {
  email?: string;
  /** Where the person goes once signed in. */
  next: string;
  error?: string;
  notice?: string;
}

export function signInPage(assets: Assets, view: SignInView): Html {
  return page(assets, {
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
<form class="panel" method="post" action="/dashboard/sign-in" aria-label="Sign in">
${view.error ? formAlert(view.error) : ''}
<input type="hidden" name="next" value="${view.next}">
${input({ id: 'email', name: 'email', label: 'Email', type: 'email', value: view.email ?? '', required: true, autocomplete: 'username' })}
${input({ id: 'password', name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<button type="submit">Sign in</button>
</form>
<p class="hint">No account yet? An operator creates one with <code>feedmill users create --account NAME --email EMAIL</code>.</p>`,
  });
}
