import type { Assets } from '../assets.js';
import { html, type Fragment, type Html } from '../html.js';
import { csrfField, page, type Section, type Viewer } from '../layout.js';

/** What a step that cannot be undone asks before it is taken. */
export interface Confirmation {
  section: Section;
  title: string;
  heading: Fragment;
  /** What goes away, said plainly. */
  warning: string;
  /** Where the confirming form posts. */
  action: string;
  /** The button's name: "Delete permanently", "Revoke permanently". */
  button: string;
  /** Where "Cancel" leads. */
  back: string;
}

export function confirmPage(assets: Assets, viewer: Viewer, confirmation: Confirmation): Html {
  return page(assets, {
    title: confirmation.title,
    section: confirmation.section,
    viewer,
    body: html`<h1>${confirmation.heading}</h1>
<p class="warning">${confirmation.warning}</p>
<form method="post" action="${confirmation.action}">${csrfField(viewer)}
<button type="submit" class="danger">${confirmation.button}</button> <a href="${confirmation.back}">Cancel</a></form>`,
  });
}
